import type { EntityManager } from '@mikro-orm/better-sqlite';
import { AppError } from '../../../shared/errors';
import { MAX_LIST_ROWS } from '../../../shared/limits';
import { magnitudeBounds } from '../../../shared/money';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { payeeKey } from '../../../shared/reports/payees';
import { TRANSACTION_COLUMNS, TRANSACTION_FROM, toTransactionDto, type TransactionRow } from './transaction.dto';
import { countedRowSql, foldSql, payeeKeySql } from './sql-dialect';
import { nameKey } from '../../../shared/names';
import { must } from '../../../shared/must';

/** Runs a read inside the caller's transaction when there is one. */
/** A count(*) as a driver answers it: a number from SQLite; a bigint or a numeric string from others. Read it with Number(). */
export type SqlCount = number | bigint | string;

export async function selectRows<T>(em: EntityManager, sql: string, params: unknown[]): Promise<T[]> {
  return em.getConnection().execute<T[]>(sql, params, 'all', em.getTransactionContext());
}

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

export interface PageRequest {
  limit?: number;
  offset?: number;
}

/** 422 for a list answer over MAX_LIST_ROWS rows: the caller narrows the range or pages. */
export function tooManyRows(total: number, how = 'narrow the range or page with limit and offset'): AppError {
  return new AppError(
    'UNPROCESSABLE',
    `${total.toLocaleString('en-US')} transactions match, more than the ${MAX_LIST_ROWS.toLocaleString('en-US')} one answer holds: ${how}`,
    { totalCount: total },
  );
}

export async function countTransactions(em: EntityManager, userId: number, where: string, params: unknown[]): Promise<number> {
  const [row] = await selectRows<{ n: SqlCount }>(
    em,
    `select count(*) as n from ${TRANSACTION_FROM} where t.user_id = ?${where ? ` and (${where})` : ''}`,
    [userId, ...params],
  );
  return Number(row?.n ?? 0);
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

/** The search of GET /api/transactions: every filter optional except the dates; newest first; paged. */
export async function searchTransactionsPage(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
  how?: string,
): Promise<Page<TransactionDto>> {
  const { where, params } = searchClauses(filters);
  return selectTransactionsPage(em, userId, where, params, { limit: filters.limit, offset: filters.offset }, how);
}

/** The search's rows (refused with 422 over MAX_LIST_ROWS unless paged). */
export async function searchTransactions(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<TransactionDto[]> {
  return (await searchTransactionsPage(em, userId, filters)).rows;
}

/** The WHERE clause of a search (every filter optional except the dates). */
export function searchClauses(filters: TransactionFilters): { where: string; params: unknown[] } {
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
    clauses.push(`instr(${foldSql('t.description')}, ${foldSql('?')}) > 0`);
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
  if (filters.payee !== undefined) {
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

/**
 * The same search page by page (newest first), each page one short query after the last row
 * of the previous one, so a long export never holds the connection or all rows at once.
 */
export async function* searchTransactionPages(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
  pageSize = 2000,
): AsyncGenerator<TransactionDto[]> {
  const { where, params } = searchClauses(filters);
  let after: TransactionDto | null = null;
  for (;;) {
    // `post_date <= ?` bounds the index range, so each page starts where the last one ended
    // rather than scanning again from the newest row.
    const keyset: string = after ? ' and t.post_date <= ? and (t.post_date < ? or t.id < ?)' : '';
    const page: TransactionDto[] = await selectTransactions(
      em,
      userId,
      `${where}${keyset}`,
      after ? [...params, after.postDate, after.postDate, after.id] : params,
      NEWEST_FIRST,
      pageSize,
    );
    if (page.length > 0) yield page;
    if (page.length < pageSize) return;
    after = must(page.at(-1), 'a full page is not empty');
  }
}

export async function selectTransactionsByIds(em: EntityManager, userId: number, ids: readonly number[]): Promise<TransactionDto[]> {
  const out: TransactionDto[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    out.push(...(await selectTransactions(em, userId, `t.id in (${chunk.map(() => '?').join(', ')})`, chunk)));
  }
  return out;
}
