/**
 * Everything dialect-specific about the SQL the app writes by hand, in one place, so the same
 * queries run on SQLite and PostgreSQL:
 * - identifiers are quoted with " (both speak it; `transaction` and `user` are keywords);
 * - booleans are compared with the literals false / true (SQLite reads them as 0 / 1);
 * - `?` placeholders (the ORM's connection and SqlTx turn them into $1, $2 on PostgreSQL);
 * - fold(): Unicode case folding. SQLite: a JavaScript function registered on each connection;
 *   PostgreSQL: the SQL function the first PostgreSQL migration creates (ICU lower() of the NFC
 *   form). The same cases are tested on both;
 * - payee_key(): SQLite only (a registered function); on PostgreSQL the search resolves a payee
 *   to its descriptions first (payeeDescriptions in transactions.query.ts);
 * - bulk writes and streamed reads on a transaction's own connection (SqlTx below).
 */
import type { EntityManager } from '@mikro-orm/knex';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { payeeKey } from '../../shared/reports/payees';
import { foldText } from '../../shared/text/fold';
import { must } from '../../shared/must';

export type Dialect = 'sqlite' | 'postgresql';

/** A `count(*)` as the drivers answer it: a number on SQLite, a string (bigint) on PostgreSQL; read it with Number(). */
export type SqlCount = number | bigint | string;

/**
 * The dialect an entity manager talks. Of the two, PostgreSQL's platform is the one with schemas
 * (asked rather than compared with its class, whose import would load the PostgreSQL driver on SQLite).
 */
export function dialectOf(em: EntityManager): Dialect {
  return em.getPlatform().supportsSchemas() ? 'postgresql' : 'sqlite';
}

/** The transaction table, quoted (a keyword in both dialects). */
export const TRANSACTION_TABLE = '"transaction"';
/** The user table, quoted (`user` alone is CURRENT_USER on PostgreSQL). */
export const USER_TABLE = '"user"';

/**
 * The counted-row rule of src/shared/transactions/counted.ts (split parents never count,
 * their parts do) as a condition on a transaction row alias. A test holds both to the same rows.
 */
export function countedRowSql(alias = 't'): string {
  return `${alias}.is_split = false`;
}

/** `YYYY-MM` of a `YYYY-MM-DD` date column. */
export function monthSql(column: string): string {
  return `substr(${column}, 1, 7)`;
}

/** Unicode case folding of a text expression (fold() exists on both databases, see above). */
export function foldSql(expression: string): string {
  return `fold(${expression})`;
}

/** True when `needle` occurs in `haystack` (case as given: fold both first for a folded match). */
export function containsSql(dialect: Dialect, haystack: string, needle: string): string {
  return dialect === 'postgresql' ? `strpos(${haystack}, ${needle}) > 0` : `instr(${haystack}, ${needle}) > 0`;
}

/** The payee key of a description (payeeKey in src/shared/reports/payees.ts); SQLite only. */
export function payeeKeySql(expression: string): string {
  return `payee_key(${expression})`;
}

/** An order by which ties among equal values fall back to the order rows were written. */
export function insertionOrderSql(dialect: Dialect, alias: string, fallback: string): string {
  return dialect === 'postgresql' ? `${alias}.${fallback}` : `${alias}.rowid`;
}

/** The same descriptions come back again and again (a merchant a week): remember the last ones. */
function memoized(fn: (text: string) => string, size = 20_000): (text: string) => string {
  let cache = new Map<string, string>();
  return (text) => {
    let found = cache.get(text);
    if (found === undefined) {
      found = fn(text);
      if (cache.size >= size) cache = new Map();
      cache.set(text, found);
    }
    return found;
  };
}

/** Registers fold() and payee_key() on a new SQLite connection. */
export function registerSqlFunctions(connection: BetterSqlite3.Database): void {
  // foldText (src/shared/text/fold.ts) is what PostgreSQL's fold() function computes too.
  const key = memoized(payeeKey);
  connection.function('fold', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? foldText(text) : text,
  );
  connection.function('payee_key', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? key(text) : text,
  );
}

/** Runs a read inside the caller's transaction when there is one. */
export async function selectRows<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, [...params], 'all', em.getTransactionContext());
}

