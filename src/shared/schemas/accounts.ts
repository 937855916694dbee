import { z } from 'zod';
import { centsSchema, requiredText } from './common';

export const ACCOUNT_TYPES = ['checking', 'savings', 'credit', 'investment', 'cash'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const accountTypeSchema = z.enum(ACCOUNT_TYPES, { error: `must be one of ${ACCOUNT_TYPES.join(', ')}` });

export interface AccountDto {
  id: number;
  name: string;
  type: AccountType;
  /** Integer cents. */
  balance: number;
  /** "Apply confident suggestions": an import into this account applies suggestions of confidence >= 0.9. */
  applySuggestions: boolean;
  /** Its transactions count in the monthly plan. */
  onBudget: boolean;
}

const applySuggestionsSchema = z.boolean({ error: 'applySuggestions must be true or false' });
const onBudgetSchema = z.boolean({ error: 'onBudget must be true or false' });

/** New accounts count in the plan, except investment accounts, whose swings are not spending. */
export function defaultOnBudget(type: AccountType): boolean {
  return type !== 'investment';
}

export const createAccountSchema = z
  .object({
    name: requiredText('Account name'),
    type: accountTypeSchema,
    balance: centsSchema.default(0),
    applySuggestions: applySuggestionsSchema.default(true),
    onBudget: onBudgetSchema.optional(),
  })
  .strict();
export type CreateAccountInput = z.infer<typeof createAccountSchema>;

export const updateAccountSchema = z
  .object({
    name: requiredText('Account name').optional(),
    type: accountTypeSchema.optional(),
    balance: centsSchema.optional(),
    applySuggestions: applySuggestionsSchema.optional(),
    onBudget: onBudgetSchema.optional(),
  })
  .strict();
export type UpdateAccountInput = z.infer<typeof updateAccountSchema>;
