import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computeBudgetOverview, isSplitRelated, matchesLineItem, type OverviewLineItem, type OverviewTransaction } from '../../src/shared/budget';
import { parseCategoryList, envelopeTransactions, summarizeEnvelope } from '../../src/shared/envelopes';
import { TRANSACTION_TYPES } from '../../src/shared/schemas/transactions';

let nextId = 1;
function tx(amount: number, category: string | null, extra: Partial<OverviewTransaction> = {}): OverviewTransaction {
  return { id: nextId++, amount, category, type: amount < 0 ? 'debit' : 'credit', isSplit: false, parentTransactionId: null, ...extra };
}
function item(id: number, name: string, type: OverviewLineItem['type'], amount: number, relatedCategories: string[]): OverviewLineItem {
  return { id, name, type, amount, relatedCategories };
}

describe('computeBudgetOverview: a hand-computed month', () => {
  const lineItems = [
    item(1, 'Pay', 'Income', 500000, ['Salary']),
    item(2, 'Rent', 'Fixed', 150000, ['rent']),
    item(3, 'Food', 'Variable', 60000, ['Groceries', 'Dining']),
    item(4, 'Savings', 'NotCounted', 100000, ['Transfer']),
    item(5, 'Misc', 'Variable', 10000, ['Uncategorized']),
  ];
  const parent = tx(-9000, null, { isSplit: true, type: 'charge' });
  const transactions = [
    tx(520000, 'salary'),
    tx(-150000, 'Rent'),
    tx(-12345, 'GROCERIES'),
    tx(-4000, 'dining'),
    tx(1000, 'Groceries'), // a refund
    tx(-100000, 'Transfer', { type: 'transfer' }),
    tx(-2500, null),
    tx(-7700, 'Hobbies'),
    parent,
    tx(-6000, 'Groceries', { parentTransactionId: parent.id, type: 'charge' }),
    tx(-3000, 'Gifts', { parentTransactionId: parent.id, type: 'charge' }),
  ];
  const overview = computeBudgetOverview(transactions, lineItems);

  it('per line item actuals (oriented) and counts', () => {
    expect(overview.lineItems.map((i) => [i.name, i.budgeted, i.actual, i.transactionCount])).toEqual([
      ['Pay', 500000, 520000, 1],
      ['Rent', 150000, 150000, 1],
      ['Food', 60000, 12345 + 4000 - 1000 + 6000, 4],
      ['Savings', 100000, 100000, 1],
      ['Misc', 10000, 2500, 1],
    ]);
  });
  it('untracked is id -1 with categories tied to no line item', () => {
    expect(overview.untracked).toMatchObject({ id: -1, name: 'Untracked', actual: 7700 + 3000, transactionCount: 2, categories: ['gifts', 'hobbies'] });
  });
  it('nets = income - (fixed + variable), budgeted and actual', () => {
    expect(overview.budgeted).toEqual({ income: 500000, fixed: 150000, variable: 70000, notCounted: 100000, net: 500000 - 220000 });
    expect(overview.actual).toEqual({
      income: 520000,
      fixed: 150000,
      variable: 21345 + 2500,
      notCounted: 100000,
      untracked: 10700,
      net: 520000 - (150000 + 23845),
    });
  });
  it('type totals and the total exclude the split parent', () => {
    expect(overview.typeTotals).toEqual([
      { type: 'credit', total: 521000, count: 2 },
      { type: 'debit', total: -150000 - 12345 - 4000 - 2500 - 7700, count: 5 },
      { type: 'charge', total: -9000, count: 2 },
      { type: 'transfer', total: -100000, count: 1 },
    ]);
    expect(overview.transactionCount).toBe(10);
    expect(overview.splits).toEqual({ parentCount: 1, childCount: 2, childTotal: -9000 });
    expect(overview.byType.map((g) => g.type)).toEqual(['Income', 'Fixed', 'Variable', 'NotCounted', 'Untracked']);
  });
  it('predicates for the table filters', () => {
    expect(matchesLineItem({ category: 'DINING', isSplit: false }, lineItems[2])).toBe(true);
    expect(matchesLineItem({ category: null, isSplit: false }, lineItems[4])).toBe(true);
    expect(matchesLineItem({ category: null, isSplit: true }, lineItems[4])).toBe(false);
    expect(isSplitRelated(parent)).toBe(true);
    expect(isSplitRelated(transactions[0])).toBe(false);
  });
});

describe('overview properties', () => {
  const arbTx = fc.record({
    amount: fc.integer({ min: -1_000_000, max: 1_000_000 }),
    category: fc.constantFrom(null, 'Food', 'food', 'Rent', 'Pay', 'Other'),
    type: fc.constantFrom(...TRANSACTION_TYPES),
    isSplit: fc.boolean(),
  });
  it('type totals sum to the total; actual.net equals the signed sum of income+fixed+variable rows; parents never count', () => {
    fc.assert(
      fc.property(fc.array(arbTx, { maxLength: 60 }), (rows) => {
        const transactions = rows.map((r, i) => ({ ...r, id: i + 1, parentTransactionId: null }));
        const items = [item(1, 'Pay', 'Income', 1, ['pay']), item(2, 'Rent', 'Fixed', 1, ['rent']), item(3, 'Food', 'Variable', 1, ['FOOD'])];
        const o = computeBudgetOverview(transactions, items);
        expect(o.typeTotals.reduce((s, t) => s + t.total, 0)).toBe(o.total);
        const counted = transactions.filter((t) => !t.isSplit);
        expect(o.transactionCount).toBe(counted.length);
        expect(o.total).toBe(counted.reduce((s, t) => s + t.amount, 0));
        const signed = counted.filter((t) => ['pay', 'rent', 'food'].includes((t.category ?? '').toLowerCase())).reduce((s, t) => s + t.amount, 0);
        expect(o.actual.net).toBe(signed === 0 ? 0 : signed);
      }),
    );
  });
});

describe('envelopes', () => {
  const rows = [
    { id: 1, amount: -100, category: 'Fun', isSplit: false, postDate: '2024-01-01' },
    { id: 2, amount: -200, category: 'FUN ', isSplit: false, postDate: '2024-02-01' },
    { id: 3, amount: -300, category: 'fun', isSplit: true, postDate: '2024-02-01' },
    { id: 4, amount: -400, category: null, isSplit: false, postDate: '2024-02-02' },
    { id: 5, amount: -500, category: 'Rent', isSplit: false, postDate: '2024-02-03' },
  ];
  it.each([
    [['fun'], {}, [1, 2]],
    [['Fun'], { startDate: '2024-01-15' }, [2]],
    [['uncategorized', 'rent'], { endDate: '2024-02-02' }, [4]],
    [[' '], {}, []],
  ])('categories %j in %j', (categories, range, ids) => {
    expect(envelopeTransactions(rows, categories, range).map((r) => r.id)).toEqual(ids);
  });
  it('summarises count and signed total', () => {
    expect(summarizeEnvelope(envelopeTransactions(rows, ['fun']))).toEqual({ transactionCount: 2, total: -300 });
  });
  it.each([
    ['Food, dining,, FOOD ', ['Food', 'dining']],
    ['', []],
    [' a ,b', ['a', 'b']],
  ])('parseCategoryList(%j)', (text, expected) => {
    expect(parseCategoryList(text)).toEqual(expected);
  });
});