/** A column selectJsonColumns reads: an expression over the rows, and how its values are written in JSON. */
export interface JsonColumn {
  sql: string;
  type: 'text' | 'integer';
}

/** What selectJsonColumns answers: each column's values (the i-th of each from the same row), and the aggregates. */
export interface JsonColumns<A> {
  columns: unknown[][];
  aggregates: A;
}

/**
 * Many rows read as columns, in one statement inside the caller's transaction: for each of
 * `columns` (expressions over `from`, e.g. `"transaction" t where t.user_id = ?`), its values in
 * one JSON array, the i-th value of every column from the same row; beside them `aggregates`, a
 * select list of aggregates over the same rows (`count(*) as n, ...`), read in the same scan.
 * The database writes one text per column instead of the driver building an object (or array)
 * per row, and JSON.parse reads it back, which costs less than the driver's row arrays. Bounded by the database's longest text (SQLite: 1 GB).
 *
 * SQLite: one group_concat per column (one aggregate loop steps every aggregate for a row before
 * the next row). PostgreSQL: one string_agg of each row as a JSON array, split into columns here
 * (parallel aggregation could combine the workers' parts in a different order per aggregate).
 * `?` parameters: those of `aggregates`, then those of `from`.
 */
export async function selectJsonColumns<A>(
  em: EntityManager,
  columns: readonly JsonColumn[],
  from: string,
  aggregates: string,
  params: readonly unknown[],
): Promise<JsonColumns<A>> {
  if (dialectOf(em) === 'postgresql') {
    const rows = `'[' || coalesce(string_agg(json_build_array(${columns.map((column) => column.sql).join(', ')})::text, ','), '') || ']' as bt_rows`;
    const [answer] = await selectRows<A & { bt_rows: string }>(
      em,
      `select ${rows}, ${aggregates} from ${from}`,
      params,
    );
    const { bt_rows: text, ...rest } = must(answer, 'an aggregate answers one row');
    const values = JSON.parse(text) as unknown[][];
    return { columns: columns.map((_, c) => values.map((row) => row[c])), aggregates: rest as A };
  }
  const lists = columns.map(
    (column, c) =>
      `'[' || coalesce(group_concat(${column.type === 'text' ? jsonStringSql('sqlite', column.sql) : jsonIntegerSql(column.sql)}, ','), '') || ']' as bt_column_${c}`,
  );
  const [answer] = await selectRows<Record<string, unknown>>(
    em,
    `select ${lists.join(', ')}, ${aggregates} from ${from}`,
    params,
  );
  const row = must(answer, 'an aggregate answers one row');
  const values = columns.map((_, c) => JSON.parse(row[`bt_column_${c}`] as string) as unknown[]);
  const rest = Object.fromEntries(Object.entries(row).filter(([name]) => !name.startsWith('bt_column_')));
  return { columns: values, aggregates: rest as A };
}

/** Runs a write inside the caller's transaction when there is one; answers the rows it changed. */
export async function runSql(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows?: number; changes?: number }>(sql, [...params], 'run', em.getTransactionContext());
  return result.affectedRows ?? result.changes ?? 0;
}

/**
 * The connection a transaction (`em.transactional`) runs on, for bulk writes and streamed
 * reads with the same code on both databases. Only valid inside that transaction.
 */
export interface SqlTx {
  readonly dialect: Dialect;
  readonly all: <T extends object>(sql: string, params?: readonly unknown[]) => Promise<T[]>;
  /** Answers the number of rows changed. */
  readonly run: (sql: string, params?: readonly unknown[]) => Promise<number>;
  /** An INSERT of one row; answers its generated `id`. */
  readonly insertId: (sql: string, params?: readonly unknown[]) => Promise<number>;
  /** Rows as arrays of column values, `chunk` at a time, without holding the whole answer. */
  readonly iterate: <T extends unknown[]>(
    sql: string,
    params: readonly unknown[],
    chunk: number,
  ) => AsyncGenerator<T[]>;
  /** Most rows one multi-row INSERT may hold with `columns` parameters each. */
  readonly maxRowsPerInsert: (columns: number) => number;
}

