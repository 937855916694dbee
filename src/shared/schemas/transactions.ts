import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH, MAX_FILTER_CATEGORIES, MAX_LIST_ROWS, NAME_MAX_LENGTH } from '../limits';
import { CATEGORY_SOURCES, categorySourceSchema } from './suggest';
import { centsSchema, currencySchema, idSchema, isoDateSchema, requiredText, text } from './common';

export const TRANSACTION_TYPES = ['credit', 'debit', 'charge', 'transfer'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const transactionTypeSchema = z.enum(TRANSACTION_TYPES, {
  error: `must be one of ${TRANSACTION_TYPES.join(', ')}`,
});

/**
 * A transaction as every answer shows it. The server's read model writes these fields from one list
 * (src/server/db/transaction-reads/fields.ts), which the compiler holds to this schema's keys.
 */
/** A row's cleared status: seen on the bank's side (cleared), and agreed with a statement (reconciled). */
export const CLEARED_STATES = ['uncleared', 'cleared', 'reconciled'] as const;
export type ClearedState = (typeof CLEARED_STATES)[number];
export const clearedSchema = z.enum(CLEARED_STATES, { error: `must be one of ${CLEARED_STATES.join(', ')}` });

export const transactionAnswerSchema = z.object({
  id: z.number().int(),
  postDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .describe('YYYY-MM-DD'),
  description: z.string(),
  amount: z.number().int().describe('Integer minor units of `currency`; negative is money out'),
  currency: z
    .string()
    .nullable()
    .describe(
      "The account's ISO 4217 code, which `amount` is in; null without an account (counted in the home currency)",
    ),
  originalAmount: z
    .number()
    .int()
    .nullable()
    .describe('What was paid in another currency (a card payment abroad), in minor units of originalCurrency'),
  originalCurrency: z.string().nullable().describe('ISO 4217 code of originalAmount'),
  account: z.string().nullable().describe('Account name; null when the transaction has no account'),
  bank_account_id: z.number().int().nullable(),
  category: z.string().nullable().describe('Category name; null when uncategorised'),
  categorySource: z
    .enum(CATEGORY_SOURCES)
    .nullable()
    .describe('Where the category came from: bank, rule, suggested or user; null when uncategorised'),
  type: z.enum(TRANSACTION_TYPES),
  isSplit: z.boolean(),
  parentTransactionId: z.number().int().nullable(),
  splitNote: z.string().nullable(),
  memo: z.string().nullable().describe("The person's own note; null when there is none"),
  cleared: z.enum(CLEARED_STATES).describe('uncleared, cleared or reconciled (agreed with a statement)'),
  batchId: z.string().nullable(),
  transferId: z.number().int().nullable().describe('The transfer this row is one side of; null when unlinked'),
  transferCounterpartId: z.number().int().nullable().describe("The transfer's other side; null when unlinked"),
  transferCounterpartAccount: z
    .string()
    .nullable()
    .describe("The account name of the transfer's other side; null when unlinked"),
  accountOnBudget: z.boolean().describe("Whether the row's account is on the plan (false without an account)"),
  transferCounterpartOnBudget: z
    .boolean()
    .describe("Whether the account of the transfer's other side is on the plan; false when unlinked"),
});
export type TransactionDto = z.infer<typeof transactionAnswerSchema>;

const categoryNameSchema = text({ max: 255 })
  .nullable()
  .transform((value) => (value ? value : null));

export const listLimitSchema = z.coerce
  .number({ error: 'limit must be a whole number' })
  .int('limit must be a whole number')
  .min(1, 'limit must be at least 1')
  .max(MAX_LIST_ROWS, `limit must be at most ${MAX_LIST_ROWS}`);
export const listOffsetSchema = z.coerce
  .number({ error: 'offset must be a whole number' })
  .int('offset must be a whole number')
  .min(0, 'offset must not be negative')
  .max(Number.MAX_SAFE_INTEGER, 'offset is too large');

/** Search filters (tRPC shape; REST translates start_date, comma lists and decimal amounts). */
export const transactionFiltersSchema = z
  .object({
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    /** Category names matched regardless of case; 'uncategorized' matches no category. */
    categories: z
      .array(text({ min: 1, max: NAME_MAX_LENGTH }))
      .max(MAX_FILTER_CATEGORIES)
      .optional(),
    /** An account name (case-insensitive). */
    account: text({ max: NAME_MAX_LENGTH }).optional(),
    /** Substring of the description, case-insensitive. */
    description: text({ max: NAME_MAX_LENGTH, trim: false }).optional(),
    /** Bounds on the amount's magnitude, in cents. */
    minAmount: centsSchema.optional(),
    maxAmount: centsSchema.optional(),
    /** A payee as the reports name it: rows whose description has the same payee key (src/shared/reports/payees.ts). */
    payee: text({ min: 1, max: DESCRIPTION_MAX_LENGTH }).optional(),
    /** 'in': money in (amount above 0); 'out': money out (below 0). */
    direction: z.enum(['in', 'out'], { error: 'must be in or out' }).optional(),
    /** Only the rows totals count (split parents and transfers between accounts left out), as a report's figure counts them. */
    counted: z.boolean().optional(),
    /** Only rows whose category came from this source ('suggested': rows to review). */
    categorySource: categorySourceSchema.optional(),
    /** Paging: at most MAX_LIST_ROWS rows per answer; without `limit` a larger answer is refused (422). */
    limit: listLimitSchema.optional(),
    offset: listOffsetSchema.optional(),
  })
  .refine((f) => f.startDate <= f.endDate, { message: 'Start date must not be after end date', path: ['endDate'] });
export type TransactionFilters = z.infer<typeof transactionFiltersSchema>;

/** Both original fields or neither: an amount means nothing without its currency. */
function bothOriginals(v: { originalAmount?: number | null; originalCurrency?: string | null }): boolean {
  return (
    (v.originalAmount === undefined) === (v.originalCurrency === undefined) &&
    (v.originalAmount === null) === (v.originalCurrency === null)
  );
}
const ORIGINALS_TOGETHER = {
  message: 'originalAmount and originalCurrency go together: give both, or both null to clear them',
  path: ['originalCurrency'],
};

export const createTransactionSchema = z
  .object({
    postDate: isoDateSchema,
    description: requiredText('Description', DESCRIPTION_MAX_LENGTH),
    amount: centsSchema,
    /** In minor units of originalCurrency. */
    originalAmount: centsSchema.nullable().optional(),
    originalCurrency: currencySchema.nullable().optional(),
    category: categoryNameSchema.optional(),
    account: text({ min: 1, max: 255 }).optional(),
    type: transactionTypeSchema.optional(),
    splitNote: text({ max: 1000, multiline: true, trim: false }).nullable().optional(),
  })
  .strict()
  .refine(bothOriginals, ORIGINALS_TOGETHER);
export type CreateTransactionInput = z.infer<typeof createTransactionSchema>;

export const updateTransactionSchema = z
  .object({
    postDate: isoDateSchema.optional(),
    description: requiredText('Description', DESCRIPTION_MAX_LENGTH).optional(),
    amount: centsSchema.optional(),
    originalAmount: centsSchema.nullable().optional(),
    originalCurrency: currencySchema.nullable().optional(),
    category: categoryNameSchema.optional(),
    type: transactionTypeSchema.optional(),
    /** An account name; null detaches the account. Refused (409) for an account in another currency. */
    account: text({ min: 1, max: 255 }).nullable().optional(),
    splitNote: text({ max: 1000, multiline: true, trim: false }).nullable().optional(),
    /** Free text; empty or null removes it. */
    memo: text({ max: 1000, trim: false })
      .nullable()
      .optional()
      .transform((value) => (value === '' ? null : value)),
    cleared: clearedSchema.optional(),
  })
  .strict()
  .refine(bothOriginals, ORIGINALS_TOGETHER);
export type UpdateTransactionInput = z.infer<typeof updateTransactionSchema>;
/** What a client sends to update a transaction (before the schema's defaults and transforms). */
export type UpdateTransactionPatch = z.input<typeof updateTransactionSchema>;

export const bulkUpdateSchema = z
  .object({
    transactionIds: z.array(idSchema).min(1, 'Select at least one transaction').max(100_000),
    updates: z
      .object({
        category: categoryNameSchema.optional(),
        type: transactionTypeSchema.optional(),
        account: text({ min: 1, max: 255 }).optional(),
      })
      .strict()
      .refine((u) => u.category !== undefined || u.type !== undefined || u.account !== undefined, {
        message: 'Please select at least one field to update',
      }),
  })
  .strict();
export type BulkUpdateInput = z.infer<typeof bulkUpdateSchema>;

export const splitEntrySchema = z.object({
  amount: centsSchema,
  category: text({ label: 'Category', max: 255 }),
  description: text({ max: DESCRIPTION_MAX_LENGTH, trim: false }).optional().nullable(),
  splitNote: text({ max: 1000, multiline: true, trim: false }).optional().nullable(),
});
export type SplitEntryInput = z.infer<typeof splitEntrySchema>;

export const splitInputSchema = z.object({ splits: z.array(splitEntrySchema).max(500) }).strict();
export type SplitInput = z.infer<typeof splitInputSchema>;

export interface SplitDetails {
  parentTransaction: TransactionDto;
  childTransactions: TransactionDto[];
}

export interface BatchDto {
  batchId: string;
  transactionCount: number;
  uploadDate: string;
  account: string | null;
  fileName: string | null;
}

export const batchIdSchema = z.object({ batchId: text({ min: 1, max: 64 }) });

/** GET /api/transactions/total, tRPC transactions.total: the net of a search in the home currency. */
export interface SearchTotalDto {
  /** Signed minor units of `currency`: counted rows (split parts, never their originals), transfers between accounts left out. */
  net: number;
  /** The home currency; rows in other currencies are converted at their own date's rate. */
  currency: string;
  /** True when some row was in another currency and was converted. */
  converted: boolean;
  /** Rows the net sums (those with no rate included). */
  count: number;
  /** Rows in another currency left out of `net`: no rate within 7 days of their date. */
  noRate: number;
  /** Counted rows left out as transfers between accounts. */
  transfersLeftOut: number;
}
