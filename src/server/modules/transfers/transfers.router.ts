import { z } from 'zod';
import { idSchema } from '../../../shared/schemas/common';
import { listLimitSchema, listOffsetSchema } from '../../../shared/schemas/transactions';
import { createTransferSchema, linkTransferSchema } from '../../../shared/schemas/transfers';
import { protectedProcedure, router } from '../../trpc/init';
import {
  acceptCandidate,
  createTransfer,
  dismissCandidate,
  getTransfer,
  linkTransactions,
  listCandidates,
  unlinkTransfer,
} from './transfers.service';

const byId = z.object({ id: idSchema });

export const transfersRouter = router({
  create: protectedProcedure
    .input(createTransferSchema)
    .mutation(({ ctx, input }) => createTransfer(ctx.em, ctx.user.id, input)),
  link: protectedProcedure
    .input(linkTransferSchema)
    .mutation(({ ctx, input }) => linkTransactions(ctx.em, ctx.user.id, input.transactionIds)),
  get: protectedProcedure.input(byId).query(({ ctx, input }) => getTransfer(ctx.em, ctx.user.id, input.id)),
  unlink: protectedProcedure.input(byId).mutation(({ ctx, input }) => unlinkTransfer(ctx.em, ctx.user.id, input.id)),
  candidates: protectedProcedure
    .input(
      z
        .object({
          limit: listLimitSchema.pipe(z.number().max(1000, 'limit must be at most 1000')).optional(),
          offset: listOffsetSchema.optional(),
        })
        .optional(),
    )
    .query(({ ctx, input }) => listCandidates(ctx.em, ctx.user.id, input ?? {})),
  accept: protectedProcedure.input(byId).mutation(({ ctx, input }) => acceptCandidate(ctx.em, ctx.user.id, input.id)),
  dismiss: protectedProcedure.input(byId).mutation(({ ctx, input }) => dismissCandidate(ctx.em, ctx.user.id, input.id)),
});
