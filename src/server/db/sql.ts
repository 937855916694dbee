/**
 * The SQL the app writes by hand, on either database:
 * - identifiers are quoted with " (both speak it; `transaction` and `user` are keywords);
 * - booleans are compared with the literals false / true (SQLite reads them as 0 / 1);
 * - `?` placeholders (the ORM's connection and SqlTx turn them into $1, $2 on PostgreSQL);
 * - fold(): Unicode case folding. SQLite: a JavaScript function registered on each connection;
 *   PostgreSQL: the SQL function the first PostgreSQL migration creates. The same cases are tested on both;
 * - payee_key(): SQLite only (a registered function); the PostgreSQL read model resolves a payee
 *   to its descriptions first;
 * - bulk writes and streamed reads on a transaction's own connection (SqlTx below).
 */
import type { EntityManager } from '@mikro-orm/knex';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { payeeKey } from '../../shared/reports/payees';
import { foldText } from '../../shared/text/fold';
import { must } from '../../shared/must';
import { transactionConnection } from './knex-internals';
import { readerOf } from './read-worker/pool';

/** A `count(*)` as the drivers answer it: a number on SQLite, a string (bigint) on PostgreSQL; read it with Number(). */
export type SqlCount = number | bigint | string;

/**
 * True when an entity manager talks to PostgreSQL. Of the two platforms, PostgreSQL's is the one
 * with schemas (asked rather than compared with its class, whose import would load its driver).
 * Only modules under db/ ask.
 */
export function onPostgres(em: EntityManager): boolean {
  return em.getPlatform().supportsSchemas();
}

/**
 * How many long bulk writes (imports) one process runs at once: SQLite one (a write transaction
 * holds the whole file); PostgreSQL a few, since imports are mostly CPU: a few at a time finish as
 * soon as many would, and a search between their steps waits behind fewer of them.
 */
export function bulkWritersAtOnce(em: EntityManager): number {
  return onPostgres(em) ? 2 : 1;
}

/** The transaction table, quoted (a keyword in both dialects). */
export const TRANSACTION_TABLE = '"transaction"';

/**
 * The counted-row rule of src/shared/transactions/counted.ts (split parents never count,
 * their parts do) as a condition on a row alias. A test holds both to the same rows.
 */
export function countedRowSql(alias = 't', isSplitColumn = 'is_split'): string {
  return `${alias}.${isSplitColumn} = false`;
}

/**
 * The on-plan flag of the account of the other side of linked row `alias` (false when it has none).
 * The answer's `transferCounterpartOnBudget` field reads it, and so does the internal-transfer rule.
 */
export function counterpartOnBudgetSql(alias = 't'): string {
  return `coalesce((select oa.on_budget from ${TRANSACTION_TABLE} o join account oa on oa.id = o.account_id
    where o.transfer_id = ${alias}.transfer_id and o.id <> ${alias}.id), false)`;
}

/** The expressions the internal-transfer rule reads: the link, and both sides' accounts' on-plan flags. */
export interface TransferSidesSql {
  transfer: string;
  ownOnBudget: string;
  otherOnBudget: string;
}

/** The rule's inputs over the transaction table aliased `alias`. */
function tableSides(alias: string): TransferSidesSql {
  return {
    transfer: `${alias}.transfer_id`,
    ownOnBudget: `coalesce((select ta.on_budget from account ta where ta.id = ${alias}.account_id), false)`,
    otherOnBudget: counterpartOnBudgetSql(alias),
  };
}

/** The rule's inputs over a subquery of transaction answers (TRANSACTION_SELECT's columns) aliased `alias`. */
export function answerSides(alias: string): TransferSidesSql {
  return {
    transfer: `${alias}."transferId"`,
    ownOnBudget: `${alias}."accountOnBudget"`,
    otherOnBudget: `${alias}."transferCounterpartOnBudget"`,
  };
}

/**
 * The internal-transfer rule of src/shared/transactions/counted.ts (isInternalTransfer): a linked side
 * is internal unless its account is on the plan and the other side's is not. The one place
 * income-and-spending totals (reports, payees, the budget overview, envelopes, search totals, the
 * plan) leave transfers out; balances keep them. A test holds both forms to the same rows.
 */
