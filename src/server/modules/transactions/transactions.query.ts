import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import { MAX_LIST_ROWS } from '../../../shared/limits';
import { groupDigits, magnitudeBounds } from '../../../shared/money';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { payeeKey } from '../../../shared/reports/payees';
import { TRANSACTION_COLUMNS, TRANSACTION_FROM, toTransactionDto, type TransactionRow } from './transaction.dto';
import {
  containsSql,
  countedRowSql,
  dialectOf,
  foldSql,
  jsonArrayBytes,
  jsonArrayText,
  jsonBooleanSql,
  jsonIntegerSql,
  jsonObjectSql,
  jsonStringSql,
  jsonWordSql,
  orderedAggregatesSql,
  payeeKeySql,
  pgCountedJsonRows,
  pgSelectJsonRows,
  selectRows,
  sqliteParams,
  TRANSACTION_TABLE,
  withUserScope,
  type Dialect,
  type SqlCount,
  type TextAggregate,
} from '../../db/sql';
import { sqliteReader } from '../../db/read-worker';
import { nameKey } from '../../../shared/names';
import { must } from '../../../shared/must';

export { selectRows };

/** Lean read of the user's transactions: one SQL statement, no entity hydration. */
export async function selectTransactions(
  em: EntityManager,
  userId: number,
  where: string,
  params: unknown[],
  orderBy = NEWEST_FIRST,
  limit?: number,
): Promise<TransactionDto[]> {
  const rows = await selectRows<TransactionRow>(
    em,
    `select ${TRANSACTION_COLUMNS} from ${TRANSACTION_FROM} where t.user_id = ?${where ? ` and (${where})` : ''} order by ${orderBy}${limit ? ' limit ?' : ''}`,
    limit ? [userId, ...params, limit] : [userId, ...params],
  );
  return rows.map(toTransactionDto);
}

/** The order of every transaction list: newest first. */
export const NEWEST_FIRST = 't.post_date desc, t.id desc';

/** One page of a list, and how many rows the whole list holds (REST sends it as X-Total-Count). */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** A page whose rows are JSON text (an array) the database built: text, or its UTF-8 bytes when read on a worker thread. */
export interface JsonPage {
  json: string | Buffer;
  total: number;
}

export interface PageRequest {
  limit?: number;
  offset?: number;
}

/** 422 for a list answer over MAX_LIST_ROWS rows: the caller narrows the range or pages. */
export function tooManyRows(total: number, how = 'narrow the range or page with limit and offset'): AppError {
  return new AppError(
    'UNPROCESSABLE',
    `${groupDigits(total)} transactions match, more than the ${groupDigits(MAX_LIST_ROWS)} one answer holds: ${how}`,
    {
      totalCount: total,
    },
  );
}

export async function countTransactions(
  em: EntityManager,
  userId: number,
  where: string,
  params: unknown[],
): Promise<number> {
  const [row] = await selectRows<{ n: SqlCount }>(em, countSql(where), [userId, ...params]);
  return Number(row?.n ?? 0);
}

/** The count of countTransactions (parameters: the user's id, then `where`'s). */
function countSql(where: string): string {
  return `select count(*) as n from ${TRANSACTION_FROM} where t.user_id = ?${where ? ` and (${where})` : ''}`;
}

/**
 * A list of the user's transactions, counted first so nothing over MAX_LIST_ROWS is ever read
 * into memory: without `limit` a larger list is refused (422 naming the count); with it, one page.
 */
export async function selectTransactionsPage(
  em: EntityManager,
  userId: number,
  where: string,
  params: unknown[],
  page: PageRequest = {},
  how?: string,
): Promise<Page<TransactionDto>> {
  const total = await countTransactions(em, userId, where, params);
  if (page.limit === undefined && total > MAX_LIST_ROWS) throw tooManyRows(total, how);
  if (total === 0) return { rows: [], total };
  const limit = Math.min(page.limit ?? MAX_LIST_ROWS, MAX_LIST_ROWS);
  const offset = page.offset ?? 0;
  const rows = await selectRows<TransactionRow>(
    em,
    `select ${TRANSACTION_COLUMNS} from ${TRANSACTION_FROM} where t.user_id = ?${where ? ` and (${where})` : ''}
      order by ${NEWEST_FIRST} limit ? offset ?`,
    [userId, ...params, limit, offset],
  );
  return { rows: rows.map(toTransactionDto), total };
}

