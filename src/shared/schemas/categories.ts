import { z } from 'zod';
import { isMonth } from '../plan/months';
import { centsSchema, idSchema, isoDateSchema, requiredText } from './common';

export const CATEGORY_KINDS = ['income', 'expense'] as const;
export type CategoryKind = (typeof CATEGORY_KINDS)[number];
export const categoryKindSchema = z.enum(CATEGORY_KINDS, { error: `must be one of ${CATEGORY_KINDS.join(', ')}` });

export const TARGET_TYPES = ['monthly', 'refill', 'byDate'] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

/**
 * A category's one target: `monthly` assigns the amount every month, `refill` tops the category up
 * to the amount, `byDate` saves up to a balance of the amount by the date's month.
 */
export type CategoryTarget =
  { type: 'monthly' | 'refill'; amount: number } | { type: 'byDate'; amount: number; date: string };

/** A calendar month `YYYY-MM`. */
export const monthSchema = z
  .string({ error: 'must be a month in YYYY-MM format' })
  .refine((value) => isMonth(value), 'must be a month in YYYY-MM format (01 to 12)');

const targetAmountSchema = centsSchema.refine((value) => value > 0, 'must be more than zero');

export const categoryTargetSchema = z.discriminatedUnion(
  'type',
  [
    z.object({ type: z.enum(['monthly', 'refill']), amount: targetAmountSchema }).strict(),
    z.object({ type: z.literal('byDate'), amount: targetAmountSchema, date: isoDateSchema }).strict(),
  ],
  { error: `target type must be one of ${TARGET_TYPES.join(', ')}` },
);

export interface CategoryDto {
  id: number;
  name: string;
  kind: CategoryKind;
  /** Kept out of pickers and the plan; its history stays. */
  hidden: boolean;
  /** The month from which overspending rolls into the next month (null: never). */
  rollsOverspendingFrom: string | null;
  target: CategoryTarget | null;
}

export const createCategorySchema = z
  .object({ name: requiredText('Category name'), kind: categoryKindSchema.optional() })
  .strict();
export type CreateCategoryInput = z.infer<typeof createCategorySchema>;

export const updateCategorySchema = z
  .object({
    name: requiredText('Category name').optional(),
    kind: categoryKindSchema.optional(),
    hidden: z.boolean({ error: 'hidden must be true or false' }).optional(),
    rollsOverspendingFrom: monthSchema.nullable().optional(),
    target: categoryTargetSchema.nullable().optional(),
  })
  .strict();
export type UpdateCategoryInput = z.infer<typeof updateCategorySchema>;

export const mergeCategorySchema = z.object({ into: idSchema }).strict();
export type MergeCategoryInput = z.infer<typeof mergeCategorySchema>;

export const deleteCategoryQuerySchema = z.object({ reassignTo: idSchema.optional() }).strict();
export type DeleteCategoryQuery = z.infer<typeof deleteCategoryQuerySchema>;

/** What refers to a category: what a merge moves and what blocks a delete. */
export interface CategoryUsage {
  /** Transactions and split parts. */
  transactions: number;
  rules: number;
  lineItems: number;
  envelopes: number;
  schedules: number;
  /** Months of the plan with an assigned amount or a move naming it. */
  planMonths: number;
}

export interface CategoryMergeResult {
  category: CategoryDto;
  moved: CategoryUsage;
}