export function internalTransferSql(sides: string | TransferSidesSql = 't'): string {
  const s = typeof sides === 'string' ? tableSides(sides) : sides;
  // The link is tested first: an unlinked row (most rows) never reaches the account lookups.
  return `(${s.transfer} is not null and not (${s.ownOnBudget} = true and ${s.otherOnBudget} = false))`;
}

/** The rows income-and-spending totals count (countsAsIncomeOrSpending): counted and not an internal transfer. */
export function reportedRowSql(
  alias = 't',
  isSplitColumn = 'is_split',
  sides: string | TransferSidesSql = alias,
): string {
  return `${countedRowSql(alias, isSplitColumn)} and not ${internalTransferSql(sides)}`;
}

/** The Unicode code point of a text's first character (a number; null for null). */
export function firstCodePointSql(em: EntityManager, expression: string): string {
  return onPostgres(em) ? `ascii(${expression})` : `unicode(${expression})`;
}

/** An aggregate of the values of an expression over a group as one comma-separated text (null for no value). */
export function listAggSql(em: EntityManager, expression: string): string {
  return onPostgres(em) ? `string_agg(cast(${expression} as text), ',')` : `group_concat(${expression}, ',')`;
}

/** Registers fold() and payee_key() on a new SQLite connection (what PostgreSQL's SQL functions compute). */
export function registerSqlFunctions(connection: BetterSqlite3.Database): void {
  connection.function('fold', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? foldText(text) : text,
  );
  connection.function('payee_key', { deterministic: true }, (text: unknown) =>
    typeof text === 'string' ? payeeKey(text) : text,
  );
}

/** Runs a read inside the caller's transaction when there is one. */
export async function selectRows<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, [...params], 'all', em.getTransactionContext());
}

/**
 * One row of aggregates over many rows (`sql` selects the columns `names`), read off the event loop where it can
 * be: on SQLite outside a transaction, on a reader thread (its scan then holds no other request); inside a
 * transaction, or on PostgreSQL, as selectRows reads it.
 */
export async function selectAggregateRow(
  em: EntityManager,
  names: readonly string[],
  sql: string,
  params: readonly unknown[],
): Promise<Record<string, unknown> | undefined> {
  const reader = em.getTransactionContext() === undefined ? readerOf(em) : null;
  if (!reader) return (await selectRows<Record<string, unknown>>(em, sql, params))[0];
  const answer = await reader.countedJson({
    count: { sql: 'select 1', params: [] },
    rows: {
      sql: `select cast(json_array(${names.map((name) => `q."${name}"`).join(', ')}) as blob) from (${sql}) q`,
      params: sqliteParams(params),
    },
    max: 1,
  });
  if (!answer.json) return undefined;
  const values = JSON.parse(answer.json.toString('utf8')) as unknown[];
  return Object.fromEntries(names.map((name, i) => [name, values[i]]));
}

