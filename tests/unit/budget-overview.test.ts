import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeBudgetOverview,
  isCountedTransaction,
  isSplitRelated,
  matchesLineItem,
  transactionCategoryKey,
  type OverviewLineItem,
  type OverviewTransaction,
} from '../../src/shared/budget';
import { LINE_ITEM_TYPES } from '../../src/shared/schemas/budgets';
import { TRANSACTION_TYPES } from '../../src/shared/schemas/transactions';

/** Transaction builder: type follows the sign unless given. */
function tx(
  id: number,
  amount: number,
  category: string | null,
  extra: Partial<OverviewTransaction> = {},
): OverviewTransaction {
  return {
    id,
    amount,
    category,
    type: amount < 0 ? 'debit' : 'credit',
    isSplit: false,
    parentTransactionId: null,
    ...extra,
  };
}
function item(
  id: number,
  name: string,
  type: OverviewLineItem['type'],
  amount: number,
  relatedCategories: string[],
): OverviewLineItem {
  return { id, name, type, amount, relatedCategories };
}

describe('computeBudgetOverview: a hand-computed month', () => {
  const lineItems = [
    item(1, 'Pay', 'Income', 500000, ['Salary']),
    item(2, 'Rent', 'Fixed', 150000, [' rent ']),
    item(3, 'Food', 'Variable', 60000, ['Groceries', 'Dining']),
    item(4, 'Savings', 'NotCounted', 100000, ['Transfer']),
    item(5, 'Misc', 'Variable', 10000, ['Uncategorized']),
    item(6, 'Insurance', 'Fixed', 2000, []),
  ];
  const transactions = [
    tx(1, 520000, 'salary'),
    tx(2, -150000, 'Rent'),
    tx(3, -12345, 'GROCERIES'),
    tx(4, -4000, ' dining '),
    tx(5, 1000, 'Groceries'), // a refund lowers Food's actual
    tx(6, -100000, 'Transfer', { type: 'transfer' }),
    tx(7, -2500, null), // uncategorised -> Misc
    tx(8, -7700, 'Hobbies'), // untracked
    tx(9, -9000, null, { isSplit: true, type: 'charge' }), // split parent: never counted
    tx(10, -6000, 'Groceries', { parentTransactionId: 9, type: 'charge' }),
    tx(11, -3000, 'Gifts', { parentTransactionId: 9, type: 'charge' }), // untracked child
    tx(12, 2000, 'hobbies'), // untracked refund
    tx(13, -50, '  '), // blank category is uncategorised
  ];
  const overview = computeBudgetOverview(transactions, lineItems);

  it('per line item: budgeted, oriented actual, count, keys and ids', () => {
    expect(overview.lineItems).toEqual([
      {
        id: 1,
        name: 'Pay',
        type: 'Income',
        budgeted: 500000,
        actual: 520000,
        transactionCount: 1,
        categories: ['salary'],
        transactionIds: [1],
      },
      {
        id: 2,
        name: 'Rent',
        type: 'Fixed',
        budgeted: 150000,
        actual: 150000,
        transactionCount: 1,
        categories: ['rent'],
        transactionIds: [2],
      },
      {
        id: 3,
        name: 'Food',
        type: 'Variable',
        budgeted: 60000,
        actual: 21345,
        transactionCount: 4,
        categories: ['groceries', 'dining'],
        transactionIds: [3, 4, 5, 10],
      },
      {
        id: 4,
        name: 'Savings',
        type: 'NotCounted',
        budgeted: 100000,
        actual: 100000,
        transactionCount: 1,
        categories: ['transfer'],
        transactionIds: [6],
      },
      {
        id: 5,
        name: 'Misc',
        type: 'Variable',
        budgeted: 10000,
        actual: 2550,
        transactionCount: 2,
        categories: ['uncategorized'],
        transactionIds: [7, 13],
      },
      {
        id: 6,
        name: 'Insurance',
        type: 'Fixed',
        budgeted: 2000,
        actual: 0,
        transactionCount: 0,
        categories: [],
        transactionIds: [],
      },
    ]);
  });

  it('Untracked is id -1 with the sorted keys of categories tied to no line item', () => {
    expect(overview.untracked).toEqual({
      id: -1,
      name: 'Untracked',
      type: 'Untracked',
      budgeted: 0,
      actual: 7700 + 3000 - 2000,
      transactionCount: 3,
      categories: ['gifts', 'hobbies'],
      transactionIds: [8, 11, 12],
    });
  });

  it('budgeted and actual figures; nets = income - (fixed + variable)', () => {
    expect(overview.budgeted).toEqual({
      income: 500000,
      fixed: 152000,
      variable: 70000,
      notCounted: 100000,
      net: 278000,
    });
    expect(overview.actual).toEqual({
      income: 520000,
      fixed: 150000,
      variable: 23895,
      notCounted: 100000,
      untracked: 8700,
      net: 346105,
    });
  });

  it('groups by type in the fixed order, Untracked last', () => {
    expect(overview.byType.map((g) => [g.type, g.items.map((i) => i.id), g.budgeted, g.actual])).toEqual([
      ['Income', [1], 500000, 520000],
      ['Fixed', [2, 6], 152000, 150000],
      ['Variable', [3, 5], 70000, 23895],
      ['NotCounted', [4], 100000, 100000],
      ['Untracked', [-1], 0, 8700],
    ]);
  });

  it('type totals, count and total exclude the split parent; the split row counts parents and children', () => {
    expect(overview.typeTotals).toEqual([
      { type: 'credit', total: 523000, count: 3 },
      { type: 'debit', total: -176595, count: 6 },
      { type: 'charge', total: -9000, count: 2 },
      { type: 'transfer', total: -100000, count: 1 },
    ]);
    expect(overview.transactionCount).toBe(12);
    expect(overview.total).toBe(237405);
    expect(overview.splits).toEqual({ parentCount: 1, childCount: 2, childTotal: -9000 });
  });
});

