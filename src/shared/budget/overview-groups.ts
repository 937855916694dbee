/**
 * The budget overview from grouped sums instead of every row as an object: the server asks the
 * database for one row per (category, type, split parent or not, split part or not) holding
 * its count and signed total, plus the counted rows' ids and category keys in list order, and
 * overviewFromGroups turns those into exactly what computeBudgetOverview
 * (src/shared/budget/overview.ts, the reference) computes from the rows.
 * groupOverviewTransactions is the same grouping over rows, for tests holding the two together.
 */
import { TRANSACTION_TYPES } from '../schemas/transactions';
import { categoryKeyOf } from '../envelopes/envelopes';
import { isCountedTransaction, isInternalTransfer } from '../transactions/counted';
import {
  assembleOverview,
  lineItemKeys,
  type BudgetOverview,
  type OverviewLineItem,
  type OverviewSums,
  type OverviewTransaction,
} from './overview';

export interface OverviewGroup {
  /** The category key (categoryKeyOf: trimmed, lower case, 'uncategorized' when none). */
  categoryKey: string;
  type: string;
  /** Counted rows (not split parents: isCountedTransaction). */
  counted: boolean;
  /** Split parts (rows with a parent). */
  part: boolean;
  /** Sides of transfers between accounts (isInternalTransfer): in no total. */
  transfer: boolean;
  count: number;
  /** Signed cents. */
  total: number;
  /** Rows in another currency with no rate within 7 days of their date: in `count`, left out of `total`. */
  missing?: number;
}

/** A counted row's id and category key; overviewFromGroups takes them in list order (newest first). */
export interface OverviewCountedRow {
  id: number;
  categoryKey: string;
}

/** The overview from grouped sums: equal to computeBudgetOverview of the rows so grouped. */
export function overviewFromGroups(
  groups: readonly OverviewGroup[],
  countedRows: readonly OverviewCountedRow[],
  lineItems: readonly OverviewLineItem[],
): BudgetOverview {
  const typeTotals = TRANSACTION_TYPES.map((type) => ({ type, total: 0, count: 0 }));
  const typeTotal = new Map<string, (typeof typeTotals)[number]>(typeTotals.map((t) => [t.type, t]));
  const sums: OverviewSums['sums'] = lineItems.map((item) => ({ item, keys: lineItemKeys(item), sum: 0, ids: [] }));
  const byKey = new Map<string, OverviewSums['sums']>();
  for (const s of sums) {
    for (const key of s.keys) byKey.set(key, [...(byKey.get(key) ?? []), s]);
  }
  const untrackedSum: OverviewSums['untrackedSum'] = { sum: 0, ids: [], keys: new Set<string>() };
  const splits = { parentCount: 0, childCount: 0, childTotal: 0 };
  let transactionCount = 0;
  let total = 0;
  for (const group of groups) {
    if (group.transfer) continue;
    if (!group.counted) {
      splits.parentCount += group.count;
      continue;
    }
    if (group.part) {
      splits.childCount += group.count;
      splits.childTotal += group.total;
    }
    transactionCount += group.count;
    total += group.total;
    const t = typeTotal.get(group.type);
    if (t !== undefined) {
      t.total += group.total;
      t.count += group.count;
    }
    const related = byKey.get(group.categoryKey);
    if (related === undefined) {
      untrackedSum.sum += group.total;
      untrackedSum.keys.add(group.categoryKey);
    } else {
      for (const s of related) s.sum += group.total;
    }
  }
  for (const row of countedRows) {
    const related = byKey.get(row.categoryKey);
    if (related === undefined) untrackedSum.ids.push(row.id);
    else for (const s of related) s.ids.push(row.id);
  }
  return assembleOverview({ typeTotals, sums, untrackedSum, splits, transactionCount, total });
}

/** The grouping the database does, over rows in list order (for tests: the SQL answers must equal it). */
export function groupOverviewTransactions(transactions: readonly OverviewTransaction[]): {
  groups: OverviewGroup[];
  countedRows: OverviewCountedRow[];
} {
  const groups = new Map<string, OverviewGroup>();
  const countedRows: OverviewCountedRow[] = [];
  for (const tx of transactions) {
    const categoryKey = categoryKeyOf(tx.category);
    const counted = isCountedTransaction(tx);
    const part = tx.parentTransactionId !== null;
    const transfer = isInternalTransfer(tx);
    const id = JSON.stringify([categoryKey, tx.type, counted, part, transfer]);
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { categoryKey, type: tx.type, counted, part, transfer, count: 0, total: 0 }));
    group.count += 1;
    group.total += tx.amount;
    if (counted && !transfer) countedRows.push({ id: tx.id, categoryKey });
  }
  return { groups: [...groups.values()], countedRows };
}
