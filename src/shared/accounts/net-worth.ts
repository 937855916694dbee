/**
 * Net worth month by month: at the end of each month, the sum over accounts of the opening
 * balance plus the counted rows dated on or before that day. It is the balance the register
 * shows after the month's last row (the opening balance is listed below every row), so the
 * chart and the registers agree.
 */
import { daysInMonth, isoDateOf, parseIsoDate } from '../dates/calendar';

/** The counted rows of one month (`YYYY-MM`), summed over the accounts. */
export interface MonthTotal {
  month: string;
  total: number;
}

export interface NetWorthPoint {
  /** `YYYY-MM`. */
  month: string;
  /** The month's last day, `YYYY-MM-DD`. */
  endDate: string;
  /** Integer cents. */
  netWorth: number;
  /** Accounts in another currency left out: no rate within 7 days of the month's end converts them. */
  noRate?: number;
}

/** The `count` months ending with the month of `endDate`, oldest first, as `YYYY-MM`. */
export function monthsEnding(endDate: string, count: number): string[] {
  const end = parseIsoDate(endDate);
  if (!end) throw new RangeError(`not a date: ${endDate}`);
  const months: string[] = [];
  for (let i = count - 1; i >= 0; i--) {
    const index = end.year * 12 + (end.month - 1) - i;
    months.push(`${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`);
  }
  return months;
}

function lastDayOf(month: string): string {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  return isoDateOf(year, m, daysInMonth(year, m));
}

/** Net worth at the end of each of `months` (ascending), from the opening balances and the months' totals. */
export function netWorthByMonth(
  openingTotal: number,
  totals: readonly MonthTotal[],
  months: readonly string[],
): NetWorthPoint[] {
  const sorted = [...totals].sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
  let running = openingTotal;
  let next = 0;
  return months.map((month) => {
    for (let total = sorted[next]; total && total.month <= month; total = sorted[++next]) running += total.total;
    return { month, endDate: lastDayOf(month), netWorth: running === 0 ? 0 : running };
  });
}
