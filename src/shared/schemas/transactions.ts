import { z } from 'zod';
import { centsSchema, idSchema, isoDateSchema, requiredText } from './common';

export const TRANSACTION_TYPES = ['credit', 'debit', 'charge', 'transfer'] as const;
export type TransactionType = (typeof TRANSACTION_TYPES)[number];
export const transactionTypeSchema = z.enum(TRANSACTION_TYPES, {
  error: `must be one of ${TRANSACTION_TYPES.join(', ')}`,
});

/** A transaction as every answer shows it (SPEC section 3). */
export interface TransactionDto {
  id: number;
  postDate: string;
  description: string;
  /** Integer cents; negative is money out. */
  amount: number;
  /** Account name, or null when the transaction has no account. */
  account: string | null;
  bank_account_id: number | null;
  /** Category name, or null when uncategorised. */
  category: string | null;
  type: TransactionType;
  isSplit: boolean;
  parentTransactionId: number | null;
  splitNote: string | null;
  batchId: string | null;
}

const categoryNameSchema = z
  .string()
  .trim()
  .max(255, 'must be at most 255 characters')
  .nullable()
  .transform((value) => (value ? value : null));

/** Search filters (tRPC shape; REST translates start_date, comma lists and decimal amounts). */
export const transactionFiltersSchema = z
  .object({
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    /** Category names matched regardless of case; 'uncategorized' matches no category. */
    categories: z.array(z.string().trim().min(1).max(255)).max(500).optional(),
    /** An account name (case-insensitive). */
    account: z.string().trim().max(255).optional(),
    /** Substring of the description, case-insensitive. */
    description: z.string().max(255).optional(),
    /** Bounds on the amount's magnitude, in cents. */
    minAmount: centsSchema.optional(),
    maxAmount: centsSchema.optional(),
    /** A payee as the reports name it: rows whose description has the same payee key (src/shared/reports/payees.ts). */
    payee: z.string().trim().min(1).max(1000).optional(),
    /** 'in': money in (amount above 0); 'out': money out (below 0). */
    direction: z.enum(['in', 'out'], { error: 'must be in or out' }).optional(),
    /** Only the rows totals count (split parents left out), as a report's figure counts them. */
    counted: z.boolean().optional(),
  })
  .refine((f) => f.startDate <= f.endDate, { message: 'Start date must not be after end date', path: ['endDate'] });
export type TransactionFilters = z.infer<typeof transactionFiltersSchema>;

export const createTransactionSchema = z
  .object({
    postDate: isoDateSchema,
    description: requiredText('Description', 1000),
    amount: centsSchema,
    category: categoryNameSchema.optional(),
    account: z.string().trim().min(1).max(255).optional(),
    type: transactionTypeSchema.optional(),
    splitNote: z.string().max(1000).nullable().optional(),
  })
  .strict();
export type CreateTransactionInput = z.infer<typeof createTransactionSchema>;

export const updateTransactionSchema = z
  .object({
    postDate: isoDateSchema.optional(),
    description: requiredText('Description', 1000).optional(),
    amount: centsSchema.optional(),
    category: categoryNameSchema.optional(),
    type: transactionTypeSchema.optional(),
    /** An account name; null detaches the account. */
    account: z.string().trim().min(1).max(255).nullable().optional(),
    splitNote: z.string().max(1000).nullable().optional(),
  })
  .strict();
export type UpdateTransactionInput = z.infer<typeof updateTransactionSchema>;

export const bulkUpdateSchema = z
  .object({
    transactionIds: z.array(idSchema).min(1, 'Select at least one transaction').max(100_000),
    updates: z
      .object({
        category: categoryNameSchema.optional(),
        type: transactionTypeSchema.optional(),
        account: z.string().trim().min(1).max(255).optional(),
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
  category: z.string({ error: 'Category is required' }).trim().max(255),
  description: z.string().max(1000).optional().nullable(),
  splitNote: z.string().max(1000).optional().nullable(),
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

export const batchIdSchema = z.object({ batchId: z.string().trim().min(1).max(64) });
