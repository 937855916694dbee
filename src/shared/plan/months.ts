/** Calendar months as `YYYY-MM` text: the plan's unit of time. No time zones, as with dates. */

const MONTH_PATTERN = /^(\d{4})-(\d{2})$/;

/** True for `YYYY-MM` with a month 01..12 and a year 1..9999. */
export function isMonth(text: string): boolean {
  const match = MONTH_PATTERN.exec(text);
  if (!match) return false;
  const year = Number(match[1]);
  const month = Number(match[2]);
  return year >= 1 && month >= 1 && month <= 12;
}

/** Months since year 0 (so consecutive months differ by one). */
export function monthIndex(month: string): number {
  return Number(month.slice(0, 4)) * 12 + Number(month.slice(5, 7)) - 1;
}

export function monthOfIndex(index: number): string {
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}`;
}

export function addMonths(month: string, count: number): string {
  return monthOfIndex(monthIndex(month) + count);
}

/** The month a `YYYY-MM-DD` date falls in. */
export function monthOfDate(date: string): string {
  return date.slice(0, 7);
}

/** The first and last day of a month, `YYYY-MM-DD`. */
export function monthRange(month: string): { start: string; end: string } {
  const year = Number(month.slice(0, 4));
  const m = Number(month.slice(5, 7));
  const last = new Date(Date.UTC(year, m, 0)).getUTCDate();
  return { start: `${month}-01`, end: `${month}-${String(last).padStart(2, '0')}` };
}
