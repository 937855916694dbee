/**
 * From a report's figure to exactly its rows: the transaction search filters that find the rows
 * a bar or a payee sums (the search's `counted` leaves split parents out, as the totals do).
 * A month's bar covers the part of the month inside the report's range.
 */
import type { TransactionFilters } from '../schemas/transactions';
import { monthBounds } from './monthly';

export interface ReportRange {
  startDate: string;
  endDate: string;
  /** An account name; all accounts when absent. */
  account?: string;
}

/** The days of `month` inside the range (the whole month when the range covers it). */
export function monthWithinRange(month: string, range: ReportRange): { startDate: string; endDate: string } {
  const bounds = monthBounds(month);
  return {
    startDate: bounds.startDate < range.startDate ? range.startDate : bounds.startDate,
    endDate: bounds.endDate > range.endDate ? range.endDate : bounds.endDate,
  };
}

function base(range: ReportRange, dates: { startDate: string; endDate: string }): TransactionFilters {
  const filters: TransactionFilters = { ...dates, counted: true };
  if (range.account) filters.account = range.account;
  return filters;
}

/** A spending bar: the month's counted rows in the series' categories (several for 'Other'). */
export function categoryBarFilters(
  range: ReportRange,
  month: string,
  categories: readonly string[],
): TransactionFilters {
  return { ...base(range, monthWithinRange(month, range)), categories: [...categories] };
}

/** An income (money in) or expenses (money out) bar: the month's counted rows going that way. */
export function cashflowBarFilters(range: ReportRange, month: string, direction: 'in' | 'out'): TransactionFilters {
  return { ...base(range, monthWithinRange(month, range)), direction };
}

/** A net point: every counted row of the month. */
export function netFilters(range: ReportRange, month: string): TransactionFilters {
  return base(range, monthWithinRange(month, range));
}

/** A payee of the top-payees list: its counted rows over the whole range. */
export function payeeFilters(range: ReportRange, payee: string): TransactionFilters {
  return { ...base(range, { startDate: range.startDate, endDate: range.endDate }), payee };
}
