import { z } from 'zod';
import {
  applyRulesSchema,
  countRuleMatchesSchema,
  createRuleSchema,
  reorderRulesSchema,
  updateRuleSchema,
} from '../../../shared/rules';
import { idSchema } from '../../../shared/schemas/common';
import { protectedProcedure, router } from '../../trpc/init';
import {
  applyRulesToTransactions,
  countRuleMatches,
  createRule,
  deleteRule,
  listRules,
  reorderRules,
  updateRule,
} from './rules.service';

const byId = z.object({ id: idSchema });

export const rulesRouter = router({
  list: protectedProcedure.query(({ ctx }) => listRules(ctx.em, ctx.user.id)),
  create: protectedProcedure
    .input(createRuleSchema)
    .mutation(({ ctx, input }) => createRule(ctx.em, ctx.user.id, input)),
  update: protectedProcedure
    .input(byId.extend({ data: updateRuleSchema }))
    .mutation(({ ctx, input }) => updateRule(ctx.em, ctx.user.id, input.id, input.data)),
  delete: protectedProcedure.input(byId).mutation(({ ctx, input }) => deleteRule(ctx.em, ctx.user.id, input.id)),
  reorder: protectedProcedure
    .input(reorderRulesSchema)
    .mutation(({ ctx, input }) => reorderRules(ctx.em, ctx.user.id, input)),
  countMatches: protectedProcedure
    .input(countRuleMatchesSchema)
    .query(({ ctx, input }) => countRuleMatches(ctx.em, ctx.user.id, input)),
  applyToTransactions: protectedProcedure
    .input(applyRulesSchema)
    .mutation(({ ctx, input }) => applyRulesToTransactions(ctx.em, ctx.user.id, input)),
});
