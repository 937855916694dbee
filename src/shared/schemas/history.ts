import { z } from 'zod';
import { idSchema } from './common';

/** What a history entry records. */
export const HISTORY_KINDS = [
  'create',
  'edit',
  'bulk-edit',
  'split',
  'delete',
  'batch-delete',
  'import',
  'rule-apply',
  'trash-restore',
  'category',
  'budget',
  'envelope',
  'plan',
  'restore',
] as const;
export type HistoryKind = (typeof HISTORY_KINDS)[number];

/** How many of a user's latest entries can be undone or redone; older ones are read-only. */
export const UNDOABLE_ENTRIES = 100;

export const historyPageSchema = z.object({
  limit: z.coerce
    .number({ error: 'limit must be a whole number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(200, 'limit must be at most 200')
    .default(50),
  offset: z.coerce
    .number({ error: 'offset must be a whole number' })
    .int('offset must be a whole number')
    .min(0, 'offset must not be negative')
    .max(Number.MAX_SAFE_INTEGER, 'offset is too large')
    .default(0),
});
export type HistoryPage = z.infer<typeof historyPageSchema>;

export const historyRowAnswer = z.object({
  table: z.string(),
  rowId: z.string(),
  before: z.record(z.string(), z.unknown()).nullable(),
  after: z.record(z.string(), z.unknown()).nullable(),
});

export const historyEntryAnswer = z.object({
  id: z.number().int(),
  createdAt: z.string(),
  kind: z.enum(HISTORY_KINDS),
  summary: z.string(),
  state: z.enum(['done', 'undone', 'purged']),
  rowCount: z.number().int(),
  /** False for entries older than the last UNDOABLE_ENTRIES, restores and the entries before one, purged ones. */
  undoable: z.boolean(),
  /** Why it cannot be undone or redone (null while it can). */
  readOnlyReason: z.string().nullable(),
  rows: z.array(historyRowAnswer),
  /** Rows the entry touched beyond those listed (an import's rows are not listed). */
  moreRows: z.number().int(),
});
export type HistoryEntryDto = z.infer<typeof historyEntryAnswer>;

export const historyListAnswer = z.object({ entries: z.array(historyEntryAnswer), hasMore: z.boolean() });
export type HistoryList = z.infer<typeof historyListAnswer>;

export const trashItemAnswer = z.object({
  transactionId: z.number().int(),
  postDate: z.string(),
  description: z.string(),
  amount: z.number().int(),
  /** The account's currency (ISO 4217): the amount is in its minor unit. */
  currency: z.string().nullable(),
  account: z.string().nullable(),
  deletedAt: z.string(),
  historyEntryId: z.number().int(),
  /** Split parts that come back with it. */
  parts: z.number().int(),
});
export type TrashItemDto = z.infer<typeof trashItemAnswer>;

export const trashRestoreSchema = z.object({
  transactionIds: z.array(idSchema).min(1, 'transactionIds must name at least one transaction').max(10_000),
});
export type TrashRestoreInput = z.infer<typeof trashRestoreSchema>;

export const undoAnswer = z.object({ entry: historyEntryAnswer, message: z.string() });
export type UndoResult = z.infer<typeof undoAnswer>;
