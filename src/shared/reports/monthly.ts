/**
 * The monthly report of the Reports screen and GET /api/reports/monthly, from aggregates the
 * server computes in SQL over counted rows only (split parts, never their parents: see
 * src/shared/transactions/counted.ts).
 *
 * - Every month the range touches is present, in order, zeros included.
 * - `income` (>= 0) sums money in, `expenses` (>= 0) is the magnitude of money out,
 *   `net = income - expenses`.
 * - `byCategory` holds the signed sum of each category that has counted rows that month
 *   (a refund lowers a category's spending); transactions without a category are the
 *   'Uncategorized' series.
 */
import { daysInMonth } from '../dates/calendar';

export const UNCATEGORIZED_SERIES = 'Uncategorized';
/** The chart's bucket for the categories beyond the top ones. */
export const OTHER_SERIES = 'Other';
/** How many categories the spending chart shows before folding the rest into 'Other'. */
export const TOP_CATEGORY_COUNT = 8;
/** The longest range a report covers (100 years of months). */
export const MAX_REPORT_MONTHS = 1200;

/** One group of counted rows: a month and a category (null = none). */
export interface MonthlyAggregate {
  month: string;
  category: string | null;
  /** Sum of the positive amounts, cents (>= 0). */
  moneyIn: number;
  /** Magnitude of the sum of the negative amounts, cents (>= 0). */
  moneyOut: number;
  /** Rows in another currency without a rate within 7 days of their date: left out of the sums. */
  missing?: number;
}

export interface MonthlyReportRow {
  /** `YYYY-MM` */
  month: string;
  income: number;
  expenses: number;
  net: number;
  /** Category name (or 'Uncategorized') -> signed cents. */
  byCategory: Record<string, number>;
  /** The currency every figure is in: the home currency, other currencies converted at their dates' rates. */
  currency?: string;
  /** Rows left out because no rate within 7 days of their date converts their currency. */
  noRate?: number;
}

/** `YYYY-MM` of a `YYYY-MM-DD` date. */
export function monthOf(date: string): string {
  return date.slice(0, 7);
}

/** The first and last day of a `YYYY-MM` month. */
export function monthBounds(month: string): { startDate: string; endDate: string } {
  const last = daysInMonth(Number(month.slice(0, 4)), Number(month.slice(5, 7)));
  return { startDate: `${month}-01`, endDate: `${month}-${String(last).padStart(2, '0')}` };
}

/** How many months an inclusive date range touches. */
export function monthCount(startDate: string, endDate: string): number {
  const months = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7)) - 1;
  return months(endDate) - months(startDate) + 1;
}

/** Every `YYYY-MM` from the start date's month to the end date's month, in order. */
export function monthsInRange(startDate: string, endDate: string): string[] {
  const out: string[] = [];
  let year = Number(startDate.slice(0, 4));
  let month = Number(startDate.slice(5, 7));
  const last = monthOf(endDate);
  for (;;) {
    const key = `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
    if (key > last) break;
    out.push(key);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return out;
}

/** The report's name for a category: its name, or 'Uncategorized' for none. */
export function categorySeriesName(category: string | null): string {
  return category === null || category.trim() === '' ? UNCATEGORIZED_SERIES : category;
}

function compareSeries(a: string, b: string): number {
  if (a === b) return 0;
  if (a === UNCATEGORIZED_SERIES) return 1;
  if (b === UNCATEGORIZED_SERIES) return -1;
  return a.localeCompare(b, 'en', { sensitivity: 'base' }) || (a < b ? -1 : 1);
}

/** Folds the aggregates into one row per month of the range (categories by name, 'Uncategorized' last). */
export function buildMonthlyReport(
  startDate: string,
  endDate: string,
  aggregates: readonly MonthlyAggregate[],
): MonthlyReportRow[] {
  const rows = new Map<string, MonthlyReportRow>();
  for (const month of monthsInRange(startDate, endDate))
    rows.set(month, { month, income: 0, expenses: 0, net: 0, byCategory: {} });
  const sums = new Map<string, Map<string, number>>();
  for (const group of aggregates) {
    const row = rows.get(group.month);
    if (!row) continue; // outside the range: the query never returns these
    row.income += group.moneyIn;
    row.expenses += group.moneyOut;
    const series = categorySeriesName(group.category);
    let byCategory = sums.get(group.month);
    if (!byCategory) sums.set(group.month, (byCategory = new Map<string, number>()));
    byCategory.set(series, (byCategory.get(series) ?? 0) + group.moneyIn - group.moneyOut);
  }
  for (const row of rows.values()) {
    row.net = row.income - row.expenses;
    const byCategory = sums.get(row.month);
    if (byCategory) {
      for (const [name, cents] of [...byCategory].sort(([a], [b]) => compareSeries(a, b)))
        row.byCategory[name] = cents || 0;
    }
  }
  return [...rows.values()];
}

export interface CategorySeries {
  /** The series shown, biggest first: the top categories, then 'Other' when there is a tail. */
  series: string[];
  /** The categories folded into 'Other' (for the link to exactly those rows). */
  other: string[];
  /** Per month, each series' signed cents (0 when the category had no rows that month). */
  rows: { month: string; values: Record<string, number> }[];
}

/**
 * The spending chart's series: the `limit` categories with the largest magnitude over the
 * range (ties by name), the rest summed into 'Other' (named 'Other (rest)' should a category
 * itself be called 'Other'). Every series is present in every month.
 */
export function topCategorySeries(report: readonly MonthlyReportRow[], limit = TOP_CATEGORY_COUNT): CategorySeries {
  const totals = new Map<string, number>();
  for (const row of report)
    for (const [name, cents] of Object.entries(row.byCategory)) totals.set(name, (totals.get(name) ?? 0) + cents);
  const ranked = [...totals]
    .sort(([a, totalA], [b, totalB]) => Math.abs(totalB) - Math.abs(totalA) || compareSeries(a, b))
    .map(([name]) => name);
  const top = ranked.slice(0, limit);
  const other = ranked.slice(limit).sort(compareSeries);
  const otherName = totals.has(OTHER_SERIES) ? `${OTHER_SERIES} (rest)` : OTHER_SERIES;
  const series = other.length > 0 ? [...top, otherName] : top;
  const rows = report.map((row) => {
    const values: Record<string, number> = {};
    for (const name of top) values[name] = row.byCategory[name] ?? 0;
    if (other.length > 0) values[otherName] = other.reduce((sum, name) => sum + (row.byCategory[name] ?? 0), 0);
    return { month: row.month, values };
  });
  return { series, other, rows };
}
