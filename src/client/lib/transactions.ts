import type { TransactionDto } from '../../shared/schemas/transactions';
import { sortTransactions as sortBy, type SortDirection, type SortKey } from '../components/transactions/sort';

export type { SortDirection, SortKey };

/**
 * Replaces the rows of `list` whose id appears in `updated` (one row or many), keeping
 * the order of `list` (SPEC section 4: "one updated transaction or an array of them is
 * merged by id"). Rows of `updated` that are not in the list are ignored. Answers `list`
 * itself when nothing changed, so React can skip work.
 */
export function mergeById<T extends { id: number }>(list: readonly T[], updated: T | readonly T[]): T[] {
  const rows = Array.isArray(updated) ? (updated as readonly T[]) : [updated as T];
  if (rows.length === 0) return list as T[];
  const byId = new Map<number, T>();
  for (const row of rows) byId.set(row.id, row);
  let changed = false;
  const out = list.map((row) => {
    const next = byId.get(row.id);
    if (next && next !== row) {
      changed = true;
      return next;
    }
    return row;
  });
  return changed ? out : (list as T[]);
}

/** `list` without the rows whose id is in `ids`; `list` itself when none matched. */
export function removeByIds<T extends { id: number }>(list: readonly T[], ids: Iterable<number>): T[] {
  const gone = new Set(ids);
  if (gone.size === 0) return list as T[];
  const out = list.filter((row) => !gone.has(row.id));
  return out.length === list.length ? (list as T[]) : out;
}

/** True for a split parent or one of its parts. */
export function isSplitMember(tx: Pick<TransactionDto, 'isSplit' | 'parentTransactionId'>): boolean {
  return tx.isSplit || tx.parentTransactionId !== null;
}

/** Sorts without mutating, each key computed once (the transaction table's order). */
export function sortTransactions<T extends TransactionDto>(list: readonly T[], key: SortKey, direction: SortDirection): T[] {
  return sortBy(list, { key, direction });
}
