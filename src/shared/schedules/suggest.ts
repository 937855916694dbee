/**
 * Schedules found in history: rows of one account with the same merchant (the description as
 * suggestions normalise it) and the same sign, at a regular interval (weekly, every two weeks,
 * monthly, every three months or yearly) at least MIN_ROWS times in a row, with a stable amount.
 * The run must reach the recent past (a pattern that stopped is not proposed), and a merchant
 * an existing schedule of the account already covers is left out.
 */
import { addDays, toDayNumber } from '../dates/calendar';
import { DEFAULT_CURRENCY } from '../money/currencies';
import { normalizeMerchant } from '../suggest/normalize';
import { expandSchedule, WEEKDAY_CODES, weekdayNumber } from './recurrence';
import type { ScheduleSuggestionDto } from './schema';

export const MIN_ROWS = 3;
/** Amounts may spread this much (percent of the median) and still be one schedule. */
export const MAX_SPREAD_PERCENT = 20;

export interface HistoryRow {
  accountId: number;
  account: string;
  /** The account's currency; absent, the suggestion is in the default currency. */
  currency?: string;
  date: string;
  amount: number;
  description: string;
}

interface Cadence {
  interval: string;
  /** Typical days between rows, and how far a gap may stray from it. */
  days: number;
  slack: number;
  /** The RRULE of a run of rows (dates in order). */
  rule: (dates: readonly string[]) => string;
}

/** The run's usual day of the month (a bank moves a payment off a weekend now and then). */
const dayOfMonth = (dates: readonly string[]) => median(dates.map((date) => Number(date.slice(8, 10))));
const month = (dates: readonly string[]) => Number(dates[dates.length - 1]?.slice(5, 7) ?? 1);
const weekdayCode = (dates: readonly string[]) =>
  WEEKDAY_CODES[(weekdayNumber(dates[dates.length - 1] ?? '1970-01-01') + 6) % 7] ?? 'MO';

const CADENCES: Cadence[] = [
  { interval: 'weekly', days: 7, slack: 1, rule: (dates) => `FREQ=WEEKLY;BYDAY=${weekdayCode(dates)}` },
  {
    interval: 'every 2 weeks',
    days: 14,
    slack: 2,
    rule: (dates) => `FREQ=WEEKLY;INTERVAL=2;BYDAY=${weekdayCode(dates)}`,
  },
  { interval: 'monthly', days: 30.4, slack: 5, rule: (dates) => `FREQ=MONTHLY;BYMONTHDAY=${dayOfMonth(dates)}` },
  {
    interval: 'every 3 months',
    days: 91.3,
    slack: 6,
    rule: (dates) => `FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=${dayOfMonth(dates)}`,
  },
  {
    interval: 'yearly',
    days: 365.25,
    slack: 8,
    rule: (dates) => `FREQ=YEARLY;BYMONTH=${month(dates)};BYMONTHDAY=${dayOfMonth(dates)}`,
  },
];

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] ?? 0) : Math.round(((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2);
}

/** The trailing run of rows whose gaps all fit the cadence (rows sorted by date, one a day). */
function trailingRun(rows: readonly HistoryRow[], cadence: Cadence): HistoryRow[] {
  let start = rows.length - 1;
  while (start > 0) {
    const gap = toDayNumber(rows[start]?.date ?? '') - toDayNumber(rows[start - 1]?.date ?? '');
    if (Math.abs(gap - cadence.days) > cadence.slack) break;
    start -= 1;
  }
  return rows.slice(start);
}

function stableAmounts(
  run: readonly HistoryRow[],
): { median: number; min: number; max: number; spread: number } | null {
  const amounts = run.map((row) => row.amount);
  const mid = median(amounts);
  const min = Math.min(...amounts);
  const max = Math.max(...amounts);
  const spread = mid === 0 ? Infinity : (Math.max(Math.abs(max - mid), Math.abs(mid - min)) * 100) / Math.abs(mid);
  return spread <= MAX_SPREAD_PERCENT ? { median: mid, min, max, spread } : null;
}

function suggestionFor(rows: readonly HistoryRow[], today: string): ScheduleSuggestionDto | null {
  for (const cadence of CADENCES) {
    const run = trailingRun(rows, cadence);
    if (run.length < MIN_ROWS) continue;
    const last = run[run.length - 1];
    // Still going: the next row is not overdue by more than a gap.
    if (!last || toDayNumber(today) - toDayNumber(last.date) > 2 * cadence.days + cadence.slack) return null;
    const amounts = stableAmounts(run);
    if (!amounts) continue;
    const recurrence = cadence.rule(run.map((row) => row.date));
    // Expanded from the last row itself, so an every-two-weeks rule keeps the run's weeks.
    const [next] = expandSchedule(
      { recurrence, startDate: last.date, end: 'never', weekendRule: 'none' },
      today > last.date ? today : addDays(last.date, 1),
      addDays(today, 400),
    );
    if (!next) return null;
    const merchant = normalizeMerchant(last.description);
    return {
      name: merchant.display ? titleCase(merchant.key) : last.description,
      account: last.account,
      accountId: last.accountId,
      description: last.description,
      amount: amounts.median,
      currency: last.currency ?? DEFAULT_CURRENCY,
      amountRange: { min: amounts.min, max: amounts.max },
      amountTolerance: Math.min(MAX_SPREAD_PERCENT, Math.ceil(amounts.spread)),
      interval: cadence.interval,
      recurrence,
      occurrences: run.length,
      lastDate: last.date,
      nextDate: next.date,
    };
  }
  return null;
}

function titleCase(key: string): string {
  return key.replace(/\b\p{L}/gu, (letter) => letter.toUpperCase());
}

/** The schedules history suggests, most frequent first. `covered` holds `${accountId}:${merchant key}` of existing schedules. */
export function suggestSchedules(
  history: readonly HistoryRow[],
  today: string,
  covered: ReadonlySet<string> = new Set(),
): ScheduleSuggestionDto[] {
  const groups = new Map<string, HistoryRow[]>();
  for (const row of history) {
    if (row.amount === 0) continue;
    const key = `${row.accountId}:${normalizeMerchant(row.description).key}`;
    if (covered.has(key)) continue;
    const groupKey = `${key}:${row.amount < 0 ? '-' : '+'}`;
    let list = groups.get(groupKey);
    if (!list) groups.set(groupKey, (list = []));
    list.push(row);
  }
  const out: ScheduleSuggestionDto[] = [];
  for (const rows of groups.values()) {
    if (rows.length < MIN_ROWS) continue;
    rows.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    // One row a day: a second row the same day is another purchase, not the next occurrence.
    const daily = rows.filter((row, i) => i === 0 || rows[i - 1]?.date !== row.date);
    const suggestion = suggestionFor(daily, today);
    if (suggestion) out.push(suggestion);
  }
  return out.sort((a, b) => b.occurrences - a.occurrences || (a.nextDate < b.nextDate ? -1 : 1));
}

/** The key suggestSchedules compares with existing schedules. */
export function coveredKey(accountId: number, description: string): string {
  return `${accountId}:${normalizeMerchant(description).key}`;
}
