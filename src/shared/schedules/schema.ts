/**
 * Scheduled transactions: one zod schema per input (tRPC, REST and the client's form alike) and
 * the answers' types. A schedule posts its transactions itself (`post`) or waits for the bank's
 * row and matches it (`expect`); each date it falls on is an occurrence.
 */
import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { centsSchema, isoDateSchema, requiredText, text } from '../schemas/common';
import { parseRecurrence, WEEKEND_RULES, type ScheduleEnd, type WeekendRule } from './recurrence';

export const SCHEDULE_MODES = ['post', 'expect'] as const;
export type ScheduleMode = (typeof SCHEDULE_MODES)[number];
export const OCCURRENCE_STATUSES = ['upcoming', 'due', 'posted', 'matched', 'missed', 'skipped'] as const;
export type OccurrenceStatus = (typeof OCCURRENCE_STATUSES)[number];

export const MAX_TOLERANCE_PERCENT = 50;
export const MAX_WINDOW_DAYS = 10;
export const DEFAULT_WINDOW_DAYS = 3;
export const MAX_SCHEDULES_PER_USER = 1000;
export const MAX_END_AFTER = 10_000;
/**
 * The most occurrences a new or changed schedule may bring due at once (its past dates up to
 * today): a start date decades back would otherwise post or store tens of thousands of rows.
 */
export const MAX_PAST_OCCURRENCES = 1000;
/** The longest look ahead of the upcoming list and a range of occurrences, in days. */
export const MAX_AHEAD_DAYS = 400;

export const recurrenceSchema = text({ max: 500, min: 1, label: 'Recurrence' }).transform((value, ctx) => {
  const parsed = parseRecurrence(value);
  if (!parsed.ok) {
    ctx.addIssue({ code: 'custom', message: parsed.message });
    return z.NEVER;
  }
  return parsed.text;
});

export const scheduleEndSchema = z.union(
  [
    z.literal('never'),
    z.object({ after: z.number().int().min(1).max(MAX_END_AFTER) }).strict(),
    z.object({ until: isoDateSchema }).strict(),
  ],
  { error: `must be 'never', { after: n } (1 to ${MAX_END_AFTER}) or { until: 'YYYY-MM-DD' }` },
) satisfies z.ZodType<ScheduleEnd>;

/** An account by id, or by name (as transactions name theirs). */
export const accountRefSchema = z.union(
  [z.number().int().positive().max(Number.MAX_SAFE_INTEGER), requiredText('Account')],
  {
    error: 'must be an account id or name',
  },
);

const fields = {
  name: requiredText('Name'),
  account: accountRefSchema,
  description: requiredText('Description', DESCRIPTION_MAX_LENGTH),
  amount: centsSchema.refine((cents) => cents !== 0, 'must not be 0'),
  /** Percent the amount may differ by and still match (0 = exactly). */
  amountTolerance: z
    .number({ error: 'must be a number of percent' })
    .min(0, `must be from 0 to ${MAX_TOLERANCE_PERCENT}`)
    .max(MAX_TOLERANCE_PERCENT, `must be from 0 to ${MAX_TOLERANCE_PERCENT}`)
    .refine((percent) => Math.abs(percent * 100 - Math.round(percent * 100)) < 1e-6, 'must have at most two decimals'),
  category: text({ max: 255 })
    .nullable()
    .transform((value) => value || null),
  recurrence: recurrenceSchema,
  weekendRule: z.enum(WEEKEND_RULES, { error: `must be one of ${WEEKEND_RULES.join(', ')}` }),
  mode: z.enum(SCHEDULE_MODES, { error: `must be one of ${SCHEDULE_MODES.join(', ')}` }),
  /** Days before and after an occurrence in which an `expect` schedule's row may come. */
  window: z
    .number({ error: 'must be a whole number of days' })
    .int('must be a whole number of days')
    .min(0, `must be from 0 to ${MAX_WINDOW_DAYS}`)
    .max(MAX_WINDOW_DAYS, `must be from 0 to ${MAX_WINDOW_DAYS}`),
  startDate: isoDateSchema,
  end: scheduleEndSchema,
};