/**
 * One transaction's JSON as the database writes it: exactly toTransactionDto's fields, in its
 * order, from a row of TRANSACTION_COLUMNS aliased `s`; `extra` fields follow.
 */
export function transactionJsonSql(
  dialect: Dialect,
  s = 's',
  extra: readonly (readonly [string, string])[] = [],
): string {
  const text = (column: string) => jsonStringSql(dialect, `${s}.${column}`);
  const word = (column: string) => jsonWordSql(dialect, `${s}.${column}`);
  return jsonObjectSql([
    ['id', jsonIntegerSql(`${s}.id`)],
    ['postDate', word('post_date')],
    ['description', text('description')],
    ['amount', jsonIntegerSql(`${s}.amount`)],
    ['account', text('account_name')],
    ['bank_account_id', jsonIntegerSql(`${s}.account_id`)],
    ['category', text('category_name')],
    // A source without a category (a category deleted since) says nothing.
    ['categorySource', `case when ${s}.category_name is null then 'null' else ${word('category_source')} end`],
    ['type', word('type')],
    ['isSplit', jsonBooleanSql(`${s}.is_split`)],
    ['parentTransactionId', jsonIntegerSql(`${s}.parent_id`)],
    ['splitNote', text('split_note')],
    ['batchId', word('batch_id')],
    ...extra,
  ]);
}

/** The order of NEWEST_FIRST over the columns of a subquery `s` of TRANSACTION_COLUMNS. */
const NEWEST_FIRST_S = 's.post_date desc, s.id desc';

/**
 * selectTransactions as JSON text the database builds (the same array JSON.stringify would
 * write of selectTransactions' answer), newest first, optionally one page of it. `extra`
 * aggregates over the same rows in the same order come back beside it (their columns of
 * `s`: TRANSACTION_COLUMNS and category_id).
 */
export async function selectTransactionsJsonWith<K extends string>(
  em: EntityManager,
  userId: number,
  where: string,
  params: unknown[],
  page: { limit: number; offset: number } | null,
  extra: readonly (TextAggregate & { alias: K })[],
): Promise<{ json: string } & Record<K, string | null>> {
  const { json, ...rest } = await transactionsAggregateRow(em, userId, where, params, page, false, extra);
  return { ...rest, json: jsonArrayText(json as string | null) } as { json: string } & Record<K, string | null>;
}

/**
 * selectTransactionsJsonWith with the rows' JSON read as UTF-8 bytes (TextAggregate.bytes), the
 * array's pieces in order (jsonArrayBytes): for an answer sent on as it is (RawJsonBytes).
 */
export async function selectTransactionsJsonBytesWith<K extends string>(
  em: EntityManager,
  userId: number,
  where: string,
  params: unknown[],
  extra: readonly (TextAggregate & { alias: K })[],
): Promise<{ json: Buffer[] } & Record<K, string | null>> {
  const { json, ...rest } = await transactionsAggregateRow(em, userId, where, params, null, true, extra);
  return { ...rest, json: jsonArrayBytes(json as Buffer | null) } as { json: Buffer[] } & Record<K, string | null>;
}

/** The one row of the rows' JSON aggregate (`json`, as text or bytes) and the `extra` aggregates beside it. */
async function transactionsAggregateRow(
  em: EntityManager,
  userId: number,
  where: string,
  params: unknown[],
  page: { limit: number; offset: number } | null,
  bytes: boolean,
  extra: readonly TextAggregate[],
): Promise<Record<string, string | Buffer | null>> {
  const statement = transactionsJsonStatement(dialectOf(em), userId, where, params, page, extra, bytes);
  const [row] = await selectRows<Record<string, string | Buffer | null>>(em, statement.sql, statement.params);
  const out: Record<string, string | Buffer | null> = { json: row?.json ?? null };
  for (const { alias } of extra) out[alias] = row?.[alias] ?? null;
  return out;
}

