import {
  homeCurrencyInputSchema,
  loginInputSchema,
  mfaDisableInputSchema,
  mfaEnableInputSchema,
  mfaSetupInputSchema,
  mfaVerifyInputSchema,
  profileUpdateSchema,
  refreshInputSchema,
  registerInputSchema,
  signInParamsSchema,
} from '../../../shared/schemas/auth';
import { setHomeCurrency } from '../users/home-currency.service';
import { protectedProcedure, publicProcedure, router } from '../../trpc/init';

export const authRouter = router({
  status: publicProcedure.query(({ ctx }) => ctx.services.auth.status(ctx.em)),
  register: publicProcedure
    .input(registerInputSchema)
    .mutation(({ ctx, input }) => ctx.services.auth.register(ctx.em, input, ctx.clientIp, ctx.userAgent)),
  login: publicProcedure
    .input(loginInputSchema)
    .mutation(({ ctx, input }) => ctx.services.auth.login(ctx.em, input, ctx.clientIp, ctx.userAgent)),
  verifyMfa: publicProcedure
    .input(mfaVerifyInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.auth.verifyMfa(ctx.em, input, { address: ctx.clientIp, userAgent: ctx.userAgent }),
    ),
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
  setupMfa: protectedProcedure
    .input(mfaSetupInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.auth.setupMfa(ctx.em, ctx.user.id, input.currentPassword, { address: ctx.clientIp }),
    ),
  enableMfa: protectedProcedure
    .input(mfaEnableInputSchema)
    .mutation(({ ctx, input }) =>
      ctx.services.auth.enableMfa(ctx.em, ctx.user.id, input.code, { address: ctx.clientIp }),
    ),
  disableMfa: protectedProcedure.input(mfaDisableInputSchema).mutation(async ({ ctx, input }) => {
    await ctx.services.auth.disableMfa(ctx.em, ctx.user.id, input.currentPassword, { address: ctx.clientIp });
    return { ok: true as const };
  }),
  signIns: protectedProcedure.query(({ ctx }) => ctx.services.auth.signIns(ctx.em, ctx.user.id, ctx.user.signInId)),
  revokeSignIn: protectedProcedure.input(signInParamsSchema).mutation(async ({ ctx, input }) => {
    await ctx.services.auth.revokeSignIn(ctx.em, ctx.user.id, input.id);
    return { ok: true as const };
  }),
  revokeOtherSignIns: protectedProcedure.mutation(({ ctx }) =>
    ctx.services.auth.revokeOtherSignIns(ctx.em, ctx.user.id, ctx.user.signInId),
  ),
});
