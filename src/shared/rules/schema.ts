/**
 * Categorisation rules: `{id, name, conditions, actions, priority, enabled}`. All conditions must
 * match; for each action field the first matching rule (lowest priority, then lowest id) wins.
 * One zod schema for the tRPC input, the REST body, the JSON export and the client's form, with
 * messages that name the field they refuse.
 */
import { z } from 'zod';
import { isReservedCategoryName, reservedCategoryOnTransactionMessage } from '../categories/reserved';
import { DESCRIPTION_MAX_LENGTH } from '../limits';
import { centsSchema, currencySchema, idSchema, isoDateSchema, requiredText, text } from '../schemas/common';
import { must } from '../must';
import { TRANSACTION_TYPES, transactionTypeSchema, type TransactionType } from '../schemas/transactions';
import { checkRegex } from './pattern';

export const RULE_OPS = {
  description: ['contains', 'startsWith', 'equals', 'matches'],
  amount: ['eq', 'lt', 'gt', 'between'],
  account: ['equals'],
} as const;
export type RuleField = keyof typeof RULE_OPS;
export const RULE_FIELDS = Object.keys(RULE_OPS) as RuleField[];

export const RULE_ACTION_FIELDS = ['category', 'type', 'description'] as const;
export type RuleActionField = (typeof RULE_ACTION_FIELDS)[number];

export const RULE_PRIORITY_MIN = 0;
export const RULE_PRIORITY_MAX = 10_000;
export const DEFAULT_RULE_PRIORITY = 100;
export const MAX_CONDITIONS_PER_RULE = 20;
export const MAX_RULES_PER_USER = 1000;
/** The longest text a description or account condition compares with. */
export const RULE_TEXT_MAX = 255;

export type DescriptionCondition = {
  field: 'description';
  op: 'contains' | 'startsWith' | 'equals' | 'matches';
  value: string;
};
/**
 * Minor units of `currency` (the home currency when it names none): it holds only for rows of
 * accounts in that currency, so 3,000 yen never meets a condition on 30.00 euros.
 */
export type AmountCondition = (
  | { field: 'amount'; op: 'eq' | 'lt' | 'gt'; value: number }
  | { field: 'amount'; op: 'between'; value: [number, number] }
) & { currency?: string };
export type AccountCondition = { field: 'account'; op: 'equals'; value: string };
export type RuleCondition = DescriptionCondition | AmountCondition | AccountCondition;

export interface RuleActions {
  /** A category name (created when missing). */
  category?: string;
  type?: TransactionType;
  /** A new description (rename). */
  description?: string;
}

export interface RuleDto {
  id: number;
  name: string;
  conditions: RuleCondition[];
  actions: RuleActions;
  priority: number;
  enabled: boolean;
}

const ruleText = text({ max: RULE_TEXT_MAX }).min(1, 'must not be empty');

/** Parses one condition; the issues name `field`, `op` or `value` under the condition's path. */
export const ruleConditionSchema = z
  .object({
    field: text({ max: 32 }),
    op: text({ max: 32 }),
    value: z.unknown(),
    currency: currencySchema.optional(),
  })
  .strict()
  .transform((raw, ctx): RuleCondition => {
    const fail = (path: 'field' | 'op' | 'value' | 'currency', message: string) => {
      ctx.addIssue({ code: 'custom', path: [path], message });
      return z.NEVER;
    };
    if (!Object.hasOwn(RULE_OPS, raw.field))
      return fail('field', `unknown field '${raw.field}' (use ${RULE_FIELDS.join(', ')})`);
    const field = raw.field as RuleField;
    const ops: readonly string[] = RULE_OPS[field];
    if (!ops.includes(raw.op)) return fail('op', `unknown operator '${raw.op}' for ${field} (use ${ops.join(', ')})`);
    if (raw.currency !== undefined && field !== 'amount')
      return fail('currency', 'a currency applies to amount conditions only');
    if (field === 'amount') {
      const currency = raw.currency !== undefined ? { currency: raw.currency } : {};
      if (raw.op === 'between') {
        const pair = z.tuple([centsSchema, centsSchema]).safeParse(raw.value);
        if (!pair.success) return fail('value', 'between takes two amounts in cents, [low, high]');
        const [low, high] = pair.data;
        if (low > high) return fail('value', 'between takes [low, high] with low not above high');
        return { field, op: 'between', value: [low, high], ...currency };
      }
      const cents = centsSchema.safeParse(raw.value);
      if (!cents.success) return fail('value', must(cents.error.issues[0], 'a failed parse has an issue').message);
      return { field, op: raw.op as 'eq' | 'lt' | 'gt', value: cents.data, ...currency };
    }
    const value = ruleText.safeParse(raw.value);
    if (!value.success) return fail('value', must(value.error.issues[0], 'a failed parse has an issue').message);
    if (raw.op === 'matches') {
      const check = checkRegex(value.data);
      if (!check.ok) return fail('value', `unsafe or invalid regular expression: ${check.message}`);
    }
    if (field === 'account') return { field, op: 'equals', value: value.data };
    return { field, op: raw.op as DescriptionCondition['op'], value: value.data };
  });

