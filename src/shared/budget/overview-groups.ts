/**
 * The budget overview from grouped sums instead of every row: the server asks the database for
 * one row per (category key, type, split parent or not, split part or not) holding its count,
 * signed total and row keys, and overviewFromGroups turns those into exactly what
 * computeBudgetOverview (src/shared/budget/overview.ts, the reference) computes from the rows.
 * groupOverviewTransactions is the same grouping over rows, for tests holding the two together.
 */
import { TRANSACTION_TYPES, type TransactionDto } from '../schemas/transactions';
import { categoryKeyOf } from '../envelopes/envelopes';
import { isCountedTransaction } from '../transactions/counted';
import { assembleOverview, lineItemKeys, type BudgetOverview, type OverviewLineItem, type OverviewSums, type OverviewTransaction } from './overview';

/** Where a row stands in the list: newest first, by post date and then by id. */
export interface OverviewRowKey {
  postDate: string;
  id: number;
}

export interface OverviewGroup {
  /** The category key (categoryKeyOf: trimmed, lower case, 'uncategorized' when none). */
  categoryKey: string;
  type: string;
  /** Counted rows (not split parents: isCountedTransaction). */
  counted: boolean;
  /** Split parts (rows with a parent). */
  part: boolean;
  count: number;
  /** Signed cents. */
  total: number;
  /** The group's rows in list order (newest first); empty for split parents, which list no ids. */
  rows: readonly OverviewRowKey[];
}

/** List order: newest date first, then highest id first. */
function newestFirst(a: OverviewRowKey, b: OverviewRowKey): number {
  if (a.postDate !== b.postDate) return a.postDate < b.postDate ? 1 : -1;
  return b.id - a.id;
}

/** The ids of several groups' rows in list order. */
function idsInListOrder(lists: readonly (readonly OverviewRowKey[])[]): number[] {
  if (lists.length === 1) return (lists[0] ?? []).map((row) => row.id);
  return lists
    .flat()
    .sort(newestFirst)
    .map((row) => row.id);
}

/** The overview of SPEC section 9 from grouped sums: equal to computeBudgetOverview of the rows grouped. */
export function overviewFromGroups(groups: readonly OverviewGroup[], lineItems: readonly OverviewLineItem[]): BudgetOverview {
  const typeTotals = TRANSACTION_TYPES.map((type) => ({ type, total: 0, count: 0 }));
  const typeTotal = new Map<string, (typeof typeTotals)[number]>(typeTotals.map((t) => [t.type, t]));
  const items = lineItems.map((item) => ({ item, keys: lineItemKeys(item), sum: 0, lists: [] as (readonly OverviewRowKey[])[] }));
  const tracked = new Set<string>();
  for (const { keys } of items) for (const key of keys) tracked.add(key);
  const untracked = { sum: 0, lists: [] as (readonly OverviewRowKey[])[], keys: new Set<string>() };
  const splits = { parentCount: 0, childCount: 0, childTotal: 0 };
  let transactionCount = 0;
  let total = 0;
  for (const group of groups) {
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
    if (!tracked.has(group.categoryKey)) {
      untracked.sum += group.total;
      untracked.lists.push(group.rows);
      untracked.keys.add(group.categoryKey);
      continue;
    }
    for (const s of items) {
      if (s.keys.has(group.categoryKey)) {
        s.sum += group.total;
        s.lists.push(group.rows);
      }
    }
  }
  const sums: OverviewSums['sums'] = items.map(({ item, keys, sum, lists }) => ({ item, keys, sum, ids: idsInListOrder(lists) }));
  return assembleOverview({
    typeTotals,
    sums,
    untrackedSum: { sum: untracked.sum, ids: idsInListOrder(untracked.lists), keys: untracked.keys },
    splits,
    transactionCount,
    total,
  });
}

/** The grouping the database does, over rows in list order (for tests: the SQL groups must equal it). */
export function groupOverviewTransactions(transactions: readonly (OverviewTransaction & Pick<TransactionDto, 'postDate'>)[]): OverviewGroup[] {
  const groups = new Map<string, OverviewGroup & { rows: OverviewRowKey[] }>();
  for (const tx of transactions) {
    const categoryKey = categoryKeyOf(tx.category);
    const counted = isCountedTransaction(tx);
    const part = tx.parentTransactionId !== null;
    const id = JSON.stringify([categoryKey, tx.type, counted, part]);
    let group = groups.get(id);
    if (!group) groups.set(id, (group = { categoryKey, type: tx.type, counted, part, count: 0, total: 0, rows: [] }));
    group.count += 1;
    group.total += tx.amount;
    if (counted) group.rows.push({ postDate: tx.postDate, id: tx.id });
  }
  return [...groups.values()];
}
