/**
 * The recurrences people pick from a list (every N days, weeks, months; a day of the month or its
 * last day; the nth weekday; yearly), to and from their RRULE text, and a recurrence in words.
 * A rule that is none of these is 'custom': the form shows its text for experts.
 */
import { parseRecurrence, WEEKDAY_CODES, type Recurrence, type WeekdayCode } from './recurrence';

export type RecurrencePattern =
  | { kind: 'days'; every: number }
  | { kind: 'weeks'; every: number; weekdays: WeekdayCode[] }
  | { kind: 'monthDay'; every: number; day: number }
  | { kind: 'nthWeekday'; every: number; nth: number; weekday: WeekdayCode }
  | { kind: 'yearly'; month: number; day: number }
  | { kind: 'custom'; rule: string };

export const PATTERN_KINDS = ['days', 'weeks', 'monthDay', 'nthWeekday', 'yearly', 'custom'] as const;
export type PatternKind = (typeof PATTERN_KINDS)[number];

const interval = (every: number) => (every > 1 ? `;INTERVAL=${every}` : '');

/** The RRULE text of a pattern (`day` -1 is the last day of the month, `nth` -1 the last such weekday). */
export function patternRule(pattern: RecurrencePattern): string {
  switch (pattern.kind) {
    case 'days':
      return `FREQ=DAILY${interval(pattern.every)}`;
    case 'weeks':
      return `FREQ=WEEKLY${interval(pattern.every)}${pattern.weekdays.length ? `;BYDAY=${orderWeekdays(pattern.weekdays).join(',')}` : ''}`;
    case 'monthDay':
      return `FREQ=MONTHLY${interval(pattern.every)};BYMONTHDAY=${pattern.day}`;
    case 'nthWeekday':
      return `FREQ=MONTHLY${interval(pattern.every)};BYDAY=${pattern.nth}${pattern.weekday}`;
    case 'yearly':
      return `FREQ=YEARLY;BYMONTH=${pattern.month};BYMONTHDAY=${pattern.day}`;
    case 'custom':
      return pattern.rule;
  }
}

function orderWeekdays(days: readonly WeekdayCode[]): WeekdayCode[] {
  return WEEKDAY_CODES.filter((day) => days.includes(day));
}

function onlyParts(rec: Recurrence, parts: (keyof Recurrence)[]): boolean {
  const lists: (keyof Recurrence)[] = ['byDay', 'byMonthDay', 'byMonth', 'bySetPos', 'byYearDay', 'byWeekNo'];
  return rec.wkst === null && lists.every((key) => parts.includes(key) || (rec[key] as unknown[]).length === 0);
}

/** The pattern a rule is, or 'custom' (also for a rule that does not parse). */
export function patternOf(rule: string): RecurrencePattern {
  const parsed = parseRecurrence(rule);
  if (!parsed.ok) return { kind: 'custom', rule };
  const rec = parsed.recurrence;
  const every = rec.interval;
  const [first] = rec.byDay;
  if (rec.freq === 'DAILY' && onlyParts(rec, [])) return { kind: 'days', every };
  if (rec.freq === 'WEEKLY' && onlyParts(rec, ['byDay']) && rec.byDay.every((d) => d.n === undefined))
    return { kind: 'weeks', every, weekdays: rec.byDay.map((d) => d.day) };
  if (rec.freq === 'MONTHLY' && onlyParts(rec, ['byMonthDay']) && rec.byMonthDay.length === 1)
    return { kind: 'monthDay', every, day: rec.byMonthDay[0] ?? 1 };
  if (rec.freq === 'MONTHLY' && onlyParts(rec, ['byDay']) && rec.byDay.length === 1 && first?.n !== undefined)
    return { kind: 'nthWeekday', every, nth: first.n, weekday: first.day };
  if (
    rec.freq === 'YEARLY' &&
    every === 1 &&
    onlyParts(rec, ['byMonth', 'byMonthDay']) &&
    rec.byMonth.length === 1 &&
    rec.byMonthDay.length === 1
  )
    return { kind: 'yearly', month: rec.byMonth[0] ?? 1, day: rec.byMonthDay[0] ?? 1 };
  return { kind: 'custom', rule: parsed.text };
}

const WEEKDAY_NAMES: Record<WeekdayCode, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};
export const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export function weekdayName(code: WeekdayCode): string {
  return WEEKDAY_NAMES[code];
}

/** 1 -> 1st, 22 -> 22nd, -1 -> last. */
export function ordinal(n: number): string {
  if (n === -1) return 'last';
  if (n < 0) return `${ordinal(-n)} from last`;
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function every(n: number, unit: string): string {
  return n === 1 ? `Every ${unit}` : `Every ${n} ${unit}s`;
}

function dayOfMonth(day: number): string {
  if (day === -1) return 'the last day';
  return day > 28 ? `the ${ordinal(day)} (or the last day)` : `the ${ordinal(day)}`;
}

/** A recurrence in words ("Every month on the 31st (or the last day)"); the rule text itself when it is custom. */
export function describeRecurrence(rule: string): string {
  const pattern = patternOf(rule);
  switch (pattern.kind) {
    case 'days':
      return every(pattern.every, 'day');
    case 'weeks':
      return pattern.weekdays.length
        ? `${every(pattern.every, 'week')} on ${orderWeekdays(pattern.weekdays).map(weekdayName).join(', ')}`
        : every(pattern.every, 'week');
    case 'monthDay':
      return `${every(pattern.every, 'month')} on ${dayOfMonth(pattern.day)}`;
    case 'nthWeekday':
      return `${every(pattern.every, 'month')} on the ${ordinal(pattern.nth)} ${weekdayName(pattern.weekday)}`;
    case 'yearly':
      return `Every year on ${MONTH_NAMES[pattern.month - 1] ?? ''} ${pattern.day === -1 ? '(last day)' : pattern.day}`;
    case 'custom':
      return `Custom: ${pattern.rule}`;
  }
}
