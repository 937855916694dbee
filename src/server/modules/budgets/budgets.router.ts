import { z } from 'zod';
import {
  createBudgetSchema,
  createLineItemSchema,
  saveBudgetSchema,
  updateBudgetSchema,
  updateLineItemSchema,
} from '../../../shared/schemas/budgets';
import { idSchema } from '../../../shared/schemas/common';
import { protectedProcedure, router } from '../../trpc/init';
import {
  budgetOverview,
  createBudget,
  createLineItem,
  deleteBudget,
  deleteLineItem,
  listBudgets,
  listLineItems,
  saveBudget,
  updateBudget,
  updateLineItem,
} from './budgets.service';

const byId = z.object({ id: idSchema });

export const budgetsRouter = router({
  list: protectedProcedure.query(({ ctx }) => listBudgets(ctx.em, ctx.user.id)),
  create: protectedProcedure
    .input(createBudgetSchema)
    .mutation(({ ctx, input }) => createBudget(ctx.em, ctx.user.id, input)),
  update: protectedProcedure
    .input(byId.extend({ data: updateBudgetSchema }))
    .mutation(({ ctx, input }) => updateBudget(ctx.em, ctx.user.id, input.id, input.data)),
  delete: protectedProcedure.input(byId).mutation(({ ctx, input }) => deleteBudget(ctx.em, ctx.user.id, input.id)),
  save: protectedProcedure.input(saveBudgetSchema).mutation(({ ctx, input }) => saveBudget(ctx.em, ctx.user.id, input)),
  overview: protectedProcedure
    .input(byId)
    .query(({ ctx, input }) => budgetOverview(ctx.em, ctx.user.id, input.id, ctx.rawJson)),
  lineItems: protectedProcedure
    .input(z.object({ budgetId: idSchema }))
    .query(({ ctx, input }) => listLineItems(ctx.em, ctx.user.id, input.budgetId)),
  createLineItem: protectedProcedure
    .input(createLineItemSchema)
    .mutation(({ ctx, input }) => createLineItem(ctx.em, ctx.user.id, input)),
  updateLineItem: protectedProcedure
    .input(byId.extend({ data: updateLineItemSchema }))
    .mutation(({ ctx, input }) => updateLineItem(ctx.em, ctx.user.id, input.id, input.data)),
  deleteLineItem: protectedProcedure
    .input(byId)
    .mutation(({ ctx, input }) => deleteLineItem(ctx.em, ctx.user.id, input.id)),
});