/** Multi-row VALUES lists: `(?, ?, false), (?, ?, false)` from one row's template. */
export function valuesSql(rowTemplate: string, rows: number): string {
  return Array.from({ length: rows }, () => rowTemplate).join(', ');
}

export async function sqlTx(tem: EntityManager): Promise<SqlTx> {
  const trx = tem.getTransactionContext<{ client: { acquireConnection: () => Promise<unknown> } }>();
  if (!trx) throw new Error('sqlTx() needs a running transaction');
  const connection = await trx.client.acquireConnection();
  return dialectOf(tem) === 'postgresql'
    ? postgresTx(connection as pg.ClientBase)
    : sqliteTx(connection as BetterSqlite3.Database);
}

const statements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();

/**
 * better-sqlite3 binds no booleans: SQLite stores them as 1 and 0. Parameters without a boolean
 * are answered as they are: an import's multi-row INSERT binds over a thousand values a statement,
 * and copying them (then spreading them into the call's arguments) showed in an import's profile.
 * better-sqlite3 takes the array itself as the anonymous parameters.
 */
export function sqliteParams(params: readonly unknown[]): readonly unknown[] {
  for (let i = 0; i < params.length; i++) {
    if (typeof params[i] === 'boolean')
      return params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
  }
  return params;
}

/** A synchronous call's value or throw as a settled promise (what an async function would answer). */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

function sqliteTx(db: BetterSqlite3.Database): SqlTx {
  let cache = statements.get(db);
  if (!cache) statements.set(db, (cache = new Map<string, BetterSqlite3.Statement>()));
  const prepared = (sql: string) => {
    let statement = cache.get(sql);
    if (!statement) {
      statement = db.prepare(sql);
      if (cache.size > 200) cache.clear();
      cache.set(sql, statement);
    }
    return statement;
  };
  return {
    dialect: 'sqlite',
    all: <T extends object>(sql: string, params: readonly unknown[] = []) =>
      settled(() => prepared(sql).all(sqliteParams(params)) as T[]),
    run: (sql, params = []) => settled(() => prepared(sql).run(sqliteParams(params)).changes),
    insertId: (sql, params = []) => settled(() => Number(prepared(sql).run(sqliteParams(params)).lastInsertRowid)),
    // eslint-disable-next-line @typescript-eslint/require-await -- SqlTx streams through an AsyncGenerator; better-sqlite3 reads synchronously
    async *iterate<T extends unknown[]>(sql: string, params: readonly unknown[], chunk: number) {
      let rows: T[] = [];
      for (const row of prepared(sql).raw(true).iterate(sqliteParams(params)) as Iterable<T>) {
        rows.push(row);
        if (rows.length === chunk) {
          yield rows;
          rows = [];
        }
      }
      if (rows.length > 0) yield rows;
    },
    // SQLite allows 32,766 parameters; a statement of a few hundred rows is already cheap per row.
    maxRowsPerInsert: (columns) => Math.max(1, Math.min(100, Math.floor(32_000 / columns))),
  };
}

/** `?` placeholders as PostgreSQL's $1, $2 (no `?` may occur in literals; none of ours do). */
const numbered = new Map<string, string>();
export function numberPlaceholders(sql: string): string {
  let text = numbered.get(sql);
  if (text === undefined) {
    let n = 0;
    text = sql.replace(/\?/g, () => `$${++n}`);
    if (numbered.size > 500) numbered.clear();
    numbered.set(sql, text);
  }
  return text;
}

let cursors = 0;