/**
 * The statement of selectTransactionsJsonWith: one row, its first column `json` (the rows' JSON joined with ',', as
 * UTF-8 bytes when `bytes`: TextAggregate.bytes), then `extra`.
 */
function transactionsJsonStatement(
  dialect: Dialect,
  userId: number,
  where: string,
  params: unknown[],
  page: { limit: number; offset: number } | null,
  extra: readonly TextAggregate[],
  bytes = false,
): { sql: string; params: unknown[] } {
  const inner = `select ${TRANSACTION_COLUMNS}, t.category_id from ${TRANSACTION_FROM} where t.user_id = ?${where ? ` and (${where})` : ''}${page ? ` order by ${NEWEST_FIRST} limit ? offset ?` : ''}`;
  const aggregates: TextAggregate[] = [
    { alias: 'json', item: transactionJsonSql(dialect), separator: ',', bytes },
    ...extra,
  ];
  return {
    sql: orderedAggregatesSql(dialect, aggregates, `(${inner}) s`, NEWEST_FIRST_S),
    params: page ? [userId, ...params, page.limit, page.offset] : [userId, ...params],
  };
}

/**
 * selectTransactions as JSON text, newest first, optionally one page of it, written by the
 * database on both: SQLite joins its per-row JSON expressions (selectTransactionsJsonWith);
 * PostgreSQL writes each row with the same expression (transactionJsonSql) and the server joins
 * the rows' texts (pgSelectJsonRows).
 */
export async function selectTransactionsJson(
  em: EntityManager,
  userId: number,
  where: string,
  params: unknown[],
  page: { limit: number; offset: number } | null = null,
): Promise<string> {
  if (dialectOf(em) !== 'postgresql')
    return (await selectTransactionsJsonWith(em, userId, where, params, page, [])).json;
  const inner = `select ${TRANSACTION_COLUMNS} from ${TRANSACTION_FROM} where t.user_id = ?${where ? ` and (${where})` : ''}
    order by ${NEWEST_FIRST}${page ? ' limit ? offset ?' : ''}`;
  return pgSelectJsonRows(
    em,
    inner,
    transactionJsonSql('postgresql'),
    page ? [userId, ...params, page.limit, page.offset] : [userId, ...params],
  );
}

/**
 * selectTransactionsPage with the rows as JSON text the database builds. On SQLite, with
 * `offMainThread` (a read that needs none of the app's SQL functions, see read-worker.ts) and no
 * transaction running on `em`, the count and the rows are read on a worker thread with its own
 * read-only connection, and the answer is the JSON's bytes.
 */
export async function selectTransactionsJsonPage(
  em: EntityManager,
  userId: number,
  where: string,
  params: unknown[],
  page: PageRequest = {},
  how?: string,
  offMainThread = false,
): Promise<JsonPage> {
  const limit = Math.min(page.limit ?? MAX_LIST_ROWS, MAX_LIST_ROWS);
  const offset = page.offset ?? 0;
  const paged = page.limit !== undefined || page.offset !== undefined;
  if (dialectOf(em) === 'postgresql') {
    // One statement: the count and the rows (no rows read over the cap); outside a transaction,
    // scoped to the user in the same round trip (pgPreparedRows).
    const answer = await pgCountedJsonRows(
      em,
      {
        columns: TRANSACTION_COLUMNS,
        json: transactionJsonSql('postgresql'),
        from: TRANSACTION_FROM,
        where: `t.user_id = ?${where ? ` and (${where})` : ''}`,
        orderBy: NEWEST_FIRST,
        page: paged ? { limit, offset } : null,
        max: page.limit === undefined ? MAX_LIST_ROWS : Number.MAX_SAFE_INTEGER,
      },
      [userId, ...params],
      userId,
    );
    if (page.limit === undefined && answer.total > MAX_LIST_ROWS) throw tooManyRows(answer.total, how);
    return answer;
  }
  const reader =
    offMainThread && em.getTransactionContext() === undefined ? sqliteReader(String(em.config.get('dbName'))) : null;
  if (reader) {
    const rows = transactionsJsonStatement('sqlite', userId, where, params, paged ? { limit, offset } : null, []);
    const answer = await reader.countedJson({
      count: { sql: countSql(where), params: sqliteParams([userId, ...params]) },
      rows: { sql: rows.sql, params: sqliteParams(rows.params) },
      max: page.limit === undefined ? MAX_LIST_ROWS : Number.MAX_SAFE_INTEGER,
    });
    if (answer.bytes === null) throw tooManyRows(answer.total, how);
    return { json: answer.bytes, total: answer.total };
  }
  const total = await countTransactions(em, userId, where, params);
  if (page.limit === undefined && total > MAX_LIST_ROWS) throw tooManyRows(total, how);
  if (total === 0) return { json: '[]', total };
  return { json: await selectTransactionsJson(em, userId, where, params, paged ? { limit, offset } : null), total };
}

