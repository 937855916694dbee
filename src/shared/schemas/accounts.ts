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
}

export const createAccountSchema = z
  .object({ name: requiredText('Account name'), type: accountTypeSchema, balance: centsSchema.default(0) })
  .strict();
export type CreateAccountInput = z.infer<typeof createAccountSchema>;

export const updateAccountSchema = z
  .object({ name: requiredText('Account name').optional(), type: accountTypeSchema.optional(), balance: centsSchema.optional() })
  .strict();
export type UpdateAccountInput = z.infer<typeof updateAccountSchema>;