export const ruleConditionsSchema = z
  .array(ruleConditionSchema, { error: 'must be a list of conditions' })
  .min(1, 'must hold at least one condition (a rule without one would match every transaction)')
  .max(MAX_CONDITIONS_PER_RULE, `must hold at most ${MAX_CONDITIONS_PER_RULE} conditions`);

const emptyToUndefined = (value: string | undefined) => (value ? value : undefined);

export const ruleActionsSchema = z
  .object(
    {
      category: text({ max: 255 })
        .optional()
        .transform(emptyToUndefined)
        .refine((name) => !isReservedCategoryName(name), {
          message: reservedCategoryOnTransactionMessage('Uncategorized'),
        }),
      type: transactionTypeSchema.optional(),
      description: text({ max: DESCRIPTION_MAX_LENGTH }).optional().transform(emptyToUndefined),
    },
    { error: 'must be an object such as {"category": "Groceries"}' },
  )
  .strict()
  .transform((actions): RuleActions => {
    const out: RuleActions = {};
    if (actions.category) out.category = actions.category;
    if (actions.type) out.type = actions.type;
    if (actions.description) out.description = actions.description;
    return out;
  })
  .refine((actions) => Object.keys(actions).length > 0, `must set at least one of ${RULE_ACTION_FIELDS.join(', ')}`);

export const rulePrioritySchema = z
  .number({ error: `must be a whole number from ${RULE_PRIORITY_MIN} to ${RULE_PRIORITY_MAX}` })
  .int(`must be a whole number from ${RULE_PRIORITY_MIN} to ${RULE_PRIORITY_MAX}`)
  .min(RULE_PRIORITY_MIN, `is out of range: must be from ${RULE_PRIORITY_MIN} to ${RULE_PRIORITY_MAX}`)
  .max(RULE_PRIORITY_MAX, `is out of range: must be from ${RULE_PRIORITY_MIN} to ${RULE_PRIORITY_MAX}`);

export const createRuleSchema = z
  .object({
    name: requiredText('Rule name'),
    conditions: ruleConditionsSchema,
    actions: ruleActionsSchema,
    priority: rulePrioritySchema.default(DEFAULT_RULE_PRIORITY),
    enabled: z.boolean({ error: 'must be true or false' }).default(true),
    /** Creates the category the actions name when there is none (otherwise such a rule is refused, 422). */
    createCategory: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict();
export type CreateRuleInput = z.infer<typeof createRuleSchema>;

export const updateRuleSchema = z
  .object({
    name: requiredText('Rule name').optional(),
    conditions: ruleConditionsSchema.optional(),
    actions: ruleActionsSchema.optional(),
    priority: rulePrioritySchema.optional(),
    enabled: z.boolean({ error: 'must be true or false' }).optional(),
    createCategory: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict();
export type UpdateRuleInput = z.infer<typeof updateRuleSchema>;

/** Ids in the order a person arranged them: priorities become 10, 20, 30, ... */
export const reorderRulesSchema = z.object({ ids: z.array(idSchema).min(1).max(MAX_RULES_PER_USER) }).strict();
export type ReorderRulesInput = z.infer<typeof reorderRulesSchema>;

/** "Matches N of your transactions" for a rule being edited. */
export const countRuleMatchesSchema = z.object({ conditions: ruleConditionsSchema }).strict();
export type CountRuleMatchesInput = z.infer<typeof countRuleMatchesSchema>;

export interface RuleMatchCount {
  matched: number;
  /** Transactions a rule could change (split transactions and their parts are left alone). */
  total: number;
  /** The newest few matches. */
  sample: { id: number; postDate: string; description: string; amount: number }[];
}

/** The most changes an apply answer lists; `changed` counts them all. */
export const MAX_APPLY_CHANGES = 1000;

export const applyRulesSchema = z
  .object({
    startDate: isoDateSchema.optional(),
    endDate: isoDateSchema.optional(),
    ruleIds: z.array(idSchema).max(MAX_RULES_PER_USER).optional(),
    onlyUncategorized: z.boolean({ error: 'must be true or false' }).default(true),
    dryRun: z.boolean({ error: 'must be true or false' }).default(false),
  })
  .strict()
  .refine((r) => !r.startDate || !r.endDate || r.startDate <= r.endDate, {
    message: 'Start date must not be after end date',
    path: ['endDate'],
  });
export type ApplyRulesInput = z.infer<typeof applyRulesSchema>;

export interface RuleChange {
  /** The transaction's id, and what a person knows it by: its date, description (before a rename) and amount. */
  id: number;
  postDate: string;
  description: string;
  amount: number;
  field: RuleActionField;
  from: string | null;
  to: string;
  ruleId: number;
}

export interface ApplyRulesResult {
  dryRun: boolean;
  /** Transactions at least one rule matched. */
  matched: number;
  /** Transactions whose category, type or description changes (or changed). */
  changed: number;
  /** Each changed field, at most MAX_APPLY_CHANGES. */
  changes: RuleChange[];
  /** True when `changes` was cut at MAX_APPLY_CHANGES. */
  truncated: boolean;
}

export { TRANSACTION_TYPES };
