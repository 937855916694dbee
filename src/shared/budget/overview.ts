/**
 * The budget overview, shared by the Budgets screen and the server.
 *
 * - Totals exclude split parents (their parts are counted instead).
 * - A transaction without a category belongs to the category key 'uncategorized'.
 * - Categories match line items trimmed and regardless of case.
 * - 'Untracked' (id -1) gathers counted transactions whose category is related to no line item.
 * - Orientation: an Income item's `actual` is the signed sum of its transactions; for Fixed,
 *   Variable, NotCounted and Untracked `actual` is minus the signed sum, so spending shows as a
 *   positive figure comparable with the budgeted amount (a refund lowers it).
 * - budgeted.net and actual.net are income - (fixed + variable).
 * - A transaction whose category is related to several line items counts in each of them (its
 *   amount appears in every such item's `actual` and `transactionIds`), so group and net figures
 *   may count it more than once; `total` and `typeTotals` always count it once. The identity
 *   actual.net == Σ signed amounts of the Income, Fixed and Variable transactions holds when each
 *   category is related to at most one line item.
 * - Children of a split are ordinary counted transactions; `splits` summarises them for the
 *   'split transactions' row (parents seen, children seen, children's signed total).
 */
import type { LineItemDto, LineItemType } from '../schemas/budgets';
import { TRANSACTION_TYPES, type TransactionDto, type TransactionType } from '../schemas/transactions';
import { categoryKeyOf } from '../envelopes/envelopes';
import { sumCents } from '../money';
import {
  countsAsIncomeOrSpending,
  isCountedTransaction,
  isInternalTransfer,
  type TransferSides,
} from '../transactions/counted';
import { nameKey } from '../names';

export const UNTRACKED_ID = -1;
export const UNTRACKED_NAME = 'Untracked';

export type OverviewTransaction = Pick<
  TransactionDto,
  'id' | 'amount' | 'category' | 'type' | 'isSplit' | 'parentTransactionId'
> &
  /** A side of a transfer within the plan (or outside it) is in no total (isInternalTransfer); absent counts as unlinked. */
  TransferSides;
export type OverviewLineItem = Pick<LineItemDto, 'id' | 'name' | 'amount' | 'type' | 'relatedCategories'>;
export type OverviewGroupType = LineItemType | 'Untracked';

export interface LineItemActual {
  id: number;
  name: string;
  type: OverviewGroupType;
  /** Cents as planned. */
  budgeted: number;
  /** Cents, oriented as described above. */
  actual: number;
  transactionCount: number;
  /** Lower-case category keys. */
  categories: string[];
  transactionIds: number[];
}

export interface BudgetOverview {
  typeTotals: { type: TransactionType; total: number; count: number }[];
  lineItems: LineItemActual[];
  untracked: LineItemActual;
  byType: { type: OverviewGroupType; items: LineItemActual[]; budgeted: number; actual: number }[];
  budgeted: { income: number; fixed: number; variable: number; notCounted: number; net: number };
  actual: { income: number; fixed: number; variable: number; notCounted: number; untracked: number; net: number };
  splits: { parentCount: number; childCount: number; childTotal: number };
  transactionCount: number;
  total: number;
  /** The currency every figure is in: the home currency, other currencies converted at their date's rate. */
  currency?: string;
  /** Transactions in another currency left out of every figure: no rate within 7 days of their date. */
  noRate?: number;
}

export const OVERVIEW_GROUP_ORDER: readonly OverviewGroupType[] = [
  'Income',
  'Fixed',
  'Variable',
  'NotCounted',
  'Untracked',
];

/** The category key a transaction is grouped under: trimmed, lower-case, 'uncategorized' when none. */
export function transactionCategoryKey(tx: Pick<TransactionDto, 'category'>): string {
  return categoryKeyOf(tx.category);
}

/** Counted in totals: everything but split parents (one rule, shared with envelopes and reports). */
export { countsAsIncomeOrSpending, isCountedTransaction };

/** A split parent or a split child (for the 'split transactions' row filter). */
export function isSplitRelated(tx: Pick<TransactionDto, 'isSplit' | 'parentTransactionId'>): boolean {
  return tx.isSplit || tx.parentTransactionId !== null;
}

/** A line item's related categories as keys (trimmed, lower-case, blanks dropped). */
export function lineItemKeys(item: Pick<LineItemDto, 'relatedCategories'>): Set<string> {
  return new Set(item.relatedCategories.map(nameKey).filter(Boolean));
}

/** True when a counted transaction's category key is among the item's related categories. */
export function matchesLineItem(
  tx: Pick<TransactionDto, 'category' | 'isSplit'> & { transferId?: number | null },
  item: Pick<LineItemDto, 'relatedCategories'>,
): boolean {
  return countsAsIncomeOrSpending(tx) && lineItemKeys(item).has(transactionCategoryKey(tx));
}