/**
 * searchTransactionsPage with the rows as JSON text the database builds (GET /api/transactions).
 * On PostgreSQL outside a transaction the read scopes itself (one round trip, see
 * selectTransactionsJsonPage), but a payee filter reads the user's descriptions first: then both
 * reads run in one withUserScope transaction.
 */
export async function searchTransactionsJsonPage(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
  how?: string,
): Promise<JsonPage> {
  if (filters.payee !== undefined && dialectOf(em) === 'postgresql' && em.getTransactionContext() === undefined) {
    return withUserScope(em, userId, (tem) => searchTransactionsJsonPage(tem, userId, filters, how));
  }
  const { where, params } = await searchWhere(em, userId, filters);
  // fold() and payee_key() are registered on the main connection only.
  const offMainThread = filters.description === undefined && filters.payee === undefined;
  return selectTransactionsJsonPage(
    em,
    userId,
    where,
    params,
    { limit: filters.limit, offset: filters.offset },
    how,
    offMainThread,
  );
}

/** The search of GET /api/transactions: every filter optional except the dates; newest first; paged. */
export async function searchTransactionsPage(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
  how?: string,
): Promise<Page<TransactionDto>> {
  const { where, params } = await searchWhere(em, userId, filters);
  return selectTransactionsPage(em, userId, where, params, { limit: filters.limit, offset: filters.offset }, how);
}

/**
 * The search's rows (refused with 422 over MAX_LIST_ROWS unless paged). On SQLite read as the
 * JSON text the database writes and parsed: cheaper than an object per row from the driver and
 * a DTO copy of each (tRPC transactions.list); on PostgreSQL as rows (see selectTransactionsJson).
 */