/** Runs a write inside the caller's transaction when there is one; answers the rows it changed. */
export async function runSql(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<number> {
  const result = await em
    .getConnection()
    .execute<{ affectedRows?: number; changes?: number }>(sql, [...params], 'run', em.getTransactionContext());
  return result.affectedRows ?? result.changes ?? 0;
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
 * `columns` (expressions over `from`), its values in one JSON array, the i-th value of every
 * column from the same row; beside them `aggregates`, a select list of aggregates over the same
 * rows, read in the same scan. The database writes one text per column instead of the driver
 * building an object per row. `?` parameters: those of `aggregates`, then those of `from`.
 * SQLite: one group_concat per column. PostgreSQL: one string_agg of each row as a JSON array,
 * split into columns here (parallel aggregation could order each aggregate's input differently).
 */
export async function selectJsonColumns<A>(
  em: EntityManager,
  columns: readonly JsonColumn[],
  from: string,
  aggregates: string,
  params: readonly unknown[],
): Promise<JsonColumns<A>> {
  if (onPostgres(em)) {
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
  const lists = columns.map((column, c) => {
    const value =
      column.type === 'text' ? `json_quote(${column.sql})` : `coalesce(cast(${column.sql} as text), 'null')`;
    return `'[' || coalesce(group_concat(${value}, ','), '') || ']' as bt_column_${c}`;
  });
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

/** `[` + each row's `json` + `]`, comma-separated, as UTF-8 bytes written straight into one buffer. */
export function joinJsonRowBytes(rows: readonly { json: string | null }[]): Buffer {
  const texts = rows.flatMap((row) => (row.json === null ? [] : [row.json]));
  return Buffer.from(`[${texts.join(',')}]`, 'utf8');
}

/**
 * The connection a transaction (`em.transactional`) runs on, for bulk writes and streamed
 * reads with the same code on both databases. Only valid inside that transaction.
 */
export interface SqlTx {
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
  /**
   * Holds the lock named by two numbers until the transaction ends, so writers that may run side
   * by side (PostgreSQL, also from other processes) take turns; SQLite's one writer holds the whole file.
   */
  readonly lock: (space: number, key: number) => Promise<void>;
  /** lock() named by a text. */
  readonly lockName: (name: string) => Promise<void>;
  /** How this database takes many rows at once (transaction-writes.ts). */
  readonly bulk: BulkDialect;
  /** Most rows one multi-row INSERT may hold with `columns` parameters each. */
  readonly maxRowsPerInsert: (columns: number) => number;
}

/** How a database takes many rows at once (transaction-writes.ts). */
export type BulkDialect = 'values' | 'unnest';

/**
 * A PostgreSQL array literal of strings, numbers and nulls (`{"a","b\\"c",NULL,12}`), sent as one
 * text parameter and cast by the statement (`?::text[]`).
 */
export function pgArrayLiteral(values: readonly (string | number | boolean | null | undefined)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) parts[i] = 'NULL';
    else if (typeof value === 'number') parts[i] = String(value);
    else parts[i] = `"${String(value).replace(/[\\"]/g, '\\$&')}"`;
  }
  return `{${parts.join(',')}}`;
}

/**
 * A list of tuples as a table to join against, `alias(n, ...columns)` where `n` is each tuple's place in the list
 * (from 0): one JSON text on SQLite (json_each), one array a column on PostgreSQL (unnest; `columns` give each one's
 * type there). Thousands of keys are then looked up in one statement, each through the joined table's index.
 */
export function tuplesSql(
  db: SqlTx,
  alias: string,
  columns: readonly (readonly [name: string, pgType: string])[],
  tuples: readonly (readonly (string | number | null)[])[],
): { sql: string; params: string[] } {
  if (db.bulk === 'values') {
    const picked = columns.map(([name], i) => `json_extract(value, '$[${i}]') as ${name}`).join(', ');
    return { sql: `(select key as n, ${picked} from json_each(?)) as ${alias}`, params: [JSON.stringify(tuples)] };
  }
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type]) => `?::${type}[]`).join(', ');
  return {
    sql: `(select n - 1 as n, ${names} from unnest(${arrays}) with ordinality as u(${names}, n)) as ${alias}`,
    params: columns.map((_, i) => pgArrayLiteral(tuples.map((tuple) => tuple[i]))),
  };
}

/**
 * `count` ids for rows this transaction is about to insert into `table`, so many rows a statement can be written
 * knowing each one's id: PostgreSQL draws them from the table's sequence; SQLite counts on from the largest id it
 * ever gave (the transaction holds the one write lock once it writes, and nothing else writes in between).
 */
export async function reserveIds(db: SqlTx, table: string, count: number): Promise<number[]> {
  if (count === 0) return [];
  if (db.bulk === 'unnest') {
    const rows = await db.all<{ id: number }>(
      `select nextval(pg_get_serial_sequence('"${table}"', 'id'))::int as id from generate_series(1, ?::int)`,
      [count],
    );
    return rows.map((row) => row.id);
  }
  const [row] = await db.all<{ base: number }>(
    `select max(coalesce((select seq from sqlite_sequence where name = ?), 0),
                coalesce((select max(id) from "${table}"), 0)) as base`,
    [table],
  );
  const base = row?.base ?? 0;
  return Array.from({ length: count }, (_, i) => base + i + 1);
}

/** Multi-row VALUES lists: `(?, ?, false), (?, ?, false)` from one row's template. */
export function valuesSql(rowTemplate: string, rows: number): string {
  return Array.from({ length: rows }, () => rowTemplate).join(', ');
}

export async function sqlTx(tem: EntityManager): Promise<SqlTx> {
  const connection = await transactionConnection(tem);
  return onPostgres(tem) ? postgresTx(connection as pg.ClientBase) : sqliteTx(connection as BetterSqlite3.Database);
}

