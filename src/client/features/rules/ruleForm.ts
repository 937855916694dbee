/**
 * The rule form's draft (text as typed) and its reading into the shared rule input. Amounts are
 * typed in units ("-4.50") of their condition's currency and read with the app's one amount reader
 * into its minor units. A condition in the home currency is sent without one, as rules made before
 * currencies were.
 */
import { formatAmountInput, formatMoney, minorUnitsOf, readAmount } from '../../../shared/money';
import {
  DEFAULT_RULE_PRIORITY,
  RULE_OPS,
  ruleConditionsSchema,
  type RuleCondition,
  type RuleDto,
  type RuleField,
} from '../../../shared/rules';
import type { TransactionType } from '../../../shared/schemas/transactions';

export interface ConditionDraft {
  field: RuleField;
  op: string;
  /** Text, or the amount (the low one for `between`). */
  value: string;
  /** The high amount for `between`. */
  high: string;
  /** The amount's currency (ISO 4217). */
  currency: string;
}

export interface RuleDraft {
  name: string;
  conditions: ConditionDraft[];
  category: string;
  /** True when `category` is a new one the person chose to create. */
  createCategory: boolean;
  type: TransactionType | '';
  description: string;
  priority: string;
  enabled: boolean;
}

export const OP_LABELS: Record<string, string> = {
  contains: 'contains',
  startsWith: 'starts with',
  equals: 'equals',
  matches: 'matches (regular expression)',
  eq: 'is',
  lt: 'is less than',
  gt: 'is more than',
  between: 'is between',
};

export const FIELD_LABELS: Record<RuleField, string> = {
  description: 'Description',
  amount: 'Amount',
  account: 'Account',
};

export function newCondition(field: RuleField, home: string): ConditionDraft {
  return { field, op: RULE_OPS[field][0], value: '', high: '', currency: home };
}

export function toDraft(rule: RuleDto | null, locale: string, home: string): RuleDraft {
  if (!rule)
    return {
      name: '',
      conditions: [newCondition('description', home)],
      category: '',
      createCategory: false,
      type: '',
      description: '',
      priority: String(DEFAULT_RULE_PRIORITY),
      enabled: true,
    };
  return {
    name: rule.name,
    conditions: rule.conditions.map((c): ConditionDraft => {
      if (c.field !== 'amount') return { field: c.field, op: c.op, value: c.value, high: '', currency: home };
      const currency = c.currency ?? home;
      const shown = (cents: number) => formatAmountInput(cents, locale, minorUnitsOf(currency));
      if (c.op === 'between')
        return { field: 'amount', op: 'between', value: shown(c.value[0]), high: shown(c.value[1]), currency };
      return { field: 'amount', op: c.op, value: shown(c.value), high: '', currency };
    }),
    category: rule.actions.category ?? '',
    createCategory: false,
    type: rule.actions.type ?? '',
    description: rule.actions.description ?? '',
    priority: String(rule.priority),
    enabled: rule.enabled,
  };
}

/** The condition as the API takes it (amounts in minor units), or the message for the field that is wrong. */
export function readCondition(
  draft: ConditionDraft,
  locale: string,
  home: string,
): { ok: true; raw: { field: string; op: string; value: unknown } } | { ok: false; message: string } {
  if (draft.field !== 'amount') return { ok: true, raw: { field: draft.field, op: draft.op, value: draft.value } };
  const options = { locale, fractionDigits: minorUnitsOf(draft.currency) };
  const currency = draft.currency === home ? {} : { currency: draft.currency };
  const low = readAmount(draft.value, 'form', options);
  if (!low.ok) return { ok: false, message: low.message };
  if (draft.op !== 'between')
    return { ok: true, raw: { field: 'amount', op: draft.op, value: low.cents, ...currency } };
  const high = readAmount(draft.high, 'form', options);
  if (!high.ok) return { ok: false, message: high.message };
  return { ok: true, raw: { field: 'amount', op: 'between', value: [low.cents, high.cents], ...currency } };
}

/** All conditions, valid as the server would take them, or null (the live count waits). */
export function readConditions(
  drafts: readonly ConditionDraft[],
  locale: string,
  home: string,
): RuleCondition[] | null {
  const raw: unknown[] = [];
  for (const draft of drafts) {
    const read = readCondition(draft, locale, home);
    if (!read.ok) return null;
    raw.push(read.raw);
  }
  const parsed = ruleConditionsSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}

/** The body of rules.create / rules.update; the server names anything wrong. */
export function ruleInputOf(draft: RuleDraft, locale: string, home: string) {
  return {
    name: draft.name,
    conditions: draft.conditions.map((c) => {
      const read = readCondition(c, locale, home);
      return read.ok ? read.raw : { field: c.field, op: c.op, value: c.value };
    }),
    actions: {
      ...(draft.category.trim() ? { category: draft.category } : {}),
      ...(draft.type ? { type: draft.type } : {}),
      ...(draft.description.trim() ? { description: draft.description } : {}),
    },
    ...(draft.createCategory && draft.category.trim() ? { createCategory: true } : {}),
    priority:
      Number.isFinite(Number(draft.priority)) && draft.priority.trim() !== ''
        ? Number(draft.priority)
        : DEFAULT_RULE_PRIORITY,
    enabled: draft.enabled,
  };
}

/** "Description contains 'starbucks' and Amount is less than $0.00" */
export function describeConditions(conditions: readonly RuleCondition[], home: string): string {
  return conditions
    .map((c) => {
      const money = (cents: number) =>
        formatMoney(cents, { currency: c.field === 'amount' ? (c.currency ?? home) : home });
      const value =
        c.field === 'amount'
          ? c.op === 'between'
            ? `${money(c.value[0])} and ${money(c.value[1])}`
            : money(c.value)
          : `'${c.value}'`;
      return `${FIELD_LABELS[c.field]} ${OP_LABELS[c.op]} ${value}`;
    })
    .join(' and ');
}

/** "category Coffee Shops, type transfer, rename to 'Starbucks'" */
export function describeActions(actions: RuleDto['actions']): string {
  const parts: string[] = [];
  if (actions.category) parts.push(`category ${actions.category}`);
  if (actions.type) parts.push(`type ${actions.type}`);
  if (actions.description) parts.push(`rename to '${actions.description}'`);
  return parts.join(', ');
}
