/**
 * The monthly envelope plan, computed from month sums alone: what was assigned to each category in
 * each month, what was spent or earned in it (counted on-plan transactions), and what was held for
 * the next month. No storage, no clock: the same inputs always give the same figures.
 *
 * For an expense category c and a month m:
 *   available(c,m) = assigned(c,m) + activity(c,m) + carryover(c,m)
 *   carryover(c,m) = available(c,m-1) when positive or c rolls overspending over in m-1, else 0
 * and for the month:
 *   overspentLastMonth(m) = sum of min(0, available(c,m-1)) over categories not rolling in m-1
 *   toAssign(m) = income(m) + toAssign(m-1) + held(m-1) + overspentLastMonth(m) - assigned(m) - held(m)
 * So the sum of every category's available, To Assign and held always equals the categorised
 * counted money up to the month's end; uncategorised money is its own line beside them.
 */
import type { CategoryKind, CategoryTarget } from '../schemas/categories';
import { addMonths, monthIndex, monthOfIndex } from './months';

export interface PlanCategory {
  id: number;
  name: string;
  kind: CategoryKind;
  hidden: boolean;
  rollsOverspendingFrom: string | null;
  target: CategoryTarget | null;
}

/** Counted on-plan transactions of one category (null: uncategorised) in one month. */
export interface MonthSum {
  categoryId: number | null;
  month: string;
  amount: number;
  count: number;
}

export interface AssignedAmount {
  categoryId: number;
  month: string;
  amount: number;
}

export interface HeldAmount {
  month: string;
  amount: number;
}

export interface PlanInput {
  categories: readonly PlanCategory[];
  sums: readonly MonthSum[];
  assigned: readonly AssignedAmount[];
  held: readonly HeldAmount[];
}

export interface CategoryMonth {
  categoryId: number;
  assigned: number;
  activity: number;
  carryover: number;
  available: number;
  rollsOverspending: boolean;
}

export interface PlanMonthFigures {
  month: string;
  toAssign: number;
  income: number;
  /** To Assign and held of the month before. */
  fromLastMonth: number;
  /** Zero or negative: last month's overspending (of categories that do not roll it over) taken from To Assign. */
  overspentLastMonth: number;
  /** The categories it came from, with how much each (negative). */
  overspentFrom: { categoryId: number; amount: number }[];
  held: number;
  /** Every expense category, in the order given. */
  categories: CategoryMonth[];
  /** Every income category, in the order given. */
  incomeCategories: { categoryId: number; activity: number }[];
  /** Uncategorised counted money up to the month's end (count and signed sum). */
  uncategorized: { count: number; amount: number };
}

/** True when the category rolls overspending over in `month` (its setting took effect by then). */
export function rollsIn(category: Pick<PlanCategory, 'rollsOverspendingFrom'>, month: string): boolean {
  return category.rollsOverspendingFrom !== null && monthIndex(category.rollsOverspendingFrom) <= monthIndex(month);
}

function keyOf(categoryId: number | null, month: number): string {
  return `${categoryId ?? 'u'}:${month}`;
}

/** The first and last month any figure is stored for, up to `lastIndex` (null: nothing at all). */
function dataSpan(input: PlanInput, lastIndex: number): { first: number; last: number } | null {
  let span: { first: number; last: number } | null = null;
  const see = (month: string) => {
    const index = monthIndex(month);
    if (index > lastIndex) return;
    if (span === null) span = { first: index, last: index };
    else span = { first: Math.min(span.first, index), last: Math.max(span.last, index) };
  };
  for (const sum of input.sums) see(sum.month);
  for (const row of input.assigned) see(row.month);
  for (const row of input.held) see(row.month);
  return span;
}

/**
 * The plan of every month from the first with any figure up to `last`, in order (only `last`
 * when nothing is stored before it). Figures of months after `last` are ignored. Every categorised
 * sum must name one of `categories`.
 */