describe('computeBudgetOverview: edge cases', () => {
  it('no transactions and no line items', () => {
    const o = computeBudgetOverview([], []);
    expect(o.typeTotals).toEqual(TRANSACTION_TYPES.map((type) => ({ type, total: 0, count: 0 })));
    expect(o.lineItems).toEqual([]);
    expect(o.untracked).toMatchObject({ actual: 0, transactionCount: 0, categories: [], transactionIds: [] });
    expect(o.byType.map((g) => g.items.length)).toEqual([0, 0, 0, 0, 1]);
    expect(o.actual).toEqual({ income: 0, fixed: 0, variable: 0, notCounted: 0, untracked: 0, net: 0 });
    expect(o.budgeted).toEqual({ income: 0, fixed: 0, variable: 0, notCounted: 0, net: 0 });
    expect([o.transactionCount, o.total]).toEqual([0, 0]);
  });

  it('a transaction whose category is related to several line items counts in each (documented double count)', () => {
    const o = computeBudgetOverview(
      [tx(1, -100, 'Food')],
      [
        item(1, 'Eating', 'Variable', 0, ['food']),
        item(2, 'Shared', 'NotCounted', 0, ['FOOD ']),
        item(3, 'Again', 'Variable', 0, ['Food']),
      ],
    );
    expect(o.lineItems.map((i) => [i.actual, i.transactionIds])).toEqual([
      [100, [1]],
      [100, [1]],
      [100, [1]],
    ]);
    expect(o.actual.variable).toBe(200);
    expect([o.total, o.transactionCount, o.untracked.transactionCount]).toEqual([-100, 1, 0]);
  });

  it.each([
    ['Income item: refund-like negative lowers it', 'Income', [300, -100], 200],
    ['Fixed item: spending shows positive', 'Fixed', [-300], 300],
    ['Variable item: a refund reduces it', 'Variable', [-300, 100], 200],
    ['NotCounted item', 'NotCounted', [-300], 300],
    ['Variable item: net refund is negative', 'Variable', [500], -500],
    ['Fixed item: zero sum is 0, not -0', 'Fixed', [100, -100], 0],
  ] as const)('orientation: %s', (_label, type, amounts, actual) => {
    const o = computeBudgetOverview(
      amounts.map((amount, i) => tx(i + 1, amount, 'x')),
      [item(1, 'X', type, 0, ['X'])],
    );
    expect(Object.is(o.lineItems[0].actual, actual)).toBe(true);
  });

  it('a line item related to "Uncategorized" catches null, empty and blank categories', () => {
    const o = computeBudgetOverview(
      [tx(1, -1, null), tx(2, -2, ''), tx(3, -4, ' \t ')],
      [item(1, 'Misc', 'Variable', 0, [' UNCATEGORIZED '])],
    );
    expect(o.lineItems[0]).toMatchObject({ actual: 7, transactionIds: [1, 2, 3] });
    expect(o.untracked.transactionCount).toBe(0);
  });
});

