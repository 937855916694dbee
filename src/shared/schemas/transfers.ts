import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { accountRefSchema } from '../schedules/schema';
import { centsSchema, idSchema, isoDateSchema, text } from './common';
import { transactionAnswerSchema } from './transactions';

/** How a link came to be: made with both sides, two rows linked by hand, linked on import, or an offer accepted. */
export const TRANSFER_ORIGINS = ['created', 'linked', 'import', 'accepted'] as const;
export type TransferOrigin = (typeof TRANSFER_ORIGINS)[number];

/** An offered pair is open until accepted (then gone) or dismissed (kept, so it is never offered again). */
export const CANDIDATE_STATUSES = ['open', 'dismissed'] as const;
export type CandidateStatus = (typeof CANDIDATE_STATUSES)[number];

/** Money moved from one account to another: both sides at once, each dated on its own. */
export const createTransferSchema = z
  .object({
    fromAccount: accountRefSchema,
    toAccount: accountRefSchema,
    /** Integer cents moved, more than 0. */
    amount: centsSchema.refine((cents) => cents > 0, 'must be more than 0 (the money moved)'),
    /**
     * Minor units arriving in `toAccount` when its currency differs from `fromAccount`'s (default: `amount`
     * at the day's rate); the rate the two imply must lie within 5% of the day's rate.
     */
    toAmount: centsSchema.refine((cents) => cents > 0, 'must be more than 0 (the money arriving)').optional(),
    /** The day it leaves `fromAccount`. */
    date: isoDateSchema,
    /** The day it reaches `toAccount` (default: `date`). */
    toDate: isoDateSchema.optional(),
    description: text({ max: DESCRIPTION_MAX_LENGTH }).optional(),
  })
  .strict();
export type CreateTransferInput = z.infer<typeof createTransferSchema>;

export const linkTransferSchema = z
  .object({
    transactionIds: z
      .array(idSchema, { error: 'must be two transaction ids' })
      .length(2, 'must be exactly two transaction ids'),
  })
  .strict();
export type LinkTransferInput = z.infer<typeof linkTransferSchema>;

/** The longest window import looks across for a transfer's other side. */
export const MAX_TRANSFER_WINDOW_DAYS = 14;

/** The longest a user may keep history or trash (days), as the server's own setting. */
export const MAX_RETENTION_DAYS = 3650;

/** A user's own retention period: whole days, or null for the server's. */
const retentionDays = (name: string) =>
  z
    .number({ error: `${name} must be a whole number of days, or null for the server's` })
    .int(`${name} must be a whole number of days`)
    .min(1, `${name} must be at least 1`)
    .max(MAX_RETENTION_DAYS, `${name} must be at most ${MAX_RETENTION_DAYS}`)
    .nullable()
    .optional();

/** A user's settings as the settings API answers them. */
export const settingsAnswerSchema = z.object({
  transferWindowDays: z
    .number()
    .int()
    .describe('Days apart the two sides of a transfer may be dated for import to pair them (default 5)'),
  historyRetentionDays: z
    .number()
    .int()
    .nullable()
    .describe("The user's own days the history keeps a change; null: the server's (serverHistoryRetentionDays)"),
  trashRetentionDays: z
    .number()
    .int()
    .nullable()
    .describe(
      "The user's own days a deleted transaction waits in the trash; null: the server's (serverTrashRetentionDays)",
    ),
  serverHistoryRetentionDays: z.number().int().describe("The server's days (HISTORY_RETENTION_DAYS)"),
  serverTrashRetentionDays: z.number().int().describe("The server's days (TRASH_RETENTION_DAYS)"),
});
export type SettingsDto = z.infer<typeof settingsAnswerSchema>;

/** A change of settings: any of them. */
export const settingsUpdateSchema = z
  .object({
    transferWindowDays: z
      .number({ error: 'transferWindowDays must be a whole number of days' })
      .int('transferWindowDays must be a whole number of days')
      .min(0, 'transferWindowDays must be at least 0')
      .max(MAX_TRANSFER_WINDOW_DAYS, `transferWindowDays must be at most ${MAX_TRANSFER_WINDOW_DAYS}`)
      .optional(),
    historyRetentionDays: retentionDays('historyRetentionDays'),
    trashRetentionDays: retentionDays('trashRetentionDays'),
  })
  .strict();
export type SettingsUpdate = z.infer<typeof settingsUpdateSchema>;

/** A transfer: its id and both sides, the money out (`from`) first. */
export const transferAnswerSchema = z.object({
  transferId: z.number().int(),
  from: transactionAnswerSchema,
  to: transactionAnswerSchema,
  rate: z
    .string()
    .nullable()
    .optional()
    .describe("Units of to's currency for one of from's that the two amounts imply; null for one currency"),
});
export type TransferDto = z.infer<typeof transferAnswerSchema>;

/** A pair import found and offers: both sides (money out first), how sure it is and why. */
export const transferCandidateAnswerSchema = z.object({
  id: z.number().int(),
  score: z.number().int().describe('0-100: how sure the match is'),
  reason: z.string(),
  from: transactionAnswerSchema,
  to: transactionAnswerSchema,
});
export type TransferCandidateDto = z.infer<typeof transferCandidateAnswerSchema>;

const foundPair = {
  fromId: z.number().int().describe('The side with money out'),
  toId: z.number().int().describe('The side with money in'),
  score: z.number().int().describe('0-100: how sure the match is'),
  reason: z.string(),
};

/** What an import found: the pairs it linked and those it offers (up to 100 of each listed; the counts say all). */
export const importTransfersSchema = z.object({
  linked: z.array(z.object({ transferId: z.number().int(), ...foundPair })),
  offered: z.array(z.object({ candidateId: z.number().int(), ...foundPair })),
  linkedCount: z.number().int(),
  offeredCount: z.number().int(),
});
export type ImportTransfers = z.infer<typeof importTransfersSchema>;

export const deleteTransactionQuerySchema = z.object({
  withCounterpart: z
    .enum(['true', 'false'], { error: 'withCounterpart must be true or false' })
    .optional()
    .transform((value) => value === 'true'),
});
