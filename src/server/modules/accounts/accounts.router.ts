import { z } from 'zod';
import { createAccountSchema, netWorthInputSchema, updateAccountSchema } from '../../../shared/schemas/accounts';
import { idSchema } from '../../../shared/schemas/common';
import { protectedProcedure, router } from '../../trpc/init';
import { adjustInputSchema, reconcileInputSchema, registerInputSchema } from '../../../shared/schemas/register';
import { createAccount, deleteAccount, listAccounts, netWorth, updateAccount } from './accounts.service';
import { accountRegister, adjustAccountBalance, reconcileAccount } from './register.service';

const byId = z.object({ id: idSchema });

export const accountsRouter = router({
  list: protectedProcedure.query(({ ctx }) => listAccounts(ctx.em, ctx.user.id)),
  netWorth: protectedProcedure
    .input(netWorthInputSchema)
    .query(({ ctx, input }) => netWorth(ctx.em, ctx.user.id, input, ctx.services.clock.today())),
  create: protectedProcedure
    .input(createAccountSchema)
    .mutation(({ ctx, input }) => createAccount(ctx.em, ctx.user.id, input, ctx.services.clock.today())),
  update: protectedProcedure
    .input(byId.extend({ data: updateAccountSchema }))
    .mutation(({ ctx, input }) => updateAccount(ctx.em, ctx.user.id, input.id, input.data)),
  delete: protectedProcedure.input(byId).mutation(({ ctx, input }) => deleteAccount(ctx.em, ctx.user.id, input.id)),
  register: protectedProcedure
    .input(registerInputSchema)
    .query(async ({ ctx, input: { id, ...range } }) => (await accountRegister(ctx.em, ctx.user.id, id, range)).rows),
  reconcile: protectedProcedure
    .input(reconcileInputSchema)
    .query(
      async ({ ctx, input: { id, limit, offset, ...statement } }) =>
        (await reconcileAccount(ctx.em, ctx.user.id, id, statement, { limit, offset })).result,
    ),
  adjustBalance: protectedProcedure.input(adjustInputSchema).mutation(async ({ ctx, input }) => {
    const { id, limit, offset, ...statement } = input;
    const done = await adjustAccountBalance(ctx.em, ctx.user.id, id, statement, { limit, offset });
    return { ...done.result, reconciledRows: done.reconciledRows };
  }),
});
