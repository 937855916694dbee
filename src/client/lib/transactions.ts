import type { TransactionDto } from '../../shared/schemas/transactions';
import { sortTransactions as sortBy, type SortDirection, type SortKey } from '../components/transactions/sort';

export type { SortDirection, SortKey };

/** True for a split parent or one of its parts. */
export function isSplitMember(tx: Pick<TransactionDto, 'isSplit' | 'parentTransactionId'>): boolean {
  return tx.isSplit || tx.parentTransactionId !== null;
}

/** Sorts without mutating, each key computed once (the transaction table's order). */
export function sortTransactions<T extends TransactionDto>(
  list: readonly T[],
  key: SortKey,
  direction: SortDirection,
): T[] {
  return sortBy(list, { key, direction });
}
