import { monthSchema } from '../../../shared/schemas/categories';
import { fillSchema, holdSchema, moveMoneySchema, setAssignedSchema } from '../../../shared/schemas/plan';
import { z } from 'zod';
import { protectedProcedure, router } from '../../trpc/init';
import { fillMonth, getPlan, moveMoney, setAssigned, setHold } from './plan.service';

const byMonth = z.object({ month: monthSchema });

export const planRouter = router({
  get: protectedProcedure.input(byMonth).query(({ ctx, input }) => getPlan(ctx.em, ctx.user.id, input.month)),
  setAssigned: protectedProcedure
    .input(byMonth.extend(setAssignedSchema.shape))
    .mutation(({ ctx, input: { month, ...rest } }) => setAssigned(ctx.em, ctx.user.id, month, rest)),
  move: protectedProcedure
    .input(byMonth.extend(moveMoneySchema.shape))
    .mutation(({ ctx, input: { month, ...rest } }) =>
      moveMoney(ctx.em, ctx.user.id, month, rest, ctx.services.clock.today()),
    ),
  hold: protectedProcedure
    .input(byMonth.extend(holdSchema.shape))
    .mutation(({ ctx, input: { month, ...rest } }) => setHold(ctx.em, ctx.user.id, month, rest)),
  fill: protectedProcedure
    .input(byMonth.extend(fillSchema.shape))
    .mutation(({ ctx, input: { month, ...rest } }) => fillMonth(ctx.em, ctx.user.id, month, rest)),
});