function postgresTx(client: pg.ClientBase): SqlTx {
  const query = <R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: readonly unknown[]) =>
    client.query<R>(numberPlaceholders(sql), [...params]);
  return {
    dialect: 'postgresql',
    async all<T extends object>(sql: string, params: readonly unknown[] = []) {
      return (await query(sql, params)).rows as T[];
    },
    async run(sql, params = []) {
      return (await query(sql, params)).rowCount ?? 0;
    },
    async insertId(sql, params = []) {
      const [row] = (await query<{ id: number }>(`${sql} returning id`, params)).rows;
      return must(row, 'an INSERT ... RETURNING answers the row it inserted').id;
    },
    async *iterate<T extends unknown[]>(sql: string, params: readonly unknown[], chunk: number) {
      // A server-side cursor inside the transaction: the rows come `chunk` at a time.
      const name = `bt_cursor_${++cursors}`;
      await client.query(`declare ${name} no scroll cursor for ${numberPlaceholders(sql)}`, [...params]);
      try {
        for (;;) {
          const result = await client.query({ text: `fetch forward ${chunk} from ${name}`, rowMode: 'array' });
          if (result.rows.length > 0) yield result.rows as T[];
          if (result.rows.length < chunk) return;
        }
      } finally {
        await client.query(`close ${name}`);
      }
    },
    // At most 65,535 parameters a statement.
    maxRowsPerInsert: (columns) => Math.max(1, Math.min(2000, Math.floor(65_000 / columns))),
  };
}

/** A user scope waiting for its transaction's BEGIN (see scopeUsersInBegin). */
interface PendingScope {
  userId: number;
  /** Until withUserScope's own work starts: a BEGIN inside the work is another transaction's. */
  open: boolean;
  /** The connection whose BEGIN also set the user, once it has. */
  connection: unknown;
}

const pendingScopes = new AsyncLocalStorage<PendingScope>();

/**
 * Runs `work` with row-level security keyed on `userId` (PostgreSQL): one transaction whose
 * `app.user_id` setting the policies of every user-owned table compare with `user_id`, so a
 * query that forgets its user condition still sees only this user's rows. SQLite has no
 * row-level security: `work` runs as it is, on the request's entity manager.
 *
 * The setting goes in the same round trip as the transaction's BEGIN (scopeUsersInBegin): one
 * message `BEGIN; select set_config(...)` instead of two, on every request of a signed-in user.
 * When that did not happen on this transaction's connection (an entity manager already inside a
 * transaction takes a savepoint, not a BEGIN), the setting is its own statement, as before.
 */
export async function withUserScope<T>(
  em: EntityManager,
  userId: number,
  work: (em: EntityManager) => Promise<T>,
): Promise<T> {
  if (dialectOf(em) !== 'postgresql') return work(em);
  if (!Number.isSafeInteger(userId)) throw new Error(`withUserScope: not a user id: ${String(userId)}`);
  const scope: PendingScope = { userId, open: true, connection: null };
  return pendingScopes.run(scope, () =>
    em.transactional(async (tem) => {
      scope.open = false;
      const trx = tem.getTransactionContext<{ client: { acquireConnection: () => Promise<unknown> } }>();
      const connection = scope.connection === null ? null : await trx?.client.acquireConnection();
      if (connection === null || connection !== scope.connection) await setUserScope(tem, userId);
      return work(tem);
    }),
  );
}

/** Sets the row-level security user for the rest of the running transaction (PostgreSQL). */
export async function setUserScope(tem: EntityManager, userId: number): Promise<void> {
  if (dialectOf(tem) !== 'postgresql') return;
  await selectRows(tem, "select set_config('app.user_id', ?, true)", [String(userId)]);
}

/** The part of knex's PostgreSQL client that scopeUsersInBegin wraps (knex/lib/dialects/postgres). */
export interface KnexPgClient {
  _query: (connection: unknown, obj: { sql?: string; bindings?: readonly unknown[] }) => Promise<unknown>;
}

const scopingBegin = Symbol('scopeUsersInBegin');

/**
 * The first BEGIN knex sends inside withUserScope (its own transaction's, before any other
 * statement of it) also sets the user: `BEGIN; select set_config('app.user_id', '<id>', true)`, one
 * simple-protocol message and one round trip, where BEGIN and then the setting were two. The id is
 * a safe integer (withUserScope checks it), so the literal holds digits only. A scope is used once;
 * withUserScope sets the user itself when its transaction's connection is not the one this one did.
 * Knex runs a transaction's statements through a copy of the client made from its class's
 * prototype, so the prototype's `_query` is the one wrapped (once per class; outside a
 * withUserScope it is knex's own).
 */
