import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeIssues } from '../../src/shared/errors';
import { runSteps } from '../../src/shared/csv/steps';
import {
  applyRules,
  checkRegex,
  compileRulePattern,
  conditionsMatch,
  createRuleSchema,
  planImportRows,
  regexLiteral,
  RuleSet,
  type RuleCondition,
  type RuleDto,
  type RuleRow,
} from '../../src/shared/rules';

/** Rule builder: `rule(1, [cond], {category: 'x'})`. */
function rule(
  id: number,
  conditions: RuleCondition[],
  actions: RuleDto['actions'],
  priority = 100,
  enabled = true,
): RuleDto {
  return { id, name: `r${id}`, conditions, actions, priority, enabled };
}
function row(description: string, amount = -100, account: string | null = 'Checking'): RuleRow {
  return { description, amount, account };
}
const contains = (value: string): RuleCondition => ({ field: 'description', op: 'contains', value });

describe('checkRegex', () => {
  it.each([
    ['literal', 'starbucks'],
    ['anchors and classes', '^amzn mktp [a-z0-9]{4,10}$'],
    ['one star', 'tesco.*store'],
    ['many unbounded quantifiers', '.*a.*b.*c.*d'],
    ['a repeated group holding a quantifier', '(a+)+$'],
    ['a repeated alternation', '(a|ab)*c'],
    ['alternation, not repeated', '(?:costa|starbucks) coffee'],
    ['optional group with quantifier', '(ref \\d+)?'],
    ['named group', '(?<shop>aldi) \\d{3}'],
    ['unicode property', '\\p{L}+'],
    ['escaped parens', '\\(card\\)'],
    ['a JavaScript code point escape', 'caf\\u00e9'],
  ])('accepts %s: %s', (_label, pattern) => {
    expect(checkRegex(pattern)).toEqual({ ok: true });
  });

  it.each([
    ['backreference', '(a)\\1', /backreference \(\\1\)/],
    ['named backreference', '(?<x>a)\\k<x>', /named backreference/],
    ['lookahead', 'foo(?=bar)', /lookahead/],
    ['negative lookahead', 'foo(?!bar)', /negative lookahead/],
    ['lookbehind', '(?<=x)y', /lookbehind/],
    ['negative lookbehind', '(?<!x)y', /negative lookbehind/],
    ['atomic group', '(?>ab)c', /atomic group/],
    ['possessive quantifier', 'a++b', /possessive quantifier/],
    ['a program too large to run over many rows', '.{0,50}'.repeat(20), /too complex: it compiles to \d+ steps/],
    ['a repeat count RE2 refuses', 'a{1001}', /invalid repeat count/],
    ['does not compile', '(unclosed', /not a valid regular expression/],
    ['empty', '', /must not be empty/],
    ['too long', 'x'.repeat(201), /at most 200/],
  ])('refuses %s: %s', (_label, pattern, message) => {
    const check = checkRegex(pattern);
    expect(check.ok).toBe(false);
    expect(!check.ok && check.message).toMatch(message);
  });

  it('a backreference-like escape inside a class is no backreference', () => {
    expect(checkRegex('[\\1-9]').ok).toBe(false);
    expect(checkRegex('[(?=]x').ok).toBe(true);
  });

  it('never throws, and what it accepts matches the way JavaScript would where both can run (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom(...'ab.*+?|()[]{}\\^$1,2k<>=!:-'.split('')), maxLength: 24 }),
        fc.string({ unit: fc.constantFrom('a', 'b', 'ab', ' '), maxLength: 12 }),
        (pattern, text) => {
          const compiled = compileRulePattern(pattern);
          if (!compiled.ok) return;
          let js: RegExp;
          try {
            js = new RegExp(pattern, 'iu');
          } catch {
            return;
          }
          expect(compiled.pattern.test(text)).toBe(js.test(text));
        },
      ),
      { numRuns: 2000 },
    );
  }, 120_000);
});

