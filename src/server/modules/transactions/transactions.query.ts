import type { EntityManager } from '@mikro-orm/better-sqlite';
import type { TransactionDto, TransactionFilters } from '../../../shared/schemas/transactions';
import { TRANSACTION_COLUMNS, TRANSACTION_FROM, toTransactionDto, type TransactionRow } from './transaction.dto';

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
  orderBy = 't.post_date desc, t.id desc',
): Promise<TransactionDto[]> {
  const rows = await selectRows<TransactionRow>(
    em,
    `select ${TRANSACTION_COLUMNS} from ${TRANSACTION_FROM} where t.user_id = ?${where ? ` and (${where})` : ''} order by ${orderBy}`,
    [userId, ...params],
  );
  return rows.map(toTransactionDto);
}

/** The search of GET /api/transactions: every filter optional except the dates; newest first. */
export async function searchTransactions(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<TransactionDto[]> {
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
    clauses.push('instr(fold(t.description), fold(?)) > 0');
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
  return selectTransactions(em, userId, clauses.map((c) => `(${c})`).join(' and '), params);
}

export async function selectTransactionsByIds(em: EntityManager, userId: number, ids: readonly number[]): Promise<TransactionDto[]> {
  const out: TransactionDto[] = [];
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = ids.slice(i, i + 500);
    out.push(...(await selectTransactions(em, userId, `t.id in (${chunk.map(() => '?').join(', ')})`, chunk)));
  }
  return out;
}