describe('predicates for the table filters', () => {
  const food = item(3, 'Food', 'Variable', 0, ['Groceries', ' Dining ']);
  const misc = item(5, 'Misc', 'Variable', 0, ['Uncategorized']);
  it.each([
    ['DINING', false, food, true],
    ['  dining', false, food, true],
    ['Groceries', true, food, false], // a split parent never matches
    ['Rent', false, food, false],
    [null, false, misc, true],
    ['', false, misc, true],
    [null, true, misc, false],
    [null, false, food, false],
  ])('matchesLineItem(%j, isSplit %s)', (category, isSplit, lineItem, expected) => {
    expect(matchesLineItem({ category, isSplit }, lineItem)).toBe(expected);
  });

  it.each([
    [null, 'uncategorized'],
    ['', 'uncategorized'],
    ['  ', 'uncategorized'],
    [' Food ', 'food'],
    ['GIFTS', 'gifts'],
  ])('transactionCategoryKey(%j) = %j', (category, key) => {
    expect(transactionCategoryKey({ category })).toBe(key);
  });

  it.each([
    ['plain', false, null, true, false],
    ['split parent', true, null, false, true],
    ['split child', false, 9, true, true],
  ])('%s: counted %s, split-related %s', (_label, isSplit, parentTransactionId, counted, splitRelated) => {
    const t = { isSplit, parentTransactionId };
    expect(isCountedTransaction(t)).toBe(counted);
    expect(isSplitRelated(t)).toBe(splitRelated);
  });
});

