import { z } from 'zod';
import { MAX_LINE_ITEMS_PER_BUDGET } from '../limits';
import { centsSchema, idSchema, isoDateSchema, requiredText, text } from './common';
import { nameKey } from '../names';

export const LINE_ITEM_TYPES = ['Income', 'Variable', 'Fixed', 'NotCounted'] as const;
export type LineItemType = (typeof LINE_ITEM_TYPES)[number];
export const lineItemTypeSchema = z.enum(LINE_ITEM_TYPES, { error: `must be one of ${LINE_ITEM_TYPES.join(', ')}` });

export interface BudgetDto {
  id: number;
  name: string;
  startDate: string;
  endDate: string;
  /** Integer cents; budgets are created with 0. */
  amount: number;
}

export interface LineItemDto {
  id: number;
  budgetId: number;
  name: string;
  amount: number;
  type: LineItemType;
  relatedCategories: string[];
}

const datesInOrder = { message: 'Start date must not be after end date', path: ['endDate'] };

export const createBudgetSchema = z
  .object({
    name: requiredText('Budget name'),
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    amount: centsSchema.default(0),
  })
  .strict()
  .refine((b) => b.startDate <= b.endDate, datesInOrder);
export type CreateBudgetInput = z.infer<typeof createBudgetSchema>;

export const updateBudgetSchema = z
  .object({
    name: requiredText('Budget name').optional(),
    startDate: isoDateSchema.optional(),
    endDate: isoDateSchema.optional(),
    amount: centsSchema.optional(),
  })
  .strict();
export type UpdateBudgetInput = z.infer<typeof updateBudgetSchema>;

export const relatedCategoriesSchema = z
  .array(text({ label: 'Category name', min: 1, max: 255 }))
  .max(500)
  .transform((names) => dedupeNames(names));

export const lineItemFieldsSchema = z.object({
  name: requiredText('Line item name'),
  amount: centsSchema,
  type: lineItemTypeSchema.default('Variable'),
  relatedCategories: relatedCategoriesSchema.default([]),
});

export const createLineItemSchema = lineItemFieldsSchema.extend({ budgetId: idSchema }).strict();
export type CreateLineItemInput = z.infer<typeof createLineItemSchema>;

export const updateLineItemSchema = z
  .object({
    budgetId: idSchema.optional(),
    name: requiredText('Line item name').optional(),
    amount: centsSchema.optional(),
    type: lineItemTypeSchema.optional(),
    relatedCategories: relatedCategoriesSchema.optional(),
  })
  .strict();
export type UpdateLineItemInput = z.infer<typeof updateLineItemSchema>;

/** Saves a budget and all its line items in one database transaction (create when no id). */
export const saveBudgetSchema = z
  .object({
    id: idSchema.optional(),
    name: requiredText('Budget name'),
    startDate: isoDateSchema,
    endDate: isoDateSchema,
    lineItems: z
      .array(lineItemFieldsSchema.extend({ id: idSchema.optional() }).strict())
      .max(MAX_LINE_ITEMS_PER_BUDGET, `A budget holds at most ${MAX_LINE_ITEMS_PER_BUDGET} line items`),
    /** Line items of this budget to delete. */
    deletedLineItemIds: z.array(idSchema).max(1000).default([]),
  })
  .strict()
  .refine((b) => b.startDate <= b.endDate, datesInOrder);
export type SaveBudgetInput = z.infer<typeof saveBudgetSchema>;

export interface SavedBudget {
  budget: BudgetDto;
  lineItems: LineItemDto[];
}

/** Keeps the first spelling of each name, compared regardless of case. */
export function dedupeNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of names) {
    const key = nameKey(name);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    out.push(name.trim());
  }
  return out;
}
