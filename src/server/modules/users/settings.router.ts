import { settingsUpdateSchema } from '../../../shared/schemas/transfers';
import { protectedProcedure, router } from '../../trpc/init';
import { getSettings, updateSettings } from './settings.service';

export const settingsRouter = router({
  get: protectedProcedure.query(({ ctx }) => getSettings(ctx.em, ctx.user.id, ctx.services.retention)),
  update: protectedProcedure
    .input(settingsUpdateSchema)
    .mutation(({ ctx, input }) => updateSettings(ctx.em, ctx.user.id, input, ctx.services.retention)),
});