describe('overview properties', () => {
  const categoryPool = ['Food', 'food ', 'FOOD', 'Rent', 'Pay', 'Gym', 'Other', 'Gifts', null, '', 'Uncategorized'];
  const arbTransactions = fc
    .array(
      fc.record({
        amount: fc.integer({ min: -1_000_000, max: 1_000_000 }),
        category: fc.constantFrom(...categoryPool),
        type: fc.constantFrom(...TRANSACTION_TYPES),
        isSplit: fc.boolean(),
        child: fc.boolean(),
      }),
      { maxLength: 60 },
    )
    .map((rows) =>
      rows.map(({ child, ...r }, i): OverviewTransaction => ({
        ...r,
        id: i + 1,
        parentTransactionId: child && !r.isSplit ? 1000 + i : null,
      })),
    );
  /** Line items over disjoint category keys (each key belongs to at most one item). */
  const arbLineItems = fc
    .array(
      fc.record({
        type: fc.constantFrom(...LINE_ITEM_TYPES),
        amount: fc.integer({ min: 0, max: 1_000_000 }),
        group: fc.integer({ min: 0, max: 6 }),
      }),
      {
        maxLength: 6,
      },
    )
    .map((rows) => {
      const keysByGroup = [['food'], ['rent'], ['pay', 'gym'], ['uncategorized'], [], ['nothing-matches'], ['gifts']];
      const used = new Set<number>();
      return rows.flatMap((r, i) => {
        if (used.has(r.group)) return [];
        used.add(r.group);
        return [
          item(
            i + 1,
            `Item ${i + 1}`,
            r.type,
            r.amount,
            keysByGroup[r.group].map((k) => (i % 2 ? k.toUpperCase() : ` ${k}`)),
          ),
        ];
      });
    });

  it('Σ typeTotals.total == total; counts agree; split parents never counted', () => {
    fc.assert(
      fc.property(arbTransactions, arbLineItems, (transactions, lineItems) => {
        const o = computeBudgetOverview(transactions, lineItems);
        const counted = transactions.filter((t) => !t.isSplit);
        expect(o.typeTotals.map((t) => t.type)).toEqual([...TRANSACTION_TYPES]);
        expect(o.typeTotals.reduce((s, t) => s + t.total, 0)).toBe(o.total);
        expect(o.typeTotals.reduce((s, t) => s + t.count, 0)).toBe(o.transactionCount);
        expect(o.transactionCount).toBe(counted.length);
        expect(o.total).toBe(counted.reduce((s, t) => s + t.amount, 0));
        const parentIds = new Set(transactions.filter((t) => t.isSplit).map((t) => t.id));
        for (const group of [...o.lineItems, o.untracked])
          for (const id of group.transactionIds) expect(parentIds.has(id)).toBe(false);
        expect(o.splits.parentCount).toBe(parentIds.size);
      }),
    );
  });

  it('removing split parents changes nothing but the split-parent count', () => {
    fc.assert(
      fc.property(arbTransactions, arbLineItems, (transactions, lineItems) => {
        const withParents = computeBudgetOverview(transactions, lineItems);
        const without = computeBudgetOverview(
          transactions.filter((t) => !t.isSplit),
          lineItems,
        );
        expect({ ...withParents, splits: { ...withParents.splits, parentCount: 0 } }).toEqual(without);
      }),
    );
  });

  it('actual.net == signed sum of the Income, Fixed and Variable transactions; budgeted.net likewise', () => {
    fc.assert(
      fc.property(arbTransactions, arbLineItems, (transactions, lineItems) => {
        const o = computeBudgetOverview(transactions, lineItems);
        const netTypes = new Set(['Income', 'Fixed', 'Variable']);
        const signed = transactions
          .filter((t) => lineItems.some((li) => netTypes.has(li.type) && matchesLineItem(t, li)))
          .reduce((s, t) => s + t.amount, 0);
        expect(o.actual.net).toBe(signed);
        expect(o.actual.net).toBe(o.actual.income - (o.actual.fixed + o.actual.variable));
        const budgetedOf = (type: string) =>
          lineItems.filter((li) => li.type === type).reduce((s, li) => s + li.amount, 0);
        expect(o.budgeted.net).toBe(budgetedOf('Income') - (budgetedOf('Fixed') + budgetedOf('Variable')));
      }),
    );
  });

  it('with disjoint categories every counted transaction lands in exactly one line item or in Untracked', () => {
    fc.assert(
      fc.property(arbTransactions, arbLineItems, (transactions, lineItems) => {
        const o = computeBudgetOverview(transactions, lineItems);
        const placed = [...o.lineItems, o.untracked].flatMap((g) => g.transactionIds).sort((a, b) => a - b);
        expect(placed).toEqual(transactions.filter(isCountedTransaction).map((t) => t.id));
        const untrackedIds = transactions
          .filter((t) => isCountedTransaction(t) && !lineItems.some((li) => matchesLineItem(t, li)))
          .map((t) => t.id);
        expect(o.untracked.transactionIds).toEqual(untrackedIds);
        expect(o.untracked.categories).toEqual(
          [...new Set(transactions.filter((t) => untrackedIds.includes(t.id)).map(transactionCategoryKey))].sort(),
        );
      }),
    );
  });
});
