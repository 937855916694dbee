import { z } from 'zod';
import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { groupDigits } from '../money/money';
import { centsSchema, isoDateSchema, text } from './common';

/** Where a transaction's category came from (null: uncategorised, or set before this was kept). */
export const CATEGORY_SOURCES = ['bank', 'rule', 'suggested', 'user'] as const;
export type CategorySource = (typeof CATEGORY_SOURCES)[number];
export const categorySourceSchema = z.enum(CATEGORY_SOURCES, {
  error: `must be one of ${CATEGORY_SOURCES.join(', ')}`,
});

/** The most rows one suggest call takes. */
export const MAX_SUGGEST_ROWS = 5000;

export const suggestRowSchema = z
  .object({
    description: text({ label: 'description', min: 1, max: DESCRIPTION_MAX_LENGTH, trim: false }),
    amount: centsSchema,
    postDate: isoDateSchema.optional(),
    account: text({ max: 255 }).optional(),
  })
  .strict();

export const suggestInputSchema = z
  .object({
    transactions: z
      .array(suggestRowSchema, { error: 'transactions must be a list' })
      .max(MAX_SUGGEST_ROWS, `transactions must hold at most ${groupDigits(MAX_SUGGEST_ROWS)} rows`),
  })
  .strict();
export type SuggestInput = z.infer<typeof suggestInputSchema>;

export interface SuggestionDto {
  category: string | null;
  /** 0..1; at or above 0.9 an import applies it (when the account allows). */
  confidence: number;
  reason: string;
}
