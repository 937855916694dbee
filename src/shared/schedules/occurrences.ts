/**
 * A schedule's occurrences as people see them: the rows stored for those that came due (posted,
 * matched, missed, skipped, or due and waiting) merged with those still ahead, computed from
 * the rule. Today is passed in.
 */
import { addDays } from '../dates/calendar';
import { expandSchedule, type OccurrenceDates, type ScheduleTiming } from './recurrence';
import type { OccurrenceStatus, ScheduleMode } from './schema';

export interface ScheduleRules extends ScheduleTiming {
  mode: ScheduleMode;
  window: number;
  amount: number;
}

export interface StoredOccurrence extends OccurrenceDates {
  id: number;
  amount: number;
  status: OccurrenceStatus;
  transactionId: number | null;
}

export interface ComputedOccurrence extends OccurrenceDates {
  id: number | null;
  amount: number;
  status: OccurrenceStatus;
  transactionId: number | null;
}

/** Statuses an occurrence can still leave: it may yet be posted, matched or skipped. */
export const OPEN_STATUSES: readonly OccurrenceStatus[] = ['upcoming', 'due', 'missed'];

/**
 * The status of an occurrence nothing has happened to yet: a `post` one is due from its day; an
 * `expect` one from `window` days before it until `window` days after, then missed.
 */
export function openStatus(mode: ScheduleMode, window: number, date: string, today: string): OccurrenceStatus {
  if (mode === 'post') return date <= today ? 'due' : 'upcoming';
  if (today < addDays(date, -window)) return 'upcoming';
  return today <= addDays(date, window) ? 'due' : 'missed';
}

/**
 * The last day whose occurrences are stored by now: a `post` schedule's up to today (they are
 * posted at once), an `expect` schedule's up to `window` days ahead (from then a row may match).
 */
export function storedThrough(rules: Pick<ScheduleRules, 'mode' | 'window'>, today: string): string {
  return rules.mode === 'post' ? today : addDays(today, rules.window);
}

/** The rule's occurrences up to storedThrough(today) that have no stored row yet. */
export function occurrencesToStore(
  rules: ScheduleRules,
  storedKeys: ReadonlySet<string>,
  today: string,
): OccurrenceDates[] {
  // A weekend move may put the first occurrence up to two days before the start date.
  const from = addDays(rules.startDate, -2);
  return expandSchedule(rules, from, storedThrough(rules, today)).filter((o) => !storedKeys.has(o.scheduledDate));
}

/**
 * Every occurrence whose day is from `from` through `to`: stored rows as they are (a `due` one
 * with its status for today), the rule's other dates with their open status. A stored row the
 * rule no longer makes shows only when something happened to it (posted or matched).
 */
export function occurrencesBetween(
  rules: ScheduleRules,
  stored: readonly StoredOccurrence[],
  from: string,
  to: string,
  today: string,
): ComputedOccurrence[] {
  const byKey = new Map(stored.map((row) => [row.scheduledDate, row]));
  const out: ComputedOccurrence[] = [];
  const made = new Set<string>();
  for (const dates of expandSchedule(rules, from, to)) {
    made.add(dates.scheduledDate);
    const row = byKey.get(dates.scheduledDate);
    if (row) out.push(shown(rules, row, today));
    else
      out.push({
        ...dates,
        id: null,
        amount: rules.amount,
        status: openStatus(rules.mode, rules.window, dates.date, today),
        transactionId: null,
      });
  }
  for (const row of stored) {
    if (made.has(row.scheduledDate) || row.date < from || row.date > to) continue;
    if (row.status === 'posted' || row.status === 'matched') out.push(shown(rules, row, today));
  }
  return out.sort((a, b) => (a.date === b.date ? compare(a.scheduledDate, b.scheduledDate) : compare(a.date, b.date)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function shown(rules: ScheduleRules, row: StoredOccurrence, today: string): ComputedOccurrence {
  const status = row.status === 'due' ? openStatus(rules.mode, rules.window, row.date, today) : row.status;
  return { ...row, status };
}

/** The first occurrence that is upcoming or due (looked for up to `horizonDays` ahead), if any. */
export function nextOpen(
  rules: ScheduleRules,
  stored: readonly StoredOccurrence[],
  today: string,
  horizonDays = 3660,
): ComputedOccurrence | null {
  const from = addDays(today, -rules.window - 2);
  return (
    occurrencesBetween(rules, stored, from, addDays(today, horizonDays), today).find(
      (o) => o.status === 'upcoming' || o.status === 'due',
    ) ?? null
  );
}

export interface ForecastItem {
  accountId: number;
  date: string;
  amount: number;
}

/**
 * The balance of each item's account after it: the account's balance today, plus its stored
 * rows dated after today up to the item's day, plus the items before it and itself (items in
 * date order). `balancesToday` holds each account's balance at the end of today.
 */
export function projectBalances<T extends ForecastItem>(
  items: readonly T[],
  balancesToday: ReadonlyMap<number, number>,
  laterRows: readonly ForecastItem[],
): (T & { projectedBalance: number })[] {
  const rows = [...laterRows].sort((a, b) => compare(a.date, b.date));
  const running = new Map(balancesToday);
  let next = 0;
  return items.map((item) => {
    while (next < rows.length && (rows[next]?.date ?? '') <= item.date) {
      const row = rows[next++];
      if (row) running.set(row.accountId, (running.get(row.accountId) ?? 0) + row.amount);
    }
    const balance = (running.get(item.accountId) ?? 0) + item.amount;
    running.set(item.accountId, balance);
    return { ...item, projectedBalance: balance };
  });
}
