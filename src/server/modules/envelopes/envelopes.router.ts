import { z } from 'zod';
import { idSchema } from '../../../shared/schemas/common';
import { createEnvelopeSchema, envelopeRangeSchema, updateEnvelopeSchema } from '../../../shared/schemas/envelopes';
import { protectedProcedure, router } from '../../trpc/init';
import { createEnvelope, deleteEnvelope, listEnvelopes, updateEnvelope } from './envelopes.service';

const byId = z.object({ id: idSchema });

export const envelopesRouter = router({
  list: protectedProcedure
    .input(envelopeRangeSchema.optional())
    .query(({ ctx, input }) => listEnvelopes(ctx.em, ctx.user.id, input ?? {})),
  create: protectedProcedure
    .input(createEnvelopeSchema)
    .mutation(({ ctx, input }) => createEnvelope(ctx.em, ctx.user.id, input)),
  update: protectedProcedure
    .input(byId.extend({ data: updateEnvelopeSchema }))
    .mutation(({ ctx, input }) => updateEnvelope(ctx.em, ctx.user.id, input.id, input.data)),
  delete: protectedProcedure.input(byId).mutation(({ ctx, input }) => deleteEnvelope(ctx.em, ctx.user.id, input.id)),
});
