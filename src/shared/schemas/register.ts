import { z } from 'zod';
import type { RegisterRow, ReconcileFigures } from '../register/register';
import type { AccountDto } from './accounts';
import { centsSchema, idSchema, isoDateSchema } from './common';
import { listLimitSchema, listOffsetSchema } from './transactions';

export type { RegisterRow };

/** One page of a long list: at most MAX_LIST_ROWS rows; without `limit` a longer list is refused (422). */
export const listPageSchema = z.object({ limit: listLimitSchema.optional(), offset: listOffsetSchema.optional() });
export type ListPage = z.infer<typeof listPageSchema>;

const registerRange = z.object({ startDate: isoDateSchema.optional(), endDate: isoDateSchema.optional() }).strict();
const inOrder = (r: { startDate?: string; endDate?: string }) => !r.startDate || !r.endDate || r.startDate <= r.endDate;
const inOrderMessage = { message: 'Start date must not be after end date', path: ['endDate'] };

/** The dates of a register page: both optional (the whole history). */
export const registerRangeSchema = registerRange.refine(inOrder, inOrderMessage);
export type RegisterRange = z.infer<typeof registerRangeSchema>;

/** tRPC accounts.register (REST: GET /api/accounts/{id}/register?start_date&end_date). */
export const registerInputSchema = registerRange
  .extend({ id: idSchema, ...listPageSchema.shape })
  .refine(inOrder, inOrderMessage);
export type RegisterInput = z.infer<typeof registerInputSchema>;

/** A bank statement to reconcile the account with: its date and closing balance (cents). */
export const statementSchema = z.object({ statementDate: isoDateSchema, statementBalance: centsSchema }).strict();
export type StatementInput = z.infer<typeof statementSchema>;

export const reconcileInputSchema = statementSchema.extend({ id: idSchema, ...listPageSchema.shape });

/** Reconciling: the statement, and whether to record an adjustment transaction for a difference. */
export const reconcileBodySchema = statementSchema.extend({
  createAdjustment: z.boolean({ error: 'createAdjustment must be true or false' }).optional(),
});
export const adjustInputSchema = reconcileInputSchema.extend({
  createAdjustment: z.boolean({ error: 'createAdjustment must be true or false' }).optional(),
});
export type ReconcileInput = z.infer<typeof reconcileInputSchema>;

export interface ReconcileResult extends ReconcileFigures {
  account: AccountDto;
  statementDate: string;
  statementBalance: number;
  /** The rows dated after the statement date (one page of them when paged), in register order with their running balances. */
  transactionsAfter: RegisterRow[];
}
