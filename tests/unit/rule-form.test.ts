import { describe, expect, it } from 'vitest';
import {
  describeConditions,
  newCondition,
  readCondition,
  ruleInputOf,
  toDraft,
  type ConditionDraft,
} from '../../src/client/features/rules/ruleForm';
import type { RuleDto } from '../../src/shared/rules';

/** The rule form's amounts: typed in their condition's currency, sent without one in the home currency. */
const amount = (value: string, currency: string, op = 'lt', high = ''): ConditionDraft => ({
  ...newCondition('amount', 'EUR'),
  op,
  value,
  high,
  currency,
});

describe('rule form amounts in a currency', () => {
  it.each<[string, ConditionDraft, unknown]>([
    [
      'home currency: two decimals, no currency sent',
      amount('-4.50', 'EUR'),
      { field: 'amount', op: 'lt', value: -450 },
    ],
    ['yen: whole yen, named', amount('-1500', 'JPY'), { field: 'amount', op: 'lt', value: -1500, currency: 'JPY' }],
    [
      'dinar: three decimals',
      amount('1.250', 'BHD', 'gt'),
      { field: 'amount', op: 'gt', value: 1250, currency: 'BHD' },
    ],
    [
      'between in yen',
      amount('-2000', 'JPY', 'between', '-1000'),
      { field: 'amount', op: 'between', value: [-2000, -1000], currency: 'JPY' },
    ],
  ])('%s', (_name, draft, raw) => {
    expect(readCondition(draft, 'en-US', 'EUR')).toEqual({ ok: true, raw });
  });

  it('opens a saved rule in its currencies and describes it with them', () => {
    const rule: RuleDto = {
      id: 1,
      name: 'Big',
      conditions: [
        { field: 'amount', op: 'lt', value: -1500, currency: 'JPY' },
        { field: 'amount', op: 'gt', value: -450 },
      ],
      actions: { category: 'Big' },
      priority: 100,
      enabled: true,
    };
    const draft = toDraft(rule, 'en-US', 'EUR');
    expect(draft.conditions.map((c) => [c.value, c.currency])).toEqual([
      ['-1,500', 'JPY'],
      ['-4.50', 'EUR'],
    ]);
    expect(ruleInputOf(draft, 'en-US', 'EUR').conditions).toEqual(rule.conditions);
    expect(describeConditions(rule.conditions, 'EUR')).toBe(
      'Amount is less than −¥1,500 and Amount is more than −€4.50',
    );
  });
});