/** better-sqlite3 binds no booleans: SQLite stores them as 1 and 0. */
export function sqliteParams(params: readonly unknown[]): unknown[] {
  return params.map((value) => (typeof value === 'boolean' ? (value ? 1 : 0) : value));
}

/** A synchronous call's value or throw as a settled promise (what an async function would answer). */
function settled<T>(work: () => T): Promise<T> {
  try {
    return Promise.resolve(work());
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

/** Statements prepared on each SQLite connection, by text: preparing costs more than running a one-row statement. */
const preparedStatements = new WeakMap<BetterSqlite3.Database, Map<string, BetterSqlite3.Statement>>();
/** Statements kept per connection (the oldest goes first). */
const PREPARED_KEPT = 64;

function prepared(db: BetterSqlite3.Database, sql: string): BetterSqlite3.Statement {
  let kept = preparedStatements.get(db);
  if (!kept) preparedStatements.set(db, (kept = new Map<string, BetterSqlite3.Statement>()));
  let statement = kept.get(sql);
  if (statement) return statement;
  statement = db.prepare(sql);
  if (kept.size >= PREPARED_KEPT) kept.delete(kept.keys().next().value as string);
  kept.set(sql, statement);
  return statement;
}

function sqliteTx(db: BetterSqlite3.Database): SqlTx {
  return {
    all: <T extends object>(sql: string, params: readonly unknown[] = []) =>
      settled(() => prepared(db, sql).all(sqliteParams(params)) as T[]),
    run: (sql, params = []) => settled(() => prepared(db, sql).run(sqliteParams(params)).changes),
    insertId: (sql, params = []) => settled(() => Number(prepared(db, sql).run(sqliteParams(params)).lastInsertRowid)),
    // eslint-disable-next-line @typescript-eslint/require-await -- SqlTx streams through an AsyncGenerator; better-sqlite3 reads synchronously
    async *iterate<T extends unknown[]>(sql: string, params: readonly unknown[], chunk: number) {
      let rows: T[] = [];
      for (const row of db.prepare(sql).raw(true).iterate(sqliteParams(params)) as Iterable<T>) {
        rows.push(row);
        if (rows.length === chunk) {
          yield rows;
          rows = [];
        }
      }
      if (rows.length > 0) yield rows;
    },
    lock: () => Promise.resolve(),
    lockName: () => Promise.resolve(),
    bulk: 'values',
    // SQLite allows 32,766 parameters; a statement of a hundred rows is already cheap per row.
    maxRowsPerInsert: (columns) => Math.max(1, Math.min(100, Math.floor(32_000 / columns))),
  };
}

/** `?` placeholders as PostgreSQL's $1, $2 (no `?` may occur in literals; none of ours do). */
export function numberPlaceholders(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

let cursors = 0;

function postgresTx(client: pg.ClientBase): SqlTx {
  const query = <R extends pg.QueryResultRow = pg.QueryResultRow>(sql: string, params: readonly unknown[]) =>
    client.query<R>(numberPlaceholders(sql), [...params]);
  return {
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
    async lock(space, key) {
      await query('select pg_advisory_xact_lock(?, ?)', [space, key]);
    },
    async lockName(name) {
      await query('select pg_advisory_xact_lock(hashtext(?))', [name]);
    },
    bulk: 'unnest',
    // At most 65,535 parameters a statement.
    maxRowsPerInsert: (columns) => Math.max(1, Math.min(2000, Math.floor(65_000 / columns))),
  };
}

/**
 * Runs `work` with row-level security keyed on `userId` (PostgreSQL): one transaction whose
 * `app.user_id` setting the policies of every user-owned table compare with `user_id`, so a
 * query that forgets its user condition still sees only this user's rows. SQLite has no
 * row-level security: `work` runs as it is, on the request's entity manager.
 */
export async function withUserScope<T>(
  em: EntityManager,
  userId: number,
  work: (em: EntityManager) => Promise<T>,
): Promise<T> {
  if (!onPostgres(em)) return work(em);
  if (!Number.isSafeInteger(userId)) throw new Error(`withUserScope: not a user id: ${String(userId)}`);
  return em.transactional(async (tem) => {
    await selectRows(tem, "select set_config('app.user_id', ?, true)", [String(userId)]);
    return work(tem);
  });
}