export async function searchTransactions(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<TransactionDto[]> {
  if (dialectOf(em) === 'postgresql') return (await searchTransactionsPage(em, userId, filters)).rows;
  return JSON.parse((await searchTransactionsJsonPage(em, userId, filters)).json.toString()) as TransactionDto[];
}

/**
 * The WHERE clause of a search on the entity manager's database. PostgreSQL has no payee_key():
 * a payee filter becomes the list of the user's descriptions in the date range whose payee key
 * (computed here, by the same function) matches.
 */
export async function searchWhere(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<{ where: string; params: unknown[] }> {
  const dialect = dialectOf(em);
  if (dialect !== 'postgresql' || filters.payee === undefined) return searchClauses(filters, dialect);
  const key = payeeKey(filters.payee);
  const descriptions = await selectRows<{ description: string }>(
    em,
    `select distinct t.description from ${TRANSACTION_TABLE} t where t.user_id = ? and t.post_date >= ? and t.post_date <= ?`,
    [userId, filters.startDate, filters.endDate],
  );
  return searchClauses(
    filters,
    dialect,
    descriptions.map((row) => row.description).filter((description) => payeeKey(description) === key),
  );
}

/** The WHERE clause of a search (every filter optional except the dates). */
export function searchClauses(
  filters: TransactionFilters,
  dialect: Dialect = 'sqlite',
  payeeDescriptions?: readonly string[],
): { where: string; params: unknown[] } {
  const clauses = ['t.post_date >= ?', 't.post_date <= ?'];
  const params: unknown[] = [filters.startDate, filters.endDate];
  if (filters.categories && filters.categories.length > 0) {
    const keys = [...new Set(filters.categories.map(nameKey))];
    const named = keys.filter((key) => key !== 'uncategorized');
    const parts: string[] = [];
    if (keys.includes('uncategorized')) parts.push('t.category_id is null');
    if (named.length > 0) {
      parts.push(`c.name_key in (${named.map(() => '?').join(', ')})`);
      params.push(...named);
    }
    clauses.push(parts.join(' or '));
  }
  if (filters.account) {
    clauses.push('a.name_key = ?');
    params.push(nameKey(filters.account));
  }
  if (filters.description) {
    clauses.push(containsSql(dialect, foldSql('t.description'), foldSql('?')));
    params.push(filters.description);
  }
  // Bounds are magnitudes: Min -150 and Max -50 find amounts of size 50 to 150, either sign.
  const { minAmount, maxAmount } = magnitudeBounds(filters);
  if (minAmount !== undefined) {
    clauses.push('abs(t.amount) >= ?');
    params.push(minAmount);
  }
  if (maxAmount !== undefined) {
    clauses.push('abs(t.amount) <= ?');
    params.push(maxAmount);
  }
  if (filters.payee !== undefined && payeeDescriptions) {
    if (payeeDescriptions.length === 0) clauses.push('1 = 0');
    else {
      clauses.push(`t.description in (${payeeDescriptions.map(() => '?').join(', ')})`);
      params.push(...payeeDescriptions);
    }
  } else if (filters.payee !== undefined) {
    clauses.push(`${payeeKeySql('t.description')} = ?`);
    params.push(payeeKey(filters.payee));
  }
  if (filters.direction !== undefined) clauses.push(filters.direction === 'in' ? 't.amount > 0' : 't.amount < 0');
  if (filters.counted) clauses.push(countedRowSql('t'));
  if (filters.categorySource !== undefined) {
    clauses.push('t.category_source = ? and t.category_id is not null');
    params.push(filters.categorySource);
  }
  return { where: clauses.map((c) => `(${c})`).join(' and '), params };
}

/** A row of a paged read: at least what the keyset needs. */
export interface KeysetRow {
  id: number;
  postDate: string;
}

/**
 * The same search page by page (newest first), each page one short query after the last row
 * of the previous one, so a long export never holds the connection or all rows at once.
 * `columns` (over TRANSACTION_FROM's aliases t, a, c) must name `id` and `postDate`; the rows
 * come as the driver answers them, with no copy.
 */
export async function* searchRowPages<T extends KeysetRow>(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
  columns: string,
  pageSize = 2000,
): AsyncGenerator<T[]> {
  // Each page is a short transaction of its own (scoped to the user for row-level security):
  // a streamed answer reads on after the request's handler has returned.
  const { where, params } = await withUserScope(em, userId, (tem) => searchWhere(tem, userId, filters));
  let after: T | null = null;
  for (;;) {
    // `post_date <= ?` bounds the index range, so each page starts where the last one ended
    // rather than scanning again from the newest row.
    const keyset: string = after ? ' and t.post_date <= ? and (t.post_date < ? or t.id < ?)' : '';
    const last: T | null = after;
    const page: T[] = await withUserScope(em, userId, (tem) =>
      selectRows<T>(
        tem,
        `select ${columns} from ${TRANSACTION_FROM} where t.user_id = ? and (${where}${keyset}) order by ${NEWEST_FIRST} limit ?`,
        last ? [userId, ...params, last.postDate, last.postDate, last.id, pageSize] : [userId, ...params, pageSize],
      ),
    );
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = must(page.at(-1), 'a full page is not empty');
  }
}

export async function selectTransactionsByIds(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<TransactionDto[]> {
  const out: TransactionDto[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    out.push(...(await selectTransactions(em, userId, `t.id in (${chunk.map(() => '?').join(', ')})`, chunk)));
  }
  return out;
}
