import { z } from 'zod';
import { centsSchema, currencySchema, requiredText } from './common';

export const ACCOUNT_TYPES = ['checking', 'savings', 'credit', 'investment', 'cash'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const accountTypeSchema = z.enum(ACCOUNT_TYPES, { error: `must be one of ${ACCOUNT_TYPES.join(', ')}` });

export interface AccountDto {
  id: number;
  name: string;
  type: AccountType;
  /** ISO 4217 code: `balance` and every amount of the account's transactions are in its minor unit. */
  currency: string;
  /** Integer minor units of `currency`. */
  balance: number;
  /** "Apply confident suggestions": an import into this account applies suggestions of confidence >= 0.9. */
  applySuggestions: boolean;
}

const applySuggestionsSchema = z.boolean({ error: 'applySuggestions must be true or false' });

export const createAccountSchema = z
  .object({
    name: requiredText('Account name'),
    type: accountTypeSchema,
    /** Defaults to the user's home currency. */
    currency: currencySchema.optional(),
    balance: centsSchema.default(0),
    applySuggestions: applySuggestionsSchema.default(true),
  })
  .strict();
export type CreateAccountInput = z.infer<typeof createAccountSchema>;

export const updateAccountSchema = z
  .object({
    name: requiredText('Account name').optional(),
    type: accountTypeSchema.optional(),
    /** Only while the account has no transactions (409 otherwise). */
    currency: currencySchema.optional(),
    balance: centsSchema.optional(),
    applySuggestions: applySuggestionsSchema.optional(),
  })
  .strict();
export type UpdateAccountInput = z.infer<typeof updateAccountSchema>;