describe('createRuleSchema', () => {
  const base = { name: 'Coffee', conditions: [contains('starbucks')], actions: { category: 'Coffee Shops' } };
  it('takes a condition list and an action and fills the defaults', () => {
    const parsed = createRuleSchema.parse({
      name: 'Coffee',
      conditions: [contains('starbucks'), { field: 'amount', op: 'lt', value: 0 }],
      actions: { category: 'Coffee Shops' },
      priority: 10,
      enabled: true,
    });
    expect(parsed.conditions[1]).toEqual({ field: 'amount', op: 'lt', value: 0 });
    expect(createRuleSchema.parse(base)).toMatchObject({ priority: 100, enabled: true });
  });

  it.each([
    [
      'an unknown field',
      { conditions: [{ field: 'payee', op: 'equals', value: 'x' }] },
      /conditions\.0\.field: unknown field 'payee'/,
    ],
    // An object's inherited names are not fields (the API fuzz found `valueOf` answering 500).
    [
      'an inherited name as field',
      { conditions: [{ field: 'valueOf', op: 'op-value', value: null }] },
      /conditions\.0\.field: unknown field 'valueOf'/,
    ],
    [
      '__proto__ as field',
      { conditions: [{ field: '__proto__', op: 'equals', value: 'x' }] },
      /conditions\.0\.field: unknown field '__proto__'/,
    ],
    [
      'an unknown operator',
      { conditions: [{ field: 'amount', op: 'contains', value: 'x' }] },
      /conditions\.0\.op: unknown operator 'contains' for amount/,
    ],
    [
      'a regex with a lookbehind',
      { conditions: [{ field: 'description', op: 'matches', value: '(?<=a)b' }] },
      /conditions\.0\.value: unsafe or invalid regular expression/,
    ],
    ['an empty condition list', { conditions: [] }, /conditions: must hold at least one condition/],
    ['a priority out of range', { priority: 10_001 }, /priority: is out of range/],
    ['a negative priority', { priority: -1 }, /priority: is out of range/],
    ['no action', { actions: {} }, /actions: must set at least one of category, type, description/],
    ['the reserved category', { actions: { category: 'uncategorized' } }, /actions\.category: .*reserved/],
    ['an unknown type', { actions: { type: 'gift' } }, /actions\.type/],
    [
      'between in the wrong order',
      { conditions: [{ field: 'amount', op: 'between', value: [10, 5] }] },
      /conditions\.0\.value: between takes \[low, high\]/,
    ],
    [
      'fractional cents',
      { conditions: [{ field: 'amount', op: 'eq', value: 1.5 }] },
      /conditions\.0\.value: must be a whole number of cents/,
    ],
    ['an empty text', { conditions: [contains('  ')] }, /conditions\.0\.value: must not be empty/],
    [
      'a control character',
      { conditions: [contains('a\u0000b')] },
      /conditions\.0\.value: must not contain control characters/,
    ],
  ])('refuses %s with a message naming it', (_label, change, message) => {
    const result = createRuleSchema.safeParse({ ...base, ...change });
    expect(result.success).toBe(false);
    expect(describeIssues(result.error!.issues)).toMatch(message);
  });
});

