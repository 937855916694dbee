import { z } from 'zod';
import { centsSchema, currencySchema, isoDateSchema, requiredText } from './common';

export const ACCOUNT_TYPES = ['checking', 'savings', 'credit', 'investment', 'cash'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];
export const accountTypeSchema = z.enum(ACCOUNT_TYPES, { error: `must be one of ${ACCOUNT_TYPES.join(', ')}` });

/** The latest upload into an account: when, which file, which batch. */
export interface LastImport {
  batchId: string;
  /** ISO-8601 timestamp of the upload. */
  uploadDate: string;
  fileName: string | null;
}

export interface AccountDto {
  id: number;
  name: string;
  type: AccountType;
  /** ISO 4217 code: every balance and amount of the account's transactions is in its minor unit. */
  currency: string;
  /** Integer minor units of `currency`: the opening balance plus every counted transaction of the account. */
  balance: number;
  /** Integer cents: the balance on `openingDate`, before the account's transactions. */
  openingBalance: number;
  /** `YYYY-MM-DD`. */
  openingDate: string;
  /** "Apply confident suggestions": an import into this account applies suggestions of confidence >= 0.9. */
  applySuggestions: boolean;
  /** Its transactions count in the monthly plan. */
  onBudget: boolean;
  lastImport: LastImport | null;
}

const applySuggestionsSchema = z.boolean({ error: 'applySuggestions must be true or false' });
const onBudgetSchema = z.boolean({ error: 'onBudget must be true or false' });

/** New accounts count in the plan, except investment accounts, whose swings are not spending. */
export function defaultOnBudget(type: AccountType): boolean {
  return type !== 'investment';
}

/**
 * `balance` is what clients written before opening balances send: the balance the account has
 * now. It sets the opening balance that gives that balance, so it may not come with `openingBalance`.
 */
const balanceOrOpening = (input: { balance?: number; openingBalance?: number }) =>
  input.balance === undefined || input.openingBalance === undefined;
const balanceOrOpeningMessage = {
  message: 'Send openingBalance (or, as older clients do, balance), not both',
  path: ['balance'],
};

export const createAccountSchema = z
  .object({
    name: requiredText('Account name'),
    type: accountTypeSchema,
    /** Defaults to the user's home currency. */
    currency: currencySchema.optional(),
    openingBalance: centsSchema.optional(),
    /** Defaults to today. */
    openingDate: isoDateSchema.optional(),
    balance: centsSchema.optional(),
    applySuggestions: applySuggestionsSchema.default(true),
    onBudget: onBudgetSchema.optional(),
  })
  .strict()
  .refine(balanceOrOpening, balanceOrOpeningMessage);
export type CreateAccountInput = z.infer<typeof createAccountSchema>;

export const updateAccountSchema = z
  .object({
    name: requiredText('Account name').optional(),
    type: accountTypeSchema.optional(),
    /** Only while the account has no transactions (409 otherwise). */
    currency: currencySchema.optional(),
    openingBalance: centsSchema.optional(),
    openingDate: isoDateSchema.optional(),
    balance: centsSchema.optional(),
    applySuggestions: applySuggestionsSchema.optional(),
    onBudget: onBudgetSchema.optional(),
  })
  .strict()
  .refine(balanceOrOpening, balanceOrOpeningMessage);
export type UpdateAccountInput = z.infer<typeof updateAccountSchema>;

/** tRPC accounts.netWorth (REST: GET /api/accounts/net-worth?months&end_date). */
export const netWorthInputSchema = z
  .object({
    months: z
      .number({ error: 'months must be a whole number from 1 to 120' })
      .int('months must be a whole number from 1 to 120')
      .min(1, 'months must be a whole number from 1 to 120')
      .max(120, 'months must be a whole number from 1 to 120')
      .default(12),
    /** The last month's day (defaults to today). */
    endDate: isoDateSchema.optional(),
  })
  .strict();
export type NetWorthInput = z.infer<typeof netWorthInputSchema>;