export function planMonths(input: PlanInput, last: string): PlanMonthFigures[] {
  const lastIndex = monthIndex(last);
  const start = dataSpan(input, lastIndex)?.first ?? lastIndex;
  const activity = new Map<string, number>();
  const uncategorizedCount = new Map<number, number>();
  for (const sum of input.sums) {
    const index = monthIndex(sum.month);
    if (index > lastIndex) continue;
    const key = keyOf(sum.categoryId, index);
    activity.set(key, (activity.get(key) ?? 0) + sum.amount);
    if (sum.categoryId === null) uncategorizedCount.set(index, (uncategorizedCount.get(index) ?? 0) + sum.count);
  }
  const assigned = new Map<string, number>();
  for (const row of input.assigned) {
    const key = keyOf(row.categoryId, monthIndex(row.month));
    assigned.set(key, (assigned.get(key) ?? 0) + row.amount);
  }
  const held = new Map<number, number>();
  for (const row of input.held) held.set(monthIndex(row.month), (held.get(monthIndex(row.month)) ?? 0) + row.amount);
  const expense = input.categories.filter((category) => category.kind === 'expense');
  const income = input.categories.filter((category) => category.kind === 'income');

  const out: PlanMonthFigures[] = [];
  let previous: PlanMonthFigures | null = null;
  let uncategorized = { count: 0, amount: 0 };
  for (let index = start; index <= lastIndex; index++) {
    const month = monthOfIndex(index);
    const before = monthOfIndex(index - 1);
    const lastAvailable = new Map(previous?.categories.map((row) => [row.categoryId, row]) ?? []);
    const overspentFrom: { categoryId: number; amount: number }[] = [];
    const categories = expense.map((category): CategoryMonth => {
      const prior = lastAvailable.get(category.id)?.available ?? 0;
      const rolledBefore = rollsIn(category, before);
      const carryover = prior > 0 || rolledBefore ? prior : 0;
      if (prior < 0 && !rolledBefore) overspentFrom.push({ categoryId: category.id, amount: prior });
      const a = assigned.get(keyOf(category.id, index)) ?? 0;
      const spent = activity.get(keyOf(category.id, index)) ?? 0;
      return {
        categoryId: category.id,
        assigned: a,
        activity: spent,
        carryover,
        available: a + spent + carryover,
        rollsOverspending: rollsIn(category, month),
      };
    });
    const incomeCategories = income.map((category) => ({
      categoryId: category.id,
      activity: activity.get(keyOf(category.id, index)) ?? 0,
    }));
    const incomeTotal = incomeCategories.reduce((sum, row) => sum + row.activity, 0);
    const overspentLastMonth = overspentFrom.reduce((sum, row) => sum + row.amount, 0);
    const fromLastMonth = previous ? previous.toAssign + previous.held : 0;
    const assignedTotal = categories.reduce((sum, row) => sum + row.assigned, 0);
    const heldNow = held.get(index) ?? 0;
    uncategorized = {
      count: uncategorized.count + (uncategorizedCount.get(index) ?? 0),
      amount: uncategorized.amount + (activity.get(keyOf(null, index)) ?? 0),
    };
    const figures: PlanMonthFigures = {
      month,
      toAssign: incomeTotal + fromLastMonth + overspentLastMonth - assignedTotal - heldNow,
      income: incomeTotal,
      fromLastMonth,
      overspentLastMonth,
      overspentFrom,
      held: heldNow,
      categories,
      incomeCategories,
      uncategorized,
    };
    out.push(figures);
    previous = figures;
  }
  return out;
}

/**
 * The plan of one month. Two months after the last stored figure nothing changes any more (no
 * assignment, activity or hold; overspending already taken), so a month far ahead is that
 * month's figures under its own name rather than a walk through every month between.
 */
export function planMonth(input: PlanInput, month: string): PlanMonthFigures {
  const asked = monthIndex(month);
  const span = dataSpan(input, asked);
  const settled = span === null ? asked : Math.min(asked, span.last + 2);
  const months = planMonths(input, monthOfIndex(settled));
  const found = months[months.length - 1] as PlanMonthFigures;
  if (settled === asked) return found;
  const rolls = new Map(input.categories.map((category) => [category.id, rollsIn(category, month)]));
  return {
    ...found,
    month,
    categories: found.categories.map((row) => ({ ...row, rollsOverspending: rolls.get(row.categoryId) ?? false })),
  };
}

/** How much a category still needs this month to meet its target (0 when met or without one). */
export function neededFor(target: CategoryTarget | null, row: CategoryMonth, month: string): number {
  if (target === null) return 0;
  if (target.type !== 'byDate')
    return Math.max(0, target.amount - (target.type === 'monthly' ? row.assigned : row.available));
  const monthsLeft = Math.max(1, monthIndex(target.date.slice(0, 7)) - monthIndex(month) + 1);
  const withoutThisMonth = row.available - row.assigned;
  const perMonth = Math.ceil(Math.max(0, target.amount - withoutThisMonth) / monthsLeft);
  return Math.max(0, perMonth - row.assigned);
}

/** The months before `month`, most recent first, `count` of them. */
export function monthsBefore(month: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => addMonths(month, -(i + 1)));
}