export function scopeUsersInBegin(client: KnexPgClient): void {
  const proto = (client.constructor as { prototype: KnexPgClient & { [scopingBegin]?: true } }).prototype;
  if (proto[scopingBegin]) return;
  const original = proto._query;
  proto._query = function (this: KnexPgClient, connection, obj) {
    const scope = pendingScopes.getStore();
    if (scope?.open && scope.connection === null && obj.sql === 'BEGIN;' && (obj.bindings ?? []).length === 0) {
      scope.connection = connection;
      obj.sql = `BEGIN; select set_config('app.user_id', '${String(scope.userId)}', true);`;
    }
    return original.call(this, connection, obj);
  };
  proto[scopingBegin] = true;
}

/*
 * JSON text built by the database (both dialects), for answers that carry many rows: the
 * database writes each row's JSON and joins them, and the server sends the text as it is
 * instead of building an object per row and stringifying it again.
 */

/** A text column as JSON: a quoted, escaped string, or null. */
export function jsonStringSql(dialect: Dialect, expression: string): string {
  return dialect === 'postgresql' ? `coalesce(to_json(${expression})::text, 'null')` : `json_quote(${expression})`;
}

/**
 * A text column whose values never need a JSON escape, as JSON: the app writes only dates
 * (YYYY-MM-DD), words of a fixed list (a transaction's type, a category's source) and UUIDs
 * there. On PostgreSQL quoted as it is: to_json per value was a large share of the search's
 * database CPU. SQLite quotes it as jsonStringSql does.
 */
export function jsonWordSql(dialect: Dialect, expression: string): string {
  return dialect === 'postgresql'
    ? `coalesce('"' || ${expression} || '"', 'null')`
    : jsonStringSql(dialect, expression);
}

/** An integer column as JSON: its digits, or null. */
export function jsonIntegerSql(expression: string): string {
  return `coalesce(cast(${expression} as text), 'null')`;
}

/** A boolean column (0/1 on SQLite) as JSON true or false. */
export function jsonBooleanSql(expression: string): string {
  return `case when ${expression} then 'true' else 'false' end`;
}

/** A JSON object from [key, value-as-JSON-text expression] pairs, keys in the order given (plain identifiers only). */
export function jsonObjectSql(fields: readonly (readonly [string, string])[]): string {
  return fields.map(([key, value], i) => `'${i === 0 ? '{' : ','}"${key}":' || ${value}`).join(' || ') + ` || '}'`;
}

/** One text aggregate of orderedAggregatesSql: `item` per row (null rows skipped), joined by `separator`. */
export interface TextAggregate {
  alias: string;
  item: string;
  /** A plain character or two, no quote. */
  separator: string;
  /**
   * Answer the joined text as its UTF-8 bytes (a Buffer on both drivers) rather than a string: a
   * text of megabytes that is only sent on is never decoded into a JavaScript string and encoded again.
   */
  bytes?: boolean;
}

/** A TextAggregate's aggregate expression (its rows already in order). */
function textAggregateSql(dialect: Dialect, aggregate: TextAggregate, orderBy: string | null): string {
  const joined = `string_agg(${aggregate.item}, '${aggregate.separator}'${orderBy ? ` order by ${orderBy}` : ''})`;
  if (!aggregate.bytes) return joined;
  return dialect === 'postgresql' ? `convert_to(${joined}, 'UTF8')` : `cast(${joined} as blob)`;
}

/**
 * A SELECT of text aggregates over `source` (a FROM item aliased `s`), each joining its rows in
 * `orderBy` order (over the columns of `s`). PostgreSQL orders each aggregate's input itself
 * (string_agg ... ORDER BY); SQLite reads the rows from a subquery already in that order, so
 * several aggregates share one sort instead of sorting the rows once each.
 */
export function orderedAggregatesSql(
  dialect: Dialect,
  aggregates: readonly TextAggregate[],
  source: string,
  orderBy: string,
): string {
  if (dialect === 'postgresql') {
    return `select ${aggregates.map((a) => `${textAggregateSql(dialect, a, orderBy)} as ${a.alias}`).join(', ')} from ${source}`;
  }
  return `select ${aggregates.map((a) => `${textAggregateSql(dialect, a, null)} as ${a.alias}`).join(', ')} from (select * from ${source} order by ${orderBy}) s`;
}

