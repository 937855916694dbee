import { z } from 'zod';
import {
  applyRulesSchema,
  countRuleMatchesSchema,
  createRuleSchema,
  DEFAULT_RULE_PRIORITY,
  RULE_PRIORITY_MAX,
  RULE_PRIORITY_MIN,
  reorderRulesSchema,
  updateRuleSchema,
} from '../../../shared/rules';
import { idParamsSchema, isoDateSchema } from '../../../shared/schemas/common';
import { messageAnswer, ruleAnswer, ruleApplyAnswer, ruleCountAnswer } from '../../http/answers';
import { restRoute, type RestRoute } from '../../http/rest-route';
import {
  applyRulesToTransactions,
  countRuleMatches,
  createRule,
  deleteRule,
  listRules,
  reorderRules,
  updateRule,
} from './rules.service';

const TAG = 'Rules';

/** The wire names of POST /api/rules/apply (`start_date`, `end_date`), read into the shared input. */
const applyBodySchema = z
  .object({
    start_date: isoDateSchema.optional(),
    end_date: isoDateSchema.optional(),
    ruleIds: z.unknown().optional(),
    onlyUncategorized: z.unknown().optional(),
    dryRun: z.unknown().optional(),
  })
  .strict()
  .transform((body, ctx) => {
    const parsed = applyRulesSchema.safeParse({
      startDate: body.start_date,
      endDate: body.end_date,
      ruleIds: body.ruleIds,
      onlyUncategorized: body.onlyUncategorized,
      dryRun: body.dryRun,
    });
    if (!parsed.success) {
      const wireName = (key: PropertyKey) =>
        key === 'startDate' ? 'start_date' : key === 'endDate' ? 'end_date' : key;
      for (const issue of parsed.error.issues) {
        ctx.addIssue({
          code: 'custom',
          message: issue.message,
          path: issue.path.map((key, i) => (i === 0 ? wireName(key) : key)),
        });
      }
      return z.NEVER;
    }
    return parsed.data;
  });

export const ruleRoutes: RestRoute[] = [
  restRoute({
    method: 'GET',
    url: '/rules',
    tag: TAG,
    summary: 'Every rule, in the order they run (priority, then id)',
    answer: 'An array of { id, name, conditions, actions, priority, enabled }',
    output: z.array(ruleAnswer),
    handler: ({ em, userId }) => listRules(em, userId),
  }),
  restRoute({
    method: 'POST',
    url: '/rules',
    tag: TAG,
    summary: `Create a rule: conditions [{field, op, value}] (description contains/startsWith/equals/matches, amount eq/lt/gt/between in minor units of the condition's currency, default your home currency, holding only for transactions in it; account equals), all must match; actions {category?, type?, description?}; priority ${RULE_PRIORITY_MIN}-${RULE_PRIORITY_MAX} (lower runs first, default ${DEFAULT_RULE_PRIORITY}). actions.category must name an existing category unless createCategory is true (422 otherwise); a name another rule has, in any case, is refused (409)`,
    body: createRuleSchema,
    status: 201,
    refusals: [409, 422],
    answer: 'The created rule',
    output: ruleAnswer,
    handler: ({ em, userId, body }) => createRule(em, userId, body),
  }),
  restRoute({
    method: 'POST',
    url: '/rules/count',
    tag: TAG,
    summary: 'How many of your transactions the conditions match (split transactions left out), with the newest few',
    body: countRuleMatchesSchema,
    answer: '{ matched, total, sample: [{ id, postDate, description, amount }] }',
    output: ruleCountAnswer,
    handler: ({ em, userId, body }) => countRuleMatches(em, userId, body),
  }),
  restRoute({
    method: 'POST',
    url: '/rules/apply',
    tag: TAG,
    summary:
      'Run the enabled rules (or exactly ruleIds) over stored transactions between start_date and end_date (both optional); onlyUncategorized (default true) leaves categorised rows alone; dryRun (default false) changes nothing',
    body: applyBodySchema,
    answer:
      '{ dryRun, matched, changed, changes: [{ id, postDate, description, amount, field, from, to, ruleId }] (at most 1,000), truncated }',
    output: ruleApplyAnswer,
    handler: ({ em, userId, body }) => applyRulesToTransactions(em, userId, body),
  }),
  restRoute({
    method: 'PUT',
    url: '/rules/order',
    tag: TAG,
    summary: 'Put the rules in this order ({ids}: each of your rules once); priorities become 10, 20, 30, ...',
    body: reorderRulesSchema,
    answer: 'The rules in their new order',
    output: z.array(ruleAnswer),
    handler: ({ em, userId, body }) => reorderRules(em, userId, body),
  }),
  restRoute({
    method: 'PUT',
    url: '/rules/:id',
    tag: TAG,
    summary:
      'Update any of name, conditions, actions, priority, enabled; as on creation, an unknown category needs createCategory: true (422) and a taken name is refused (409)',
    params: idParamsSchema,
    body: updateRuleSchema,
    refusals: [409, 422],
    answer: 'The updated rule',
    output: ruleAnswer,
    handler: ({ em, userId, params, body }) => updateRule(em, userId, params.id, body),
  }),
  restRoute({
    method: 'DELETE',
    url: '/rules/:id',
    tag: TAG,
    summary: 'Delete a rule (transactions it categorised stay as they are)',
    params: idParamsSchema,
    answer: '{ message }',
    output: messageAnswer,
    handler: ({ em, userId, params }) => deleteRule(em, userId, params.id),
  }),
];
