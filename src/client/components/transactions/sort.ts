import type { TransactionDto } from '../../../shared/schemas/transactions';

/** The sortable columns of the transaction table. */
export type SortKey = 'postDate' | 'description' | 'amount' | 'category' | 'type' | 'account';
export type SortDirection = 'asc' | 'desc';

export interface SortState {
  key: SortKey;
  direction: SortDirection;
}

/** The table starts sorted by postDate, newest first. */
export const DEFAULT_SORT: SortState = { key: 'postDate', direction: 'desc' };

/** Clicking a column: the same column flips direction; a new one starts ascending (dates and amounts descending). */
export function nextSort(current: SortState, key: SortKey): SortState {
  if (current.key === key) return { key, direction: current.direction === 'asc' ? 'desc' : 'asc' };
  return { key, direction: key === 'postDate' || key === 'amount' ? 'desc' : 'asc' };
}

function textKey(value: string | null): string | null {
  return value === null || value === '' ? null : value.toLocaleLowerCase();
}

function keyOf(row: TransactionDto, key: SortKey): string | number | null {
  switch (key) {
    case 'amount':
      return row.amount;
    case 'postDate':
      return row.postDate;
    case 'description':
      return textKey(row.description);
    case 'category':
      return textKey(row.category);
    case 'account':
      return textKey(row.account);
    case 'type':
      return row.type;
  }
}

/** One column's ascending order of a list: rows with a value (ties by id), then the empty ones (by id). */
interface ColumnOrder<T> {
  valued: T[];
  empty: T[];
}

/** Per list (the array the cache holds) and column, its ascending order, built on first use. */
const orders = new WeakMap<readonly TransactionDto[], Map<SortKey, ColumnOrder<TransactionDto>>>();

function ascendingOrder<T extends TransactionDto>(rows: readonly T[], key: SortKey): ColumnOrder<T> {
  let byColumn = orders.get(rows);
  if (!byColumn) {
    byColumn = new Map();
    orders.set(rows, byColumn);
  }
  const cached = byColumn.get(key) as ColumnOrder<T> | undefined;
  if (cached) return cached;
  // Decorate-sort-undecorate: each row's key is computed once, then compared as a plain value.
  const decorated = rows.map((row) => ({ key: keyOf(row, key), id: row.id, row }));
  decorated.sort((a, b) => {
    if (a.key !== b.key) {
      if (a.key === null) return 1;
      if (b.key === null) return -1;
      return a.key < b.key ? -1 : 1;
    }
    return a.id - b.id;
  });
  const firstEmpty = decorated.findIndex((entry) => entry.key === null);
  const split = firstEmpty < 0 ? decorated.length : firstEmpty;
  const order = {
    valued: decorated.slice(0, split).map((entry) => entry.row),
    empty: decorated.slice(split).map((entry) => entry.row),
  };
  byColumn.set(key, order);
  return order;
}

/**
 * Sorts without mutating. Empty values (no category, no account) come last in both directions; ties
 * keep a stable order by id (newest id first when descending). A column's ascending order is built
 * once per list (keys computed once per row) and kept while the list is the same array, so a second
 * click on a column (the other direction) or a return to it is a copy, not a sort: descending is the
 * ascending order reversed, empty values still last.
 */
export function sortTransactions<T extends TransactionDto>(rows: readonly T[], sort: SortState): T[] {
  const { valued, empty } = ascendingOrder(rows, sort.key);
  if (sort.direction === 'asc') return [...valued, ...empty];
  return [...valued].reverse().concat([...empty].reverse());
}
