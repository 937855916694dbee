import type { EntityManager } from '@mikro-orm/better-sqlite';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { payeeKey } from '../../../shared/reports/payees';
import { TRANSACTION_COLUMNS, TRANSACTION_FROM, toTransactionDto, type TransactionRow } from './transaction.dto';
import { countedRowSql, foldSql, payeeKeySql } from './sql-dialect';

/** Runs a read inside the caller's transaction when there is one. */
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

/** The WHERE clause of a search (every filter optional except the dates), for `selectTransactions`. */
export function searchClauses(filters: TransactionFilters): { where: string; params: unknown[] } {
  const clauses = ['t.post_date >= ?', 't.post_date <= ?'];
  const params: unknown[] = [filters.startDate, filters.endDate];
  if (filters.categories && filters.categories.length > 0) {
    const keys = [...new Set(filters.categories.map((name) => name.trim().toLowerCase()))];
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
    params.push(filters.account.trim().toLowerCase());
  }
  if (filters.description) {
    clauses.push(`instr(${foldSql('t.description')}, ${foldSql('?')}) > 0`);
    params.push(filters.description);
  }
  if (filters.minAmount !== undefined) {
    clauses.push('abs(t.amount) >= ?');
    params.push(Math.abs(filters.minAmount));
  }
  if (filters.maxAmount !== undefined) {
    clauses.push('abs(t.amount) <= ?');
    params.push(Math.abs(filters.maxAmount));
  }
  if (filters.payee !== undefined) {
    clauses.push(`${payeeKeySql('t.description')} = ?`);
    params.push(payeeKey(filters.payee));
  }
  if (filters.direction !== undefined) clauses.push(filters.direction === 'in' ? 't.amount > 0' : 't.amount < 0');
  if (filters.counted) clauses.push(countedRowSql('t'));
  return { where: clauses.map((c) => `(${c})`).join(' and '), params };
}

/** The search of GET /api/transactions: newest first. */
export async function searchTransactions(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<TransactionDto[]> {
  const { where, params } = searchClauses(filters);
  return selectTransactions(em, userId, where, params);
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
    after = page[page.length - 1];
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