/**
 * PostgreSQL: the rows of `select` as the JSON text of an array, each row written by `json` (an
 * expression over the columns of `select`, aliased `s`, e.g. jsonObjectSql's), rows in the order
 * `select` answers them. Each row's JSON comes back as its own text and the server joins them:
 * one aggregated text (an ARRAY() or string_agg of the rows) cost the database several times
 * as much.
 */
export async function pgSelectJsonRows(
  em: EntityManager,
  select: string,
  json: string,
  params: readonly unknown[],
): Promise<string> {
  const rows = await selectRows<{ json: string }>(em, `select ${json} as json from (${select}) s`, params);
  return joinJsonRows(rows);
}

/** `[` + each row's `json` + `]`, comma-separated. */
export function joinJsonRows(rows: readonly { json: string | null }[]): string {
  let text = '';
  for (const row of rows) if (row.json !== null) text += text ? `,${row.json}` : row.json;
  return `[${text}]`;
}

/**
 * joinJsonRows as UTF-8 bytes, each row's text written straight into one buffer of the exact
 * size: for an answer sent as it is. Joining the texts into one string and encoding that
 * (Buffer.from) first flattens a string of twice as many pieces as rows.
 */
export function joinJsonRowBytes(rows: readonly { json: string | null }[]): Buffer {
  let size = 2;
  let joined = 0;
  for (const row of rows) {
    if (row.json === null) continue;
    size += Buffer.byteLength(row.json, 'utf8');
    joined += 1;
  }
  const bytes = Buffer.allocUnsafe(size + Math.max(0, joined - 1));
  let at = 0;
  bytes[at++] = 0x5b; // [
  for (const row of rows) {
    if (row.json === null) continue;
    if (at > 1) bytes[at++] = 0x2c; // ,
    at += bytes.write(row.json, at, 'utf8');
  }
  bytes[at++] = 0x5d; // ]
  return bytes;
}

/** What pgCountedJsonRows reads: `select <json> from (select <columns> from <from> where <where> order by <orderBy>) s`. */
export interface CountedJsonQuery {
  columns: string;
  /** One row's JSON text, an expression over the columns of `s` (e.g. jsonObjectSql's). */
  json: string;
  from: string;
  where: string;
  orderBy: string;
  /** One page of the rows (their count is still that of all of them). */
  page: { limit: number; offset: number } | null;
  /** Over this many rows, none are read (the caller refuses the answer; total still says how many). */
  max: number;
}

/**
 * PostgreSQL: how many rows match and (when at most `max`) each row's JSON (joined as UTF-8 bytes: joinJsonRowBytes), in one statement, so
 * a search costs one round trip instead of a count and then a read. The count comes first (k)
 * and the rows are a lateral subquery that reads nothing when k.n is over `max`; referring to k
 * makes the join a nested loop over k's one row, which keeps the subquery's order. With no
 * matching row (or none on the page) one row comes back with json null. The count is a column
 * of every row only when paged: the driver would otherwise read it again on every row. The statement is prepared once per connection (pgPreparedRows).
 * `?` parameters: `params` (those of `where`) are sent twice, for the count and for the rows.
 * `scope`: the user whose rows a call outside a transaction reads, in one round trip (pgPreparedRows).
 */
export async function pgCountedJsonRows(
  em: EntityManager,
  query: CountedJsonQuery,
  params: readonly unknown[],
  scope?: number,
): Promise<{ json: Buffer; total: number }> {
  const { columns, json, from, where, orderBy, page, max } = query;
  // Unpaged, every row is read (or none, over the cap): their number is the count, sent only beside no row.
  const rows = await pgPreparedRows<{ total: SqlCount | null; json: string | null }>(
    em,
    `with k as (select count(*) as n from ${from} where ${where})
     select ${page ? 'k.n' : 'case when r.json is null then k.n end'} as total, r.json from k left join lateral (
       select ${json} as json from (
         select ${columns} from ${from} where (${where}) and k.n <= ? order by ${orderBy}${page ? ' limit ? offset ?' : ''}
       ) s
     ) r on true`,
    [...params, ...params, max, ...(page ? [page.limit, page.offset] : [])],
    scope,
  );
  const total = rows[0]?.total;
  return { json: joinJsonRowBytes(rows), total: total === null || total === undefined ? rows.length : Number(total) };
}

