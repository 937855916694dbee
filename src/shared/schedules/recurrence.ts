/**
 * A schedule's recurrence: an RFC 5545 RRULE (without DTSTART, COUNT or UNTIL: the schedule's
 * start date and end say those), read and checked here and expanded by the `rrule` library over
 * calendar dates. Two rules of paying bills that RRULE alone does not follow are added: a day of
 * the month past the 28th falls on the month's last day when the month is shorter (the 31st is
 * Feb 28 or 29, Apr 30), and a schedule that starts on Feb 29 falls on Feb 28 in other years.
 * Dates are `YYYY-MM-DD`; the library sees them as UTC midnights, so no time zone moves a day.
 */
import { addDays, parseIsoDate, toDayNumber } from '../dates/calendar';
import { must } from '../must';
import { RRule, Weekday, type RRuleOptions } from './rrule';

export const FREQUENCIES = ['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type WeekdayCode = (typeof WEEKDAY_CODES)[number];

export interface NthWeekday {
  day: WeekdayCode;
  /** 1..53 or -53..-1 (the last is -1); absent: every such weekday. */
  n?: number;
}

/** An RRULE as parsed here: every part is a list (empty when the rule leaves it out). */
export interface Recurrence {
  freq: Frequency;
  interval: number;
  byDay: NthWeekday[];
  byMonthDay: number[];
  byMonth: number[];
  bySetPos: number[];
  byYearDay: number[];
  byWeekNo: number[];
  wkst: WeekdayCode | null;
}

export type RecurrenceResult = { ok: true; recurrence: Recurrence; text: string } | { ok: false; message: string };

/** How a schedule ends: never, after n occurrences, or on a date (inclusive). */
export type ScheduleEnd = 'never' | { after: number } | { until: string };
export const WEEKEND_RULES = ['none', 'before', 'after'] as const;
export type WeekendRule = (typeof WEEKEND_RULES)[number];

/** The most occurrences one expansion walks (a daily schedule over 50 years is about 18,000). */
export const MAX_EXPANDED = 20_000;

const LIST_PARTS = {
  BYMONTHDAY: { min: 1, max: 31, negative: true },
  BYMONTH: { min: 1, max: 12, negative: false },
  BYSETPOS: { min: 1, max: 366, negative: true },
  BYYEARDAY: { min: 1, max: 366, negative: true },
  BYWEEKNO: { min: 1, max: 53, negative: true },
} as const;
type ListPart = keyof typeof LIST_PARTS;
const PART_ORDER = ['FREQ', 'INTERVAL', 'BYMONTH', 'BYMONTHDAY', 'BYDAY', 'BYSETPOS', 'BYYEARDAY', 'BYWEEKNO', 'WKST'];
const SET_ELSEWHERE: Record<string, string> = {
  DTSTART: 'DTSTART is the schedule’s start date',
  COUNT: 'COUNT is set by the schedule’s end (after n occurrences)',
  UNTIL: 'UNTIL is set by the schedule’s end (until a date)',
};

function numberList(part: ListPart, value: string): number[] | string {
  const { min, max, negative } = LIST_PARTS[part];
  const numbers: number[] = [];
  for (const item of value.split(',')) {
    if (!/^[+-]?\d{1,3}$/.test(item)) return `${part}: '${item}' is not a whole number`;
    const n = Number(item);
    if (Math.abs(n) < min || Math.abs(n) > max || (n < 0 && !negative))
      return `${part}: ${item} must be from ${negative ? `-${max} to -${min} or ` : ''}${min} to ${max}`;
    if (!numbers.includes(n)) numbers.push(n);
  }
  return numbers;
}

function weekdayList(value: string): NthWeekday[] | string {
  const days: NthWeekday[] = [];
  for (const item of value.split(',')) {
    const match = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
    if (!match) return `BYDAY: '${item}' is not a weekday like MO, +2FR or -1SU`;
    const n = match[1] === undefined ? undefined : Number(match[1]);
    if (n !== undefined && (n === 0 || Math.abs(n) > 53)) return `BYDAY: ${item} must count from 1 to 53 or -53 to -1`;
    days.push({ day: match[2] as WeekdayCode, ...(n === undefined ? {} : { n }) });
  }
  return days;
}

/** Reads one `KEY=VALUE` part into the recurrence; answers a problem in words, or null. */
function readPart(rec: Recurrence, key: string, value: string): string | null {
  if (key === 'FREQ') {
    if (!(FREQUENCIES as readonly string[]).includes(value))
      return `FREQ must be one of ${FREQUENCIES.join(', ')} (not '${value}')`;
    rec.freq = value as Frequency;
  } else if (key === 'INTERVAL') {
    if (!/^\d{1,3}$/.test(value) || Number(value) < 1) return 'INTERVAL must be a whole number from 1 to 999';
    rec.interval = Number(value);
  } else if (key === 'BYDAY') {
    const days = weekdayList(value);
    if (typeof days === 'string') return days;
    rec.byDay = days;
  } else if (key === 'WKST') {
    if (!(WEEKDAY_CODES as readonly string[]).includes(value)) return `WKST must be a weekday (not '${value}')`;
    rec.wkst = value as WeekdayCode;
  } else if (key in LIST_PARTS) {
    const numbers = numberList(key as ListPart, value);
    if (typeof numbers === 'string') return numbers;
    const field = { BYMONTHDAY: 'byMonthDay', BYMONTH: 'byMonth', BYSETPOS: 'bySetPos', BYYEARDAY: 'byYearDay' };
    rec[(field as Record<string, keyof Recurrence>)[key] ?? 'byWeekNo'] = numbers as never;
  } else {
    return SET_ELSEWHERE[key] ?? `${key} is not supported (use FREQ, INTERVAL, BYDAY, BYMONTHDAY, BYMONTH, BYSETPOS)`;
  }
  return null;
}

/** Reads an RRULE (`FREQ=MONTHLY;BYMONTHDAY=31`, an `RRULE:` prefix allowed); answers it and its canonical text. */
export function parseRecurrence(input: string): RecurrenceResult {
  const body = input
    .trim()
    .replace(/^RRULE:/i, '')
    .toUpperCase();
  if (!body) return { ok: false, message: 'must be a rule such as FREQ=MONTHLY;BYMONTHDAY=1' };
  const rec: Recurrence = {
    freq: 'DAILY',
    interval: 1,
    byDay: [],
    byMonthDay: [],
    byMonth: [],
    bySetPos: [],
    byYearDay: [],
    byWeekNo: [],
    wkst: null,
  };
  const seen = new Set<string>();
  for (const part of body.split(';').filter(Boolean)) {
    const [key = '', value, ...rest] = part.split('=');
    if (value === undefined || rest.length > 0 || !key || !value)
      return { ok: false, message: `'${part}' is not KEY=VALUE` };
    if (seen.has(key)) return { ok: false, message: `${key} appears twice` };
    seen.add(key);
    const problem = readPart(rec, key, value);
    if (problem) return { ok: false, message: problem };
  }
  if (!seen.has('FREQ')) return { ok: false, message: 'FREQ is required (DAILY, WEEKLY, MONTHLY or YEARLY)' };
  if (rec.byWeekNo.length > 0 && rec.freq !== 'YEARLY') return { ok: false, message: 'BYWEEKNO needs FREQ=YEARLY' };
  if (rec.byYearDay.length > 0 && rec.freq === 'MONTHLY') return { ok: false, message: 'BYYEARDAY cannot be monthly' };
  if (rec.byDay.some((d) => d.n !== undefined) && rec.freq !== 'MONTHLY' && rec.freq !== 'YEARLY')
    return { ok: false, message: 'BYDAY with a number (+2FR) needs FREQ=MONTHLY or YEARLY' };
  return { ok: true, recurrence: rec, text: recurrenceText(rec) };
}

/** The canonical RRULE text of a recurrence (parts in one order, INTERVAL=1 left out). */
export function recurrenceText(rec: Recurrence): string {
  const parts: Record<string, string> = { FREQ: rec.freq };
  if (rec.interval !== 1) parts.INTERVAL = String(rec.interval);
  if (rec.byMonth.length) parts.BYMONTH = rec.byMonth.join(',');
  if (rec.byMonthDay.length) parts.BYMONTHDAY = rec.byMonthDay.join(',');
  if (rec.byDay.length) parts.BYDAY = rec.byDay.map((d) => `${d.n === undefined ? '' : d.n}${d.day}`).join(',');
  if (rec.bySetPos.length) parts.BYSETPOS = rec.bySetPos.join(',');
  if (rec.byYearDay.length) parts.BYYEARDAY = rec.byYearDay.join(',');
  if (rec.byWeekNo.length) parts.BYWEEKNO = rec.byWeekNo.join(',');
  if (rec.wkst) parts.WKST = rec.wkst;
  return PART_ORDER.filter((key) => parts[key] !== undefined)
    .map((key) => `${key}=${parts[key]}`)
    .join(';');
}

const FREQ_OF: Record<Frequency, RRuleOptions['freq']> = {
  DAILY: RRule.DAILY,
  WEEKLY: RRule.WEEKLY,
  MONTHLY: RRule.MONTHLY,
  YEARLY: RRule.YEARLY,
};

function weekdayOf(day: NthWeekday): InstanceType<typeof Weekday> {
  return new Weekday(WEEKDAY_CODES.indexOf(day.day), day.n);
}

function datePartsOf(date: string): { year: number; month: number; day: number } {
  return must(parseIsoDate(date) ?? undefined, 'dates are checked before they are expanded');
}

function utc(date: string): Date {
  const parts = datePartsOf(date);
  return new Date(Date.UTC(parts.year, parts.month - 1, parts.day));
}

function isoOf(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/**
 * The library's options for a recurrence starting on `startDate`: one set, or several when a
 * day of the month past the 28th is clamped to shorter months (each such day is its own rule,
 * "the last of the 28th..day that exists", per month for a yearly rule). Their dates are merged.
 */
export function libraryRules(rec: Recurrence, startDate: string): Partial<RRuleOptions>[] {
  const start = datePartsOf(startDate);
  const byMonthDay = [...rec.byMonthDay];
  const byMonth = [...rec.byMonth];
  const free = rec.byDay.length === 0 && rec.byYearDay.length === 0 && rec.byWeekNo.length === 0;
  // What RRULE takes from DTSTART when the rule leaves it out, made explicit so it can be clamped.
  if (free && byMonthDay.length === 0 && (rec.freq === 'MONTHLY' || rec.freq === 'YEARLY')) {
    byMonthDay.push(start.day);
    if (rec.freq === 'YEARLY' && byMonth.length === 0) byMonth.push(start.month);
  }
  const base: Partial<RRuleOptions> = {
    freq: FREQ_OF[rec.freq],
    interval: rec.interval,
    dtstart: utc(startDate),
    ...(rec.byDay.length ? { byweekday: rec.byDay.map(weekdayOf) } : {}),
    ...(rec.bySetPos.length ? { bysetpos: rec.bySetPos } : {}),
    ...(rec.byYearDay.length ? { byyearday: rec.byYearDay } : {}),
    ...(rec.byWeekNo.length ? { byweekno: rec.byWeekNo } : {}),
    ...(rec.wkst ? { wkst: WEEKDAY_CODES.indexOf(rec.wkst) } : {}),
  };
  const withMonths = (months: number[]) => (months.length ? { bymonth: months } : {});
  const late = byMonthDay.filter((day) => day > 28);
  const clamps = free && rec.bySetPos.length === 0 && (rec.freq === 'MONTHLY' || rec.freq === 'YEARLY');
  if (!clamps || late.length === 0)
    return [{ ...base, ...withMonths(byMonth), ...(byMonthDay.length ? { bymonthday: byMonthDay } : {}) }];
  const rules: Partial<RRuleOptions>[] = [];
  const plain = byMonthDay.filter((day) => day <= 28);
  if (plain.length) rules.push({ ...base, ...withMonths(byMonth), bymonthday: plain });
  const months = rec.freq === 'YEARLY' ? (byMonth.length ? byMonth : [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]) : [0];
  for (const day of late) {
    const candidates = Array.from({ length: day - 27 }, (_, i) => 28 + i);
    for (const month of months)
      rules.push({
        ...base,
        ...withMonths(month === 0 ? byMonth : [month]),
        bymonthday: candidates,
        bysetpos: [-1],
      });
  }
  return rules;
}

/**
 * The schedule's own dates (before any weekend move) from `startDate` through `through`, in
 * order, without repeats, cut by the end rule. At most MAX_EXPANDED dates.
 */
export function nominalDates(rec: Recurrence, startDate: string, end: ScheduleEnd, through: string): string[] {
  const until = typeof end === 'object' && 'until' in end && end.until < through ? end.until : through;
  if (until < startDate) return [];
  const dates = new Set<string>();
  for (const options of libraryRules(rec, startDate)) {
    const rule = new RRule(options);
    rule.between(utc(startDate), utc(until), true, (date, i) => {
      if (i >= MAX_EXPANDED) return false;
      dates.add(isoOf(date));
      return true;
    });
  }
  const sorted = [...dates].sort();
  const limit = typeof end === 'object' && 'after' in end ? end.after : MAX_EXPANDED;
  return sorted.slice(0, Math.min(limit, MAX_EXPANDED));
}

/** 0 = Sunday .. 6 = Saturday (1970-01-01 was a Thursday). */
export function weekdayNumber(date: string): number {
  return (((toDayNumber(date) + 4) % 7) + 7) % 7;
}

/** A date on a Saturday or Sunday moved to the Friday before or the Monday after (or left as it is). */
export function moveOffWeekend(date: string, rule: WeekendRule): string {
  const day = weekdayNumber(date);
  if (rule === 'none' || (day !== 0 && day !== 6)) return date;
  if (rule === 'before') return addDays(date, day === 6 ? -1 : -2);
  return addDays(date, day === 6 ? 2 : 1);
}

export interface ScheduleTiming {
  recurrence: string;
  startDate: string;
  end: ScheduleEnd;
  weekendRule: WeekendRule;
}

/** One occurrence's dates: the rule's own (the occurrence's key) and the day it falls on after the weekend rule. */
export interface OccurrenceDates {
  scheduledDate: string;
  date: string;
}

/**
 * The occurrences of a schedule whose day (after the weekend rule) is from `from` through `to`,
 * in order. A weekend move is at most two days, so the rule's dates are read two days past `to`.
 */
export function expandSchedule(timing: ScheduleTiming, from: string, to: string): OccurrenceDates[] {
  const parsed = parseRecurrence(timing.recurrence);
  if (!parsed.ok) return [];
  const out: OccurrenceDates[] = [];
  for (const scheduledDate of nominalDates(parsed.recurrence, timing.startDate, timing.end, addDays(to, 2))) {
    const date = moveOffWeekend(scheduledDate, timing.weekendRule);
    if (date >= from && date <= to) out.push({ scheduledDate, date });
  }
  return out;
}
