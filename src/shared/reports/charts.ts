/**
 * What the Reports screen draws, computed from the monthly report (data in, data out):
 * - the spending chart's series: the categories with more money out than in over the range,
 *   as positive spending, the top 8 kept and the rest folded into 'Other' (topCategorySeries);
 * - a colour per category that stays the same whatever else is shown (picked from the name),
 *   in a light and a dark palette so bars stay readable on either background;
 * - the income/expenses/net figures per month.
 */
import { topCategorySeries, TOP_CATEGORY_COUNT, UNCATEGORIZED_SERIES, type MonthlyReportRow } from './monthly';
import { must } from '../must';

export type ColorMode = 'light' | 'dark';

/**
 * Twelve distinguishable hues per mode (Tableau 10 plus two, toned for contrast against the
 * theme's background: darker on light paper, lighter on dark paper). Grey is kept out: it is
 * 'Other'.
 */
export const CATEGORY_PALETTES: Record<ColorMode, readonly string[]> = {
  light: [
    '#1f77b4',
    '#d62728',
    '#2ca02c',
    '#9467bd',
    '#e377c2',
    '#8c564b',
    '#17becf',
    '#bcbd22',
    '#ff7f0e',
    '#3949ab',
    '#00897b',
    '#ad1457',
  ],
  dark: [
    '#64b5f6',
    '#ef5350',
    '#81c784',
    '#b39ddb',
    '#f48fb1',
    '#bcaaa4',
    '#4dd0e1',
    '#dce775',
    '#ffb74d',
    '#9fa8da',
    '#4db6ac',
    '#f06292',
  ],
};
/** 'Other' (the folded tail) is always grey; 'Uncategorized' always the same slate. */
export const OTHER_COLORS: Record<ColorMode, string> = { light: '#9e9e9e', dark: '#757575' };
export const UNCATEGORIZED_COLORS: Record<ColorMode, string> = { light: '#546e7a', dark: '#90a4ae' };

/** A stable small hash of a category name (case-insensitive, so 'Dining' and 'dining' match). */
export function nameHash(name: string): number {
  let hash = 2166136261;
  for (const char of name.toLowerCase()) {
    hash ^= must(char.codePointAt(0), 'a character of a string has a code point');
    hash = Math.imul(hash, 16777619) >>> 0;
  }
  return hash;
}

/**
 * A colour for each series, in the order given (biggest first): a category takes the palette
 * entry its name hashes to, or the next free one when a bigger series already has it, so the
 * series shown together never share a colour (up to the palette's size) and a category keeps its
 * colour from one range to the next unless a bigger one collides with it. 'Other' is grey and
 * 'Uncategorized' slate.
 */
export function seriesColors(series: readonly string[], mode: ColorMode, otherName = 'Other'): Record<string, string> {
  const palette = CATEGORY_PALETTES[mode];
  const taken = new Set<number>();
  const colors: Record<string, string> = {};
  for (const name of series) {
    if (name === otherName) {
      colors[name] = OTHER_COLORS[mode];
      continue;
    }
    if (name === UNCATEGORIZED_SERIES) {
      colors[name] = UNCATEGORIZED_COLORS[mode];
      continue;
    }
    const start = nameHash(name) % palette.length;
    let index = start;
    for (let step = 0; step < palette.length && taken.has(index); step += 1)
      index = (start + step + 1) % palette.length;
    taken.add(index);
    colors[name] = must(palette[index], 'the index is reduced modulo the palette size');
  }
  return colors;
}

export interface SpendingSeries {
  name: string;
  /** The category names behind the series: one for a category, several for 'Other'. */
  categories: string[];
  /** Spending per month of `months` (money out minus refunds), cents. */
  values: number[];
  total: number;
}

export interface SpendingChart {
  months: string[];
  series: SpendingSeries[];
  /** Per month, the sum over every series, cents. */
  monthTotals: number[];
  /** The name of the folded tail's series ('Other', or 'Other (rest)' beside a category called Other), null without a tail. */
  otherName: string | null;
}

/**
 * The spending chart: categories whose signed sum over the range is below zero (money out
 * exceeds refunds), each month's value the negated signed sum (a month of refunds only shows
 * below zero), ranked by their spending with the tail beyond `limit` folded into 'Other'.
 * Categories that bring money in over the range (a salary) belong to the income chart instead.
 */
export function spendingChart(report: readonly MonthlyReportRow[], limit = TOP_CATEGORY_COUNT): SpendingChart {
  const totals = new Map<string, number>();
  for (const row of report)
    for (const [name, cents] of Object.entries(row.byCategory)) totals.set(name, (totals.get(name) ?? 0) + cents);
  const spending = new Set([...totals].filter(([, cents]) => cents < 0).map(([name]) => name));
  const negated: MonthlyReportRow[] = report.map((row) => {
    const byCategory: Record<string, number> = {};
    for (const [name, cents] of Object.entries(row.byCategory)) if (spending.has(name)) byCategory[name] = -cents || 0;
    return { ...row, byCategory };
  });
  const top = topCategorySeries(negated, limit);
  const otherName = top.other.length > 0 ? must(top.series.at(-1), 'a folded tail is the last series') : null;
  const series = top.series.map((name) => {
    const values = top.rows.map((row) => row.values[name] || 0);
    return {
      name,
      categories: name === otherName ? [...top.other] : [name],
      values,
      total: values.reduce((sum, cents) => sum + cents, 0),
    };
  });
  const months = report.map((row) => row.month);
  const monthTotals = top.rows.map((row) => series.reduce((sum, s) => sum + (row.values[s.name] || 0), 0));
  return { months, series, monthTotals, otherName };
}

export interface CashflowTotals {
  income: number;
  expenses: number;
  net: number;
}

/** The range's totals of the income/expenses chart. */
export function cashflowTotals(report: readonly MonthlyReportRow[]): CashflowTotals {
  let income = 0;
  let expenses = 0;
  for (const row of report) {
    income += row.income;
    expenses += row.expenses;
  }
  return { income, expenses, net: income - expenses };
}

/** A month key as the charts label it: 'Jan 2024' (English month names, no clock involved). */
export function monthLabel(month: string): string {
  const names = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  const index = Number(month.slice(5, 7)) - 1;
  return `${names[index] ?? month.slice(5, 7)} ${month.slice(0, 4)}`;
}