/** Most statements pgPreparedRows prepares on one connection; past them, a new statement runs unnamed (planned on each call). */
export const MAX_PREPARED_STATEMENTS = 100;

/** The statements pgPreparedRows has prepared on each connection, by name. */
const preparedOn = new WeakMap<object, Set<string>>();
/** A statement's name: a hash of its text (so one text always has one name). */
const statementNames = new Map<string, string>();

function statementName(text: string): string {
  let name = statementNames.get(text);
  if (name === undefined) {
    name = `bt_${createHash('sha1').update(text).digest('hex').slice(0, 24)}`;
    if (statementNames.size > 500) statementNames.clear();
    statementNames.set(text, name);
  }
  return name;
}

/**
 * PostgreSQL: the rows of `sql` (`?` placeholders) as a statement prepared on the connection
 * (SQL `PREPARE`, once per connection) and run with `EXECUTE name(values)`, each row an object
 * of its columns as selectRows answers it. The ORM writes values into the text, so each call of a
 * plain read is a new statement that PostgreSQL parses and plans again; prepared, it is parsed once per connection
 * and, after its first five runs there, planned once (a generic plan: the search's is an index
 * range scan whatever the dates). `EXECUTE` goes as a simple-protocol query with the values
 * written in as the ORM writes them (the driver's extended protocol cost the server more per
 * search). A connection keeps at most MAX_PREPARED_STATEMENTS of them (they live as
 * long as it does); beyond, a statement runs as selectRows runs it.
 *
 * Inside the caller's transaction (withUserScope) it runs there. Outside one, with `scope` (a
 * user id), it is one round trip on a pooled connection: `select set_config('app.user_id', <id>,
 * true); execute ...` in one message, which PostgreSQL runs as one implicit transaction, so the
 * row-level security user holds for the read and ends with it, as withUserScope's would; no BEGIN
 * and COMMIT of their own, nor the ORM's transaction. That read also takes the generic plan from
 * its first run (plan_cache_mode, for that transaction only): otherwise the first five runs on
 * every new connection are planned for their values, each costing the database more. Outside a transaction and
 * without a scope: selectRows.
 */
export async function pgPreparedRows<T extends object>(
  em: EntityManager,
  sql: string,
  params: readonly unknown[],
  scope?: number,
): Promise<T[]> {
  const trx = em.getTransactionContext<{ client: { acquireConnection: () => Promise<unknown> } }>();
  if (!trx && scope !== undefined) return pgScopedPreparedRows<T>(em, scope, sql, params);
  if (!trx) return selectRows<T>(em, sql, params);
  const connection = (await trx.client.acquireConnection()) as object;
  const name = await preparedName(connection, sql, (text) => runSql(em, text));
  if (name === null) return selectRows<T>(em, sql, params);
  return selectRows<T>(em, `execute ${name}(${params.map(() => '?').join(', ')})`, params);
}

/**
 * The name `sql` is prepared under on `connection`, preparing it there first (with `run`) when it
 * is not yet; null when the connection already holds MAX_PREPARED_STATEMENTS others.
 */
async function preparedName(
  connection: object,
  sql: string,
  run: (text: string) => Promise<unknown>,
): Promise<string | null> {
  const text = numberPlaceholders(sql);
  const name = statementName(text);
  let prepared = preparedOn.get(connection);
  if (!prepared) preparedOn.set(connection, (prepared = new Set()));
  if (!prepared.has(name)) {
    if (prepared.size >= MAX_PREPARED_STATEMENTS) return null;
    await run(`prepare ${name} as ${text}`);
    prepared.add(name);
  }
  return name;
}

/** The part of knex's client pgScopedPreparedRows takes a pooled connection from. */
interface KnexPool {
  acquireConnection: () => Promise<pg.ClientBase>;
  releaseConnection: (connection: pg.ClientBase) => Promise<unknown>;
}

