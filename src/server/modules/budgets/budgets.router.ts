import { z } from 'zod';
import { saveBudgetSchema } from '../../../shared/schemas/budgets';
import { idSchema } from '../../../shared/schemas/common';
import { protectedProcedure, router } from '../../trpc/init';
import { deleteBudget, deleteLineItem, listBudgets, listLineItems, saveBudget } from './budgets.service';

const byId = z.object({ id: idSchema });

export const budgetsRouter = router({
  list: protectedProcedure.query(({ ctx }) => listBudgets(ctx.em, ctx.user.id)),
  delete: protectedProcedure.input(byId).mutation(({ ctx, input }) => deleteBudget(ctx.em, ctx.user.id, input.id)),
  save: protectedProcedure.input(saveBudgetSchema).mutation(({ ctx, input }) => saveBudget(ctx.em, ctx.user.id, input)),
  lineItems: protectedProcedure
    .input(z.object({ budgetId: idSchema }))
    .query(({ ctx, input }) => listLineItems(ctx.em, ctx.user.id, input.budgetId)),
  deleteLineItem: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => deleteLineItem(ctx.em, ctx.user.id, input.id)),
});
