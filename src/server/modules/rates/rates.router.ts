import { rateFileSchema, rateInputSchema, rateKeySchema, rateQuerySchema } from '../../../shared/schemas/rates';
import { protectedProcedure, router } from '../../trpc/init';
import { deleteRate, importRates, listRatePairs, lookupRate, putRate } from './rates.service';

export const ratesRouter = router({
  lookup: protectedProcedure
    .input(rateQuerySchema)
    .query(({ ctx, input }) => lookupRate(ctx.em, input, ctx.services.clock.today())),
  pairs: protectedProcedure.query(({ ctx }) => listRatePairs(ctx.em)),
  import: protectedProcedure.input(rateFileSchema).mutation(({ ctx, input }) => importRates(ctx.em, input.text)),
  put: protectedProcedure.input(rateInputSchema).mutation(({ ctx, input }) => putRate(ctx.em, input)),
  delete: protectedProcedure.input(rateKeySchema).mutation(({ ctx, input }) => deleteRate(ctx.em, input)),
});