const endsAfterStart = (s: { startDate?: string; end?: ScheduleEnd }) =>
  !s.startDate || !s.end || typeof s.end !== 'object' || !('until' in s.end) || s.end.until >= s.startDate;
const endsAfterStartMessage = { message: 'The end date must not be before the start date', path: ['end'] };

export const createScheduleSchema = z
  .object({
    ...fields,
    amountTolerance: fields.amountTolerance.default(0),
    category: fields.category.optional(),
    weekendRule: fields.weekendRule.default('none'),
    mode: fields.mode.default('post'),
    window: fields.window.default(DEFAULT_WINDOW_DAYS),
    end: fields.end.default('never'),
  })
  .strict()
  .refine(endsAfterStart, endsAfterStartMessage);
export type CreateScheduleInput = z.infer<typeof createScheduleSchema>;

export const updateScheduleSchema = z.object(fields).partial().strict().refine(endsAfterStart, endsAfterStartMessage);
export type UpdateScheduleInput = z.infer<typeof updateScheduleSchema>;

/** Which occurrence to skip or post: its date (the schedule's own day); the next open one when left out. */
export const occurrencePickSchema = z.object({ date: isoDateSchema.optional() }).strict();
export type OccurrencePick = z.infer<typeof occurrencePickSchema>;

const aheadDays = z.coerce
  .number({ error: 'days must be a whole number' })
  .int('days must be a whole number')
  .min(1, `days must be from 1 to ${MAX_AHEAD_DAYS}`)
  .max(MAX_AHEAD_DAYS, `days must be from 1 to ${MAX_AHEAD_DAYS}`);

export const upcomingInputSchema = z
  .object({ days: aheadDays.default(30), accountId: z.coerce.number().int().positive().optional() })
  .strict();
export type UpcomingInput = z.infer<typeof upcomingInputSchema>;

export const occurrenceRangeSchema = z
  .object({ startDate: isoDateSchema, endDate: isoDateSchema })
  .strict()
  .refine((r) => r.startDate <= r.endDate, { message: 'Start date must not be after end date', path: ['endDate'] });
export type OccurrenceRange = z.infer<typeof occurrenceRangeSchema>;

export interface ScheduleDto {
  id: number;
  name: string;
  account: string;
  accountId: number;
  description: string;
  amount: number;
  /** The account's currency (ISO 4217): the amount is in its minor unit. */
  currency: string;
  amountTolerance: number;
  category: string | null;
  recurrence: string;
  /** The recurrence in words. */
  recurrenceText: string;
  weekendRule: WeekendRule;
  mode: ScheduleMode;
  window: number;
  startDate: string;
  end: ScheduleEnd;
  /** The next occurrence still open (upcoming or due), or null when the schedule has ended. */
  nextDate: string | null;
  /** Occurrences that passed their window without a match. */
  missed: number;
}

export interface OccurrenceDto {
  /** null for an occurrence not stored yet (still ahead). */
  id: number | null;
  scheduleId: number;
  scheduleName: string;
  description: string;
  account: string;
  accountId: number;
  /** The schedule's own day for it (its key). */
  scheduledDate: string;
  /** The day it falls on (after the weekend rule). */
  date: string;
  amount: number;
  /** The account's currency (ISO 4217): the amount is in its minor unit. */
  currency: string;
  status: OccurrenceStatus;
  transactionId: number | null;
}

export interface UpcomingOccurrenceDto extends OccurrenceDto {
  /** Its account's balance after it and everything before it (stored rows and occurrences). */
  projectedBalance: number;
}

export interface UpcomingDto {
  startDate: string;
  endDate: string;
  occurrences: UpcomingOccurrenceDto[];
}

export interface ScheduleSuggestionDto {
  name: string;
  account: string;
  accountId: number;
  description: string;
  /** The typical amount (the median). */
  amount: number;
  /** The account's currency (ISO 4217): the amounts are in its minor unit. */
  currency: string;
  amountRange: { min: number; max: number };
  /** Percent the amounts spread around the median (what the schedule's tolerance should allow). */
  amountTolerance: number;
  interval: string;
  recurrence: string;
  /** How many past rows follow it. */
  occurrences: number;
  lastDate: string;
  nextDate: string;
}
