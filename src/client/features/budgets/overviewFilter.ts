import {
  countsAsIncomeOrSpending,
  isSplitRelated,
  matchesLineItem,
  UNTRACKED_ID,
  type BudgetOverview,
  type OverviewLineItem,
  type OverviewTransaction,
} from '../../../shared/budget';
import type { TransactionType } from '../../../shared/schemas/transactions';

/**
 * The overview panel's filter: a transaction type row,
 * a line item (or Untracked) or the split-transactions row. One at a time: choosing one
 * replaces the others, choosing the active one again clears it.
 */
export type OverviewFilter =
  { kind: 'type'; type: TransactionType } | { kind: 'lineItem'; id: number } | { kind: 'split' } | null;

export function sameFilter(a: OverviewFilter, b: OverviewFilter): boolean {
  if (a === null || b === null) return a === b;
  if (a.kind !== b.kind) return false;
  if (a.kind === 'type' && b.kind === 'type') return a.type === b.type;
  if (a.kind === 'lineItem' && b.kind === 'lineItem') return a.id === b.id;
  return true;
}

/** Clicking `next`: selects it, or clears it when it is already the active filter. */
export function toggleFilter(current: OverviewFilter, next: Exclude<OverviewFilter, null>): OverviewFilter {
  return sameFilter(current, next) ? null : next;
}

/**
 * The rows the table shows under `filter`.
 * - type: counted rows (split parents excluded, as in the type totals) of that type;
 * - line item: counted rows whose category is related to it (case-insensitive);
 * - Untracked: the rows the overview put in Untracked;
 * - split: split parents and their parts.
 */
export function applyOverviewFilter<T extends OverviewTransaction>(
  rows: readonly T[],
  filter: OverviewFilter,
  lineItems: readonly OverviewLineItem[],
  overview: Pick<BudgetOverview, 'untracked'>,
): T[] {
  if (filter === null) return rows as T[];
  switch (filter.kind) {
    case 'type':
      return rows.filter((tx) => countsAsIncomeOrSpending(tx) && tx.type === filter.type);
    case 'split':
      return rows.filter((tx) => isSplitRelated(tx));
    case 'lineItem': {
      if (filter.id === UNTRACKED_ID) {
        const ids = new Set(overview.untracked.transactionIds);
        return rows.filter((tx) => ids.has(tx.id));
      }
      const item = lineItems.find((candidate) => candidate.id === filter.id);
      return item ? rows.filter((tx) => matchesLineItem(tx, item)) : [];
    }
  }
}

/** Words for the active filter ("Type: debit", "Line item: Food", "Split transactions"). */
export function describeFilter(
  filter: OverviewFilter,
  overview: Pick<BudgetOverview, 'lineItems' | 'untracked'>,
): string {
  if (filter === null) return '';
  if (filter.kind === 'type') return `Type: ${filter.type}`;
  if (filter.kind === 'split') return 'Split transactions';
  const item =
    filter.id === UNTRACKED_ID
      ? overview.untracked
      : overview.lineItems.find((candidate) => candidate.id === filter.id);
  return `Line item: ${item?.name ?? 'unknown'}`;
}