/** pgPreparedRows outside a transaction, scoped to `userId`: one round trip on a pooled connection (see there). */
async function pgScopedPreparedRows<T extends object>(
  em: EntityManager,
  userId: number,
  sql: string,
  params: readonly unknown[],
): Promise<T[]> {
  if (!Number.isSafeInteger(userId)) throw new Error(`pgPreparedRows: not a user id: ${String(userId)}`);
  const connection = em.getConnection();
  const platform = em.getPlatform();
  const pool = connection.getKnex().client as KnexPool;
  const client = await pool.acquireConnection();
  try {
    const query = async (text: string) => {
      try {
        const results = (await client.query(text)) as pg.QueryResult | pg.QueryResult[];
        return Array.isArray(results) ? must(results.at(-1), 'a query answers a result per statement') : results;
      } catch (error) {
        throw platform.getExceptionConverter().convertException(error as Error);
      }
    };
    const name = await preparedName(client, sql, query);
    const read = name === null ? sql : `execute ${name}(${params.map(() => '?').join(', ')})`;
    // The id is a safe integer (checked above): the literal holds digits only, as scopeUsersInBegin's.
    // The generic plan from the first run on (PostgreSQL plans the first five runs for their values otherwise).
    const scope = `select set_config('app.user_id', '${String(userId)}', true), set_config('plan_cache_mode', 'force_generic_plan', true)`;
    const { rows } = await query(platform.formatQuery(`${scope}; ${read}`, [...params]));
    return rows as T[];
  } finally {
    await pool.releaseConnection(client);
  }
}

/** The JSON array of rows whose JSON texts an orderedAggregatesSql aggregate joined with ',' (null when there were none). */
export function jsonArrayText(joined: string | null | undefined): string {
  return joined ? `[${joined}]` : '[]';
}

const OPEN_BRACKET = Buffer.from('[');
const CLOSE_BRACKET = Buffer.from(']');
const EMPTY_ARRAY = Buffer.from('[]');

/** jsonArrayText of an aggregate read as bytes (TextAggregate.bytes): the array's pieces, in order, the rows' bytes not copied. */
export function jsonArrayBytes(joined: Buffer | null | undefined): Buffer[] {
  return joined && joined.length > 0 ? [OPEN_BRACKET, joined, CLOSE_BRACKET] : [EMPTY_ARRAY];
}

/** The part of knex's better-sqlite3 client that cacheSqliteStatements replaces (knex/lib/dialects/better-sqlite3). */
export interface KnexSqliteClient {
  _query: (connection: BetterSqlite3.Database, obj: KnexQueryObject) => Promise<KnexQueryObject>;
}

interface KnexQueryObject {
  sql?: string;
  bindings?: readonly unknown[];
  options?: { safeIntegers?: unknown };
  response?: unknown;
  context?: { lastID: number | bigint; changes: number };
}

/**
 * Knex prepares every statement it runs on better-sqlite3 anew: for the overview's JSON query
 * that is a compile of a few hundred terms on each request, and every request also runs its
 * sign-in and user lookups. This keeps each connection's prepared statements by SQL text (at most
 * 300, forgotten all at once beyond) and runs them as knex's _query does; a query asking for its
 * own safeIntegers mode is left to knex (it changes the statement). The statements are knex's
 * alone (SqlTx keeps its own), so no other code changes their modes.
 */
export function cacheSqliteStatements(client: KnexSqliteClient): void {
  const original = client._query.bind(client);
  const caches = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();
  client._query = async (connection, obj) => {
    if (!obj.sql || typeof obj.options?.safeIntegers === 'boolean') return original(connection, obj);
    let cache = caches.get(connection);
    if (!cache) caches.set(connection, (cache = new Map<string, BetterSqlite3.Statement>()));
    let statement = cache.get(obj.sql);
    if (!statement) {
      statement = connection.prepare(obj.sql);
      if (cache.size >= 300) cache.clear();
      cache.set(obj.sql, statement);
    }
    const bindings = (obj.bindings ?? []).map((value) =>
      value instanceof Date ? value.valueOf() : typeof value === 'boolean' ? Number(value) : value,
    );
    if (statement.reader) {
      obj.response = statement.all(bindings);
      return Promise.resolve(obj);
    }
    const response = statement.run(bindings);
    obj.response = response;
    obj.context = { lastID: response.lastInsertRowid, changes: response.changes };
    return Promise.resolve(obj);
  };
}
