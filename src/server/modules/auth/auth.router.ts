import {
  homeCurrencyInputSchema,
  loginInputSchema,
  profileUpdateSchema,
  refreshInputSchema,
  registerInputSchema,
} from '../../../shared/schemas/auth';
import { setHomeCurrency } from '../users/home-currency.service';
import { protectedProcedure, publicProcedure, router } from '../../trpc/init';

export const authRouter = router({
  status: publicProcedure.query(({ ctx }) => ctx.services.auth.status(ctx.em)),
  register: publicProcedure
    .input(registerInputSchema)
    .mutation(({ ctx, input }) => ctx.services.auth.register(ctx.em, input, ctx.clientIp)),
  login: publicProcedure
    .input(loginInputSchema)
    .mutation(({ ctx, input }) => ctx.services.auth.login(ctx.em, input, ctx.clientIp)),
  logout: publicProcedure.input(refreshInputSchema).mutation(async ({ ctx, input }) => {
    await ctx.services.auth.logout(ctx.em, input.refreshToken);
    return { ok: true as const };
  }),
  setHomeCurrency: protectedProcedure
    .input(homeCurrencyInputSchema)
    .mutation(({ ctx, input }) => setHomeCurrency(ctx.em, ctx.user.id, input)),
  me: protectedProcedure.query(({ ctx }) => ctx.services.auth.me(ctx.em, ctx.user.id)),
  updateProfile: protectedProcedure.input(profileUpdateSchema).mutation(({ ctx, input }) =>
    ctx.services.auth.updateProfile(ctx.em, ctx.user.id, input, {
      address: ctx.clientIp,
      signInId: ctx.user.signInId,
    }),
  ),
});
