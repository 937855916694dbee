/**
 * The schedule form's draft (text as typed) and its reading into the shared schedule input. The
 * recurrence is picked as a pattern (every N days, weeks or months, a day of the month or its last
 * day, the nth weekday, yearly) or typed as RRULE text; the rule text is shown either way.
 */
import { formatAmountInput } from '../../../shared/money';
import { fieldDigits, readAmountField } from '../../lib/amountField';
import {
  DEFAULT_WINDOW_DAYS,
  patternOf,
  patternRule,
  type CreateScheduleInput,
  type PatternKind,
  type RecurrencePattern,
  type ScheduleDto,
  type ScheduleEnd,
  type ScheduleMode,
  type WeekdayCode,
  type WeekendRule,
} from '../../../shared/schedules';

export type EndKind = 'never' | 'after' | 'until';

export interface ScheduleDraft {
  name: string;
  account: string;
  description: string;
  amount: string;
  tolerance: string;
  category: string;
  kind: PatternKind;
  every: string;
  weekdays: WeekdayCode[];
  /** A day of the month, 1..31, or -1 for the last day. */
  monthDay: string;
  nth: string;
  weekday: WeekdayCode;
  month: string;
  rule: string;
  weekendRule: WeekendRule;
  mode: ScheduleMode;
  window: string;
  startDate: string;
  endKind: EndKind;
  endAfter: string;
  endUntil: string;
}

export interface DraftDefaults {
  today: string;
  account: string;
  locale: string;
  /** The schedule's account's currency: its decimals are the amount's. Two decimals without one. */
  currency?: string | null;
}

function draftPattern(rule: string): Partial<ScheduleDraft> {
  const pattern = patternOf(rule);
  switch (pattern.kind) {
    case 'days':
      return { kind: 'days', every: String(pattern.every) };
    case 'weeks':
      return { kind: 'weeks', every: String(pattern.every), weekdays: pattern.weekdays };
    case 'monthDay':
      return { kind: 'monthDay', every: String(pattern.every), monthDay: String(pattern.day) };
    case 'nthWeekday':
      return { kind: 'nthWeekday', every: String(pattern.every), nth: String(pattern.nth), weekday: pattern.weekday };
    case 'yearly':
      return { kind: 'yearly', month: String(pattern.month), monthDay: String(pattern.day) };
    case 'custom':
      return { kind: 'custom', rule: pattern.rule };
  }
}

function endDraft(end: ScheduleEnd): Pick<ScheduleDraft, 'endKind' | 'endAfter' | 'endUntil'> {
  if (end === 'never') return { endKind: 'never', endAfter: '12', endUntil: '' };
  if ('after' in end) return { endKind: 'after', endAfter: String(end.after), endUntil: '' };
  return { endKind: 'until', endAfter: '12', endUntil: end.until };
}

/** The form's first state: the schedule's values, or a monthly schedule on today's day starting today. */
export function toDraft(schedule: ScheduleDto | null, defaults: DraftDefaults): ScheduleDraft {
  const day = String(Number(defaults.today.slice(8, 10)));
  const base: ScheduleDraft = {
    name: '',
    account: defaults.account,
    description: '',
    amount: '',
    tolerance: '0',
    category: '',
    kind: 'monthDay',
    every: '1',
    weekdays: [],
    monthDay: day,
    nth: '1',
    weekday: 'MO',
    month: String(Number(defaults.today.slice(5, 7))),
    rule: '',
    weekendRule: 'none',
    mode: 'post',
    window: String(DEFAULT_WINDOW_DAYS),
    startDate: defaults.today,
    endKind: 'never',
    endAfter: '12',
    endUntil: '',
  };
  if (!schedule) return base;
  return {
    ...base,
    ...draftPattern(schedule.recurrence),
    name: schedule.name,
    account: schedule.account,
    description: schedule.description,
    amount: formatAmountInput(schedule.amount, defaults.locale, fieldDigits(defaults.currency)),
    tolerance: String(schedule.amountTolerance),
    category: schedule.category ?? '',
    weekendRule: schedule.weekendRule,
    mode: schedule.mode,
    window: String(schedule.window),
    startDate: schedule.startDate,
    ...endDraft(schedule.end),
  };
}

const whole = (text: string, fallback: number) => (/^\s*-?\d+\s*$/.test(text) ? Number(text) : fallback);

/** The pattern the draft's fields describe. */
export function draftToPattern(draft: ScheduleDraft): RecurrencePattern {
  const every = Math.max(1, whole(draft.every, 1));
  switch (draft.kind) {
    case 'days':
      return { kind: 'days', every };
    case 'weeks':
      return { kind: 'weeks', every, weekdays: draft.weekdays };
    case 'monthDay':
      return { kind: 'monthDay', every, day: whole(draft.monthDay, 1) };
    case 'nthWeekday':
      return { kind: 'nthWeekday', every, nth: whole(draft.nth, 1), weekday: draft.weekday };
    case 'yearly':
      return { kind: 'yearly', month: whole(draft.month, 1), day: whole(draft.monthDay, 1) };
    case 'custom':
      return { kind: 'custom', rule: draft.rule };
  }
}

/** The RRULE text the draft makes. */
export function draftRule(draft: ScheduleDraft): string {
  return patternRule(draftToPattern(draft));
}

function endOf(draft: ScheduleDraft): { end: ScheduleEnd } | { message: string } {
  if (draft.endKind === 'never') return { end: 'never' };
  if (draft.endKind === 'after') {
    const n = whole(draft.endAfter, Number.NaN);
    return Number.isInteger(n) && n > 0 ? { end: { after: n } } : { message: 'Enter how many times, 1 or more' };
  }
  return draft.endUntil ? { end: { until: draft.endUntil } } : { message: 'Choose the last date' };
}

export type DraftReading =
  | { ok: true; input: CreateScheduleInput }
  | { ok: false; field: 'name' | 'description' | 'amount' | 'tolerance' | 'end'; message: string };

/** The input the form sends, or the first field to fix. The server checks the rest and names it. */
export function readDraft(draft: ScheduleDraft, locale: string, currency: string | null = null): DraftReading {
  if (!draft.name.trim()) return { ok: false, field: 'name', message: 'Name is required' };
  if (!draft.description.trim()) return { ok: false, field: 'description', message: 'Description is required' };
  const amount = readAmountField(draft.amount, locale, { currency });
  if (!amount.ok || !amount.cents) {
    const example = (-1200).toFixed(fieldDigits(currency));
    return {
      ok: false,
      field: 'amount',
      message: `Enter the amount, negative for money out (e.g. ${example})`,
    };
  }
  const tolerance = Number(draft.tolerance.replace(',', '.'));
  if (!draft.tolerance.trim() || !Number.isFinite(tolerance))
    return { ok: false, field: 'tolerance', message: 'Enter a percent from 0 to 50' };
  const ending = endOf(draft);
  if ('message' in ending) return { ok: false, field: 'end', message: ending.message };
  return {
    ok: true,
    input: {
      name: draft.name.trim(),
      account: draft.account,
      description: draft.description.trim(),
      amount: amount.cents,
      amountTolerance: tolerance,
      category: draft.category.trim() || null,
      recurrence: draftRule(draft),
      weekendRule: draft.weekendRule,
      mode: draft.mode,
      window: whole(draft.window, DEFAULT_WINDOW_DAYS),
      startDate: draft.startDate,
      end: ending.end,
    },
  };
}