describe('applyRules', () => {
  const coffee = rule(
    1,
    [contains('starbucks'), { field: 'amount', op: 'lt', value: 0 }],
    { category: 'Coffee Shops' },
    10,
  );
  it.each<[string, RuleDto[], RuleRow, ReturnType<typeof applyRules>]>([
    ['no rules', [], row('STARBUCKS 123'), { actions: {}, ruleIds: {} }],
    [
      'case-insensitive contains',
      [coffee],
      row('Card STARBUCKS #12'),
      { actions: { category: 'Coffee Shops' }, ruleIds: { category: 1 } },
    ],
    ['the amount condition fails for money in', [coffee], row('STARBUCKS refund', 450), { actions: {}, ruleIds: {} }],
    [
      'accents fold like search (NFC)',
      [rule(2, [contains('café')], { category: 'Cafe' })],
      row('CAFE\u0301 DU MONDE'),
      { actions: { category: 'Cafe' }, ruleIds: { category: 2 } },
    ],
    [
      'startsWith',
      [rule(3, [{ field: 'description', op: 'startsWith', value: 'amzn' }], { category: 'Shopping' })],
      row('AMZN Mktp'),
      { actions: { category: 'Shopping' }, ruleIds: { category: 3 } },
    ],
    [
      'startsWith misses the middle',
      [rule(3, [{ field: 'description', op: 'startsWith', value: 'mktp' }], { category: 'Shopping' })],
      row('AMZN Mktp'),
      { actions: {}, ruleIds: {} },
    ],
    [
      'equals is whole text',
      [rule(4, [{ field: 'description', op: 'equals', value: 'rent' }], { type: 'transfer' })],
      row('RENT'),
      { actions: { type: 'transfer' }, ruleIds: { type: 4 } },
    ],
    [
      'matches',
      [rule(5, [{ field: 'description', op: 'matches', value: '^tfl\\s+\\d+' }], { category: 'Transport' })],
      row('TFL 0042 LONDON'),
      { actions: { category: 'Transport' }, ruleIds: { category: 5 } },
    ],
    [
      'between is inclusive',
      [rule(6, [{ field: 'amount', op: 'between', value: [-500, -100] }], { category: 'Small' })],
      row('x', -500),
      { actions: { category: 'Small' }, ruleIds: { category: 6 } },
    ],
    [
      'amount eq',
      [rule(7, [{ field: 'amount', op: 'eq', value: -999 }], { category: 'Netflix' })],
      row('x', -999),
      { actions: { category: 'Netflix' }, ruleIds: { category: 7 } },
    ],
    [
      'amount gt',
      [rule(7, [{ field: 'amount', op: 'gt', value: 0 }], { type: 'credit' })],
      row('x', 1),
      { actions: { type: 'credit' }, ruleIds: { type: 7 } },
    ],
    [
      'account equals, any case',
      [rule(8, [{ field: 'account', op: 'equals', value: 'checking' }], { category: 'A' })],
      row('x', -1, 'CHECKING'),
      { actions: { category: 'A' }, ruleIds: { category: 8 } },
    ],
    [
      'account equals fails without an account',
      [rule(8, [{ field: 'account', op: 'equals', value: 'checking' }], { category: 'A' })],
      row('x', -1, null),
      { actions: {}, ruleIds: {} },
    ],
    [
      'lower priority wins per field, later rules fill other fields',
      [
        rule(1, [contains('shell')], { category: 'Fuel', description: 'Shell' }, 20),
        rule(2, [contains('shell')], { category: 'Car', type: 'charge' }, 10),
      ],
      row('SHELL 0423'),
      {
        actions: { category: 'Car', type: 'charge', description: 'Shell' },
        ruleIds: { category: 2, type: 2, description: 1 },
      },
    ],
    [
      'equal priority: lower id wins',
      [rule(9, [contains('a')], { category: 'Nine' }), rule(3, [contains('a')], { category: 'Three' })],
      row('a'),
      { actions: { category: 'Three' }, ruleIds: { category: 3 } },
    ],
    [
      'disabled rules are skipped',
      [rule(1, [contains('a')], { category: 'Off' }, 0, false), rule(2, [contains('a')], { category: 'On' })],
      row('a'),
      { actions: { category: 'On' }, ruleIds: { category: 2 } },
    ],
    [
      'conditions see the original description, not a rename',
      [rule(1, [contains('a')], { description: 'zzz' }, 1), rule(2, [contains('zzz')], { category: 'Z' }, 2)],
      row('a'),
      { actions: { description: 'zzz' }, ruleIds: { description: 1 } },
    ],
  ])('%s', (_label, rules, input, expected) => {
    expect(applyRules(rules, input)).toEqual(expected);
  });

  const conditionArb = fc.oneof(
    fc
      .constantFrom('a', 'b', 'ab', 'xy', 'abc', 'bca', 'BBA', 'xyz', 'éclair')
      .map((value): RuleCondition => ({ field: 'description', op: 'contains', value })),
    fc.constantFrom('abc', 'xyzzy').map((value): RuleCondition => ({ field: 'description', op: 'equals', value })),
    fc
      .constantFrom('a', 'x', 'abc', 'xyz')
      .map((value): RuleCondition => ({ field: 'description', op: 'startsWith', value })),
    fc.integer({ min: -3, max: 3 }).map((value): RuleCondition => ({ field: 'amount', op: 'lt', value })),
    fc.integer({ min: -3, max: 3 }).map((value): RuleCondition => ({ field: 'amount', op: 'gt', value })),
    fc.constantFrom('A', 'B').map((value): RuleCondition => ({ field: 'account', op: 'equals', value })),
    fc
      .constantFrom('^abc', 'xyz$', 'ab?c', 'bca|xyz', '(abc)+', '[xyz]{3}', 'zab*c', 'a\\w{2}a', 'cla')
      .map((value): RuleCondition => ({ field: 'description', op: 'matches', value })),
  );
  const actionsArb = fc
    .record(
      {
        category: fc.constantFrom('C1', 'C2', 'C3'),
        type: fc.constantFrom('debit' as const, 'transfer' as const),
        description: fc.constantFrom('D1', 'D2'),
      },
      { requiredKeys: [] },
    )
    .filter((a) => Object.keys(a).length > 0);
  const rulesArb = fc.uniqueArray(
    fc.record({
      id: fc.integer({ min: 1, max: 50 }),
      conditions: fc.array(conditionArb, { minLength: 1, maxLength: 3 }),
      actions: actionsArb,
      priority: fc.integer({ min: 0, max: 5 }),
      enabled: fc.boolean(),
    }),
    { selector: (r) => r.id, maxLength: 8 },
  );
  const rowArb = fc.record({
    description: fc.constantFrom(
      'a',
      'ab',
      'XY',
      'bxa',
      'Abba',
      '',
      'abc',
      'ABCA',
      'xyzzy',
      'zabcaz',
      'BBAbca',
      'E\u0301CLAIRS',
      'xyz abc',
    ),
    amount: fc.integer({ min: -4, max: 4 }),
    account: fc.constantFrom('A', 'b', null),
  });

  it('matches a brute-force reading of the rule order, for any rules and row (property)', () => {
    fc.assert(
      fc.property(rulesArb, rowArb, (raw, input) => {
        const rules = raw.map((r) => ({ ...r, name: `r${r.id}` }));
        const expected: ReturnType<typeof applyRules> = { actions: {}, ruleIds: {} };
        const ordered = rules.filter((r) => r.enabled).sort((a, b) => a.priority - b.priority || a.id - b.id);
        for (const field of ['category', 'type', 'description'] as const) {
          const winner = ordered.find((r) => r.actions[field] !== undefined && conditionsMatch(r.conditions, input));
          if (winner) {
            (expected.actions as Record<string, unknown>)[field] = winner.actions[field];
            expected.ruleIds[field] = winner.id;
          }
        }
        expect(applyRules(rules, input)).toEqual(expected);
        // A compiled set reused over many rows (the candidate marks) answers the same.
        const set = RuleSet.compile(rules);
        expect([set.apply(input), set.apply({ ...input, description: 'zzz' }), set.apply(input)]).toEqual([
          expected,
          set.apply({ ...input, description: 'zzz' }),
          expected,
        ]);
        // For one account, the narrowed set gives the same outcome.
        expect(RuleSet.compile(rules).forAccount(input.account, 'USD').apply(input)).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  }, 120_000);
});

describe('amount conditions and currencies', () => {
  const under30: RuleCondition = { field: 'amount', op: 'lt', value: -3000 };
  const yen = (amount: number): RuleRow => ({ description: 'SHOP', amount, account: 'Yen', currency: 'JPY' });
  const euro = (amount: number): RuleRow => ({ description: 'SHOP', amount, account: 'Euro', currency: 'EUR' });
  it.each<[string, RuleCondition, string | undefined, RuleRow, boolean]>([
    ['no currency: the home currency', under30, 'EUR', euro(-4000), true],
    ['no currency: not another currency', under30, 'EUR', yen(-4000), false],
    ['a named currency holds in it', { ...under30, currency: 'JPY' }, 'EUR', yen(-4000), true],
    ['a named currency only in it', { ...under30, currency: 'JPY' }, 'EUR', euro(-4000), false],
    [
      'between in a named currency',
      { field: 'amount', op: 'between', value: [-5000, -3000], currency: 'JPY' },
      'EUR',
      yen(-4000),
      true,
    ],
    ['eq in another currency', { field: 'amount', op: 'eq', value: -4000, currency: 'GBP' }, 'EUR', euro(-4000), false],
    [
      'gt with the amount out of bounds',
      { field: 'amount', op: 'gt', value: 0, currency: 'EUR' },
      'EUR',
      euro(-4000),
      false,
    ],
    ['no home given: any currency, as before currencies', under30, undefined, yen(-4000), true],
    ['a row that does not say its currency', { ...under30, currency: 'JPY' }, 'EUR', row('SHOP', -4000), true],
  ])('%s', (_name, condition, home, input, matched) => {
    const set = RuleSet.compile([rule(1, [condition], { category: 'Big' })], home);
    expect(set.apply(input).actions.category === 'Big').toBe(matched);
  });

  it('forAccount drops the rules whose amounts are in another currency', () => {
    const rules = [
      rule(1, [under30], { category: 'Home' }),
      rule(2, [{ ...under30, currency: 'JPY' }], { type: 'debit' }),
      rule(3, [{ field: 'description', op: 'contains', value: 'shop' }], { description: 'Shop' }),
    ];
    const forYen = RuleSet.compile(rules, 'EUR').forAccount('Yen', 'JPY');
    expect(forYen.size).toBe(2);
    expect(forYen.apply(row('SHOP', -4000, 'Yen')).actions).toEqual({ type: 'debit', description: 'Shop' });
  });

  it('the schema keeps an amount condition’s currency in upper case and refuses it elsewhere', () => {
    const parse = (condition: unknown) =>
      createRuleSchema.safeParse({ name: 'r', conditions: [condition], actions: { category: 'c' } });
    const parsed = parse({ field: 'amount', op: 'lt', value: 0, currency: 'jpy' });
    expect(parsed.success && parsed.data.conditions).toEqual([
      { field: 'amount', op: 'lt', value: 0, currency: 'JPY' },
    ]);
    const bad = parse({ field: 'amount', op: 'lt', value: 0, currency: 'YEN' });
    expect(!bad.success && describeIssues(bad.error.issues)).toMatch(/conditions\.0\.currency: must be an ISO 4217/);
    const onText = parse({ field: 'description', op: 'contains', value: 'x', currency: 'EUR' });
    expect(!onText.success && describeIssues(onText.error.issues)).toMatch(
      /conditions\.0\.currency: a currency applies to amount conditions only/,
    );
  });
});

describe('the literal a regular expression needs (the rules prefilter)', () => {
  it.each([
    ['^ref12\\d+ [a-z]+$', 'ref12'],
    ['STARBUCKS', 'starbucks'],
    ['coffee?', 'coffe'],
    ['abcd*', 'abc'],
    ['ab{0,2}cde', 'cde'],
    ['tesco|lidl', ''],
    ['(tesco|lidl) store', ' store'],
    ['[abc]def', 'def'],
    ['x\\.yz', 'yz'],
    ['uber\\s+trip', 'uber'],
  ])('%s needs %j', (pattern, literal) => {
    expect(regexLiteral(pattern)).toBe(literal);
  });
});

describe('planImportRows', () => {
  const rules = RuleSet.compile([
    rule(1, [contains('starbucks')], { category: 'Coffee', description: 'Starbucks' }),
    rule(2, [contains('rent')], { type: 'transfer' }),
  ]);
  const typeOf = (amount: number) => (amount < 0 ? ('debit' as const) : ('credit' as const));
  it('runs rules, keeps the bank category unless a rule sets one, and says where each category came from', () => {
    const rows = [
      { line: 2, postDate: '2024-01-01', description: 'STARBUCKS 12', amount: -450, category: 'Dining' },
      { line: 3, postDate: '2024-01-02', description: 'Rent Jan', amount: -90000, category: 'Housing' },
      { line: 4, postDate: '2024-01-03', description: 'Salary', amount: 100000, category: null },
      { line: 5, postDate: '2024-01-04', description: 'Odd', amount: -1, category: 'uncategorized' },
    ];
    const planned = runSteps(planImportRows(rows, rules, 'Checking', typeOf));
    expect(
      planned.map((r) => [r.description, r.bankDescription, r.category, r.categoryOrigin, r.type, r.ruleIds]),
    ).toEqual([
      ['Starbucks', 'STARBUCKS 12', 'Coffee', 'rule', 'debit', { category: 1, description: 1 }],
      ['Rent Jan', 'Rent Jan', 'Housing', 'bank', 'transfer', { type: 2 }],
      ['Salary', 'Salary', null, null, 'credit', {}],
      ['Odd', 'Odd', null, null, 'debit', {}],
    ]);
    expect(planned[0].line).toBe(2);
  });
});