/** Income shows the signed sum; every other group shows minus it (spending positive). Never -0. */
function orient(type: OverviewGroupType, signedSum: number): number {
  const oriented = type === 'Income' ? signedSum : -signedSum;
  return oriented === 0 ? 0 : oriented;
}

export function computeBudgetOverview(
  transactions: readonly OverviewTransaction[],
  lineItems: readonly OverviewLineItem[],
): BudgetOverview {
  const typeTotals = TRANSACTION_TYPES.map((type) => ({ type, total: 0, count: 0 }));
  const typeTotal = new Map<string, (typeof typeTotals)[number]>(typeTotals.map((t) => [t.type, t]));
  const sums = lineItems.map((item) => ({ item, keys: lineItemKeys(item), sum: 0, ids: [] as number[] }));
  const tracked = new Set<string>();
  for (const { keys } of sums) for (const key of keys) tracked.add(key);

  const untrackedSum = { sum: 0, ids: [] as number[], keys: new Set<string>() };
  const splits = { parentCount: 0, childCount: 0, childTotal: 0 };
  let transactionCount = 0;
  let total = 0;

  for (const tx of transactions) {
    if (isInternalTransfer(tx)) continue;
    if (!isCountedTransaction(tx)) {
      splits.parentCount += 1;
      continue;
    }
    if (tx.parentTransactionId !== null) {
      splits.childCount += 1;
      splits.childTotal += tx.amount;
    }
    transactionCount += 1;
    total += tx.amount;
    const t = typeTotal.get(tx.type);
    if (t !== undefined) {
      t.total += tx.amount;
      t.count += 1;
    }
    const key = transactionCategoryKey(tx);
    if (!tracked.has(key)) {
      untrackedSum.sum += tx.amount;
      untrackedSum.ids.push(tx.id);
      untrackedSum.keys.add(key);
      continue;
    }
    for (const s of sums) {
      if (s.keys.has(key)) {
        s.sum += tx.amount;
        s.ids.push(tx.id);
      }
    }
  }

  return assembleOverview({ typeTotals, sums, untrackedSum, splits, transactionCount, total });
}

/** What the overview adds up before it is assembled (by computeBudgetOverview, or from SQL groups by overviewFromGroups). */
export interface OverviewSums {
  typeTotals: BudgetOverview['typeTotals'];
  /** One per line item, in the line items' order: its keys, signed sum and transaction ids in list order. */
  sums: { item: OverviewLineItem; keys: Set<string>; sum: number; ids: number[] }[];
  untrackedSum: { sum: number; ids: number[]; keys: Set<string> };
  splits: BudgetOverview['splits'];
  transactionCount: number;
  total: number;
}

/** The overview from its sums: line items oriented, Untracked, the groups by type and the nets. */
export function assembleOverview({
  typeTotals,
  sums,
  untrackedSum,
  splits,
  transactionCount,
  total,
}: OverviewSums): BudgetOverview {
  const items: LineItemActual[] = sums.map(({ item, keys, sum, ids }) => ({
    id: item.id,
    name: item.name,
    type: item.type,
    budgeted: item.amount,
    actual: orient(item.type, sum),
    transactionCount: ids.length,
    categories: [...keys],
    transactionIds: ids,
  }));
  const untracked: LineItemActual = {
    id: UNTRACKED_ID,
    name: UNTRACKED_NAME,
    type: 'Untracked',
    budgeted: 0,
    actual: orient('Untracked', untrackedSum.sum),
    transactionCount: untrackedSum.ids.length,
    categories: [...untrackedSum.keys].sort(),
    transactionIds: untrackedSum.ids,
  };

  const group = (type: OverviewGroupType) => {
    const groupItems = type === 'Untracked' ? [untracked] : items.filter((item) => item.type === type);
    return {
      type,
      items: groupItems,
      budgeted: sumCents(groupItems.map((item) => item.budgeted)),
      actual: sumCents(groupItems.map((item) => item.actual)),
    };
  };
  const byType = OVERVIEW_GROUP_ORDER.map(group);
  const budgeted = {
    income: group('Income').budgeted,
    fixed: group('Fixed').budgeted,
    variable: group('Variable').budgeted,
    notCounted: group('NotCounted').budgeted,
    net: 0,
  };
  budgeted.net = budgeted.income - (budgeted.fixed + budgeted.variable);
  const actual = {
    income: group('Income').actual,
    fixed: group('Fixed').actual,
    variable: group('Variable').actual,
    notCounted: group('NotCounted').actual,
    untracked: untracked.actual,
    net: 0,
  };
  actual.net = actual.income - (actual.fixed + actual.variable);

  return { typeTotals, lineItems: items, untracked, byType, budgeted, actual, splits, transactionCount, total };
}
