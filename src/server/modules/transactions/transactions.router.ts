import { z } from 'zod';
import { idSchema } from '../../../shared/schemas/common';
import {
  batchIdSchema,
  bulkUpdateSchema,
  listLimitSchema,
  listOffsetSchema,
  createTransactionSchema,
  splitInputSchema,
  transactionFiltersSchema,
  updateTransactionSchema,
} from '../../../shared/schemas/transactions';
import { protectedProcedure, router } from '../../trpc/init';
import { batchTransactions, deleteBatch, listBatches } from './batches.service';
import {
  bulkUpdateTransactions,
  createTransaction,
  deleteTransactions,
  fixSplitStatus,
  getSplits,
  getTransaction,
  listTransactions,
  searchTotal,
  splitTransaction,
  updateTransaction,
} from './transactions.service';

const byId = z.object({ id: idSchema });

export const transactionsRouter = router({
  list: protectedProcedure
    .input(transactionFiltersSchema)
    .query(({ ctx, input }) => listTransactions(ctx.em, ctx.user.id, input)),
  total: protectedProcedure
    .input(transactionFiltersSchema)
    .query(({ ctx, input }) => searchTotal(ctx.em, ctx.user.id, input)),
  get: protectedProcedure.input(byId).query(({ ctx, input }) => getTransaction(ctx.em, ctx.user.id, input.id)),
  create: protectedProcedure
    .input(createTransactionSchema)
    .mutation(({ ctx, input }) => createTransaction(ctx.em, ctx.user.id, input)),
  update: protectedProcedure
    .input(byId.extend({ data: updateTransactionSchema, confirmReconciled: z.boolean().optional() }))
    .mutation(({ ctx, input }) =>
      updateTransaction(ctx.em, ctx.user.id, input.id, input.data, { confirmReconciled: input.confirmReconciled }),
    ),
  deleteMany: protectedProcedure
    .input(
      z.object({
        ids: z.array(idSchema).min(1, 'Select at least one transaction').max(100_000),
        /** The other sides of linked rows: deleted too, or (the default) kept unlinked. */
        withCounterpart: z.boolean().optional(),
      }),
    )
    .mutation(({ ctx, input }) =>
      deleteTransactions(ctx.em, ctx.user.id, input.ids, {
        withCounterpart: input.withCounterpart,
        today: ctx.services.clock.today(),
      }),
    ),
  bulkUpdate: protectedProcedure
    .input(bulkUpdateSchema)
    .mutation(({ ctx, input }) => bulkUpdateTransactions(ctx.em, ctx.user.id, input)),
  split: protectedProcedure
    .input(byId.extend({ splits: splitInputSchema.shape.splits }))
    .mutation(({ ctx, input }) => splitTransaction(ctx.em, ctx.user.id, input.id, { splits: input.splits })),
  splits: protectedProcedure.input(byId).query(({ ctx, input }) => getSplits(ctx.em, ctx.user.id, input.id)),
  fixSplitStatus: protectedProcedure.mutation(({ ctx }) => fixSplitStatus(ctx.em, ctx.user.id)),
  batches: protectedProcedure.query(({ ctx }) => listBatches(ctx.em, ctx.user.id)),
  batchTransactions: protectedProcedure
    .input(batchIdSchema.extend({ limit: listLimitSchema.optional(), offset: listOffsetSchema.optional() }))
    .query(async ({ ctx, input }) => (await batchTransactions(ctx.em, ctx.user.id, input.batchId, input)).rows),
  deleteBatch: protectedProcedure
    .input(batchIdSchema)
    .mutation(({ ctx, input }) => deleteBatch(ctx.em, ctx.user.id, input.batchId, ctx.services.clock.today())),
});
