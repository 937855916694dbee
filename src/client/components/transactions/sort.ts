import type { TransactionDto } from '../../../shared/schemas/transactions';

/** The sortable columns of the transaction table. */
export type SortKey = 'postDate' | 'description' | 'amount' | 'category' | 'type' | 'account';
export type SortDirection = 'asc' | 'desc';

export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

/** SPEC section 9: the table starts sorted by postDate, newest first. */
export const DEFAULT_SORT: SortState = { key: 'postDate', direction: 'desc' };

/** Clicking a column: the same column flips direction; a new one starts ascending (dates and amounts descending). */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: key === 'postDate' || key === 'amount' ? 'desc' : 'asc' };
}

function textKey(value: string | null): string | null {
  return value === null || value === '' ? null : value.toLocaleLowerCase();
}

/**
 * Sorts without mutating: each row's key is computed once (decorate-sort-undecorate), so
 * 20,000 rows sort in a few milliseconds. Empty values (no category, no account) come last
 * in both directions; ties keep a stable order by id (newest id first when descending).
 */
export function sortTransactions<T extends TransactionDto>(rows: readonly T[], sort: SortState): T[] {
  const sign = sort.direction === 'asc' ? 1 : -1;
  const decorated = rows.map((row) => {
    let key: string | number | null;
    switch (sort.key) {
      case 'amount':
        key = row.amount;
        break;
      case 'postDate':
        key = row.postDate;
        break;
      case 'description':
        key = textKey(row.description);
        break;
      case 'category':
        key = textKey(row.category);
        break;
      case 'account':
        key = textKey(row.account);
        break;
      case 'type':
        key = row.type;
        break;
    }
    return { key, id: row.id, row };
  });
  decorated.sort((a, b) => {
    if (a.key !== b.key) {
      if (a.key === null) return 1;
      if (b.key === null) return -1;
      return (a.key < b.key ? -1 : 1) * sign;
    }
    return (a.id - b.id) * sign;
  });
  return decorated.map((entry) => entry.row);
}
