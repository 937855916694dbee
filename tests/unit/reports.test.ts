import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildMonthlyReport,
  monthBounds,
  monthCount,
  monthsInRange,
  OTHER_SERIES,
  payeeKey,
  payeeName,
  rankPayees,
  topCategorySeries,
  UNCATEGORIZED_SERIES,
  type MonthlyAggregate,
} from '../../src/shared/reports';

const agg = (month: string, category: string | null, moneyIn: number, moneyOut: number): MonthlyAggregate => ({
  month,
  category,
  moneyIn,
  moneyOut,
});

describe('monthsInRange', () => {
  it.each([
    ['2024-01-15', '2024-01-20', ['2024-01']],
    ['2024-01-31', '2024-02-01', ['2024-01', '2024-02']],
    ['2023-11-30', '2024-02-29', ['2023-11', '2023-12', '2024-01', '2024-02']],
    ['2024-12-01', '2025-01-01', ['2024-12', '2025-01']],
  ])('%s to %s', (start, end, months) => {
    expect(monthsInRange(start, end)).toEqual(months);
    expect(monthCount(start, end)).toBe(months.length);
  });

  it.each([
    ['2024-02', '2024-02-01', '2024-02-29'],
    ['2023-02', '2023-02-01', '2023-02-28'],
    ['2024-04', '2024-04-01', '2024-04-30'],
    ['1900-02', '1900-02-01', '1900-02-28'],
  ])('monthBounds(%s)', (month, startDate, endDate) => {
    expect(monthBounds(month)).toEqual({ startDate, endDate });
  });

  it('lists consecutive months for any range (property)', () => {
    const date = fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2060-12-31T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
    fc.assert(
      fc.property(date, date, (a, b) => {
        const [start, end] = a <= b ? [a, b] : [b, a];
        const months = monthsInRange(start, end);
        expect(months[0]).toBe(start.slice(0, 7));
        expect(months.at(-1)).toBe(end.slice(0, 7));
        expect(months).toHaveLength(monthCount(start, end));
        for (let i = 1; i < months.length; i += 1)
          expect(monthBounds(months[i - 1]).endDate < monthBounds(months[i]).startDate).toBe(true);
      }),
    );
  });
});

describe('buildMonthlyReport', () => {
  it('adds income, expenses and signed category sums per month; months without rows are zeros', () => {
    const report = buildMonthlyReport('2024-01-10', '2024-03-05', [
      agg('2024-01', 'Salary', 300000, 0),
      agg('2024-01', 'Groceries', 1000, 5000),
      agg('2024-01', null, 0, 700),
      agg('2024-03', 'dining', 0, 3000),
      agg('2024-03', 'Groceries', 0, 6000),
    ]);
    expect(report).toEqual([
      {
        month: '2024-01',
        income: 301000,
        expenses: 5700,
        net: 295300,
        byCategory: { Groceries: -4000, Salary: 300000, [UNCATEGORIZED_SERIES]: -700 },
      },
      { month: '2024-02', income: 0, expenses: 0, net: 0, byCategory: {} },
      { month: '2024-03', income: 0, expenses: 9000, net: -9000, byCategory: { dining: -3000, Groceries: -6000 } },
    ]);
  });

  it('keeps a category whose refunds cancel its spending, as 0 (never -0)', () => {
    const [row] = buildMonthlyReport('2024-05-01', '2024-05-31', [agg('2024-05', 'Shoes', 4999, 4999)]);
    expect(row.byCategory).toEqual({ Shoes: 0 });
    expect(Object.is(row.byCategory.Shoes, -0)).toBe(false);
  });

  it('merges a category literally named Uncategorized with the rows that have none', () => {
    const [row] = buildMonthlyReport('2024-05-01', '2024-05-31', [
      agg('2024-05', null, 0, 100),
      agg('2024-05', 'Uncategorized', 0, 50),
    ]);
    expect(row.byCategory).toEqual({ Uncategorized: -150 });
  });

  it('holds income - expenses = net = the sum of byCategory, and income, expenses >= 0 (property)', () => {
    const group = fc.record({
      month: fc.constantFrom('2024-01', '2024-02', '2024-03'),
      category: fc.constantFrom(null, 'A', 'B', 'C'),
      moneyIn: fc.nat(1_000_000),
      moneyOut: fc.nat(1_000_000),
    });
    fc.assert(
      fc.property(fc.array(group, { maxLength: 30 }), (groups) => {
        const report = buildMonthlyReport('2024-01-01', '2024-03-31', groups);
        expect(report.map((r) => r.month)).toEqual(['2024-01', '2024-02', '2024-03']);
        for (const row of report) {
          expect(row.income).toBeGreaterThanOrEqual(0);
          expect(row.expenses).toBeGreaterThanOrEqual(0);
          expect(row.net).toBe(row.income - row.expenses);
          expect(Object.values(row.byCategory).reduce((a, b) => a + b, 0)).toBe(row.net);
        }
      }),
    );
  });
});

describe('topCategorySeries', () => {
  const report = buildMonthlyReport('2024-01-01', '2024-02-29', [
    ...['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J'].map((name, i) => agg('2024-01', name, 0, (i + 1) * 100)),
    agg('2024-02', 'J', 0, 5),
    agg('2024-02', null, 0, 50),
  ]);

  it('keeps the 8 largest categories and folds the rest into Other, every series in every month', () => {
    const chart = topCategorySeries(report);
    expect(chart.series).toEqual(['J', 'I', 'H', 'G', 'F', 'E', 'D', 'C', OTHER_SERIES]);
    expect(chart.other).toEqual(['A', 'B', UNCATEGORIZED_SERIES]);
    expect(chart.rows[0].values).toEqual({
      J: -1000,
      I: -900,
      H: -800,
      G: -700,
      F: -600,
      E: -500,
      D: -400,
      C: -300,
      Other: -300,
    });
    expect(chart.rows[1].values).toEqual({ J: -5, I: 0, H: 0, G: 0, F: 0, E: 0, D: 0, C: 0, Other: -50 });
  });

  it('has no Other when everything fits, and renames the bucket if a category is called Other', () => {
    expect(topCategorySeries(report, 20).series).not.toContain(OTHER_SERIES);
    const own = buildMonthlyReport('2024-01-01', '2024-01-31', [
      agg('2024-01', 'Other', 0, 900),
      agg('2024-01', 'X', 0, 10),
      agg('2024-01', 'Y', 0, 5),
    ]);
    expect(topCategorySeries(own, 2).series).toEqual(['Other', 'X', 'Other (rest)']);
  });
});

describe('payeeName and payeeKey', () => {
  it.each([
    ['TESCO STORES 3456', 'TESCO STORES'],
    ['Tesco   Stores 1234 ', 'Tesco Stores'],
    ['POS 12/03 COFFEE CORNER #12', 'POS COFFEE CORNER'],
    ['AMAZON MKTPLACE * 1234', 'AMAZON MKTPLACE'],
    ['7-ELEVEN 4021', '7-ELEVEN'],
    ['Marks & Spencer', 'Marks & Spencer'],
    ['Transfer to 12345678', 'Transfer to'],
    ['12345678', '12345678'],
    ['* 1234', '* 1234'],
    ['Café Crème', 'Café Crème'],
    ['Cafe\u0301 Cre\u0300me 22', 'Café Crème'],
    ['Netflix.com', 'Netflix.com'],
  ])('%j -> %j', (description, name) => {
    expect(payeeName(description)).toBe(name);
    expect(payeeKey(description)).toBe(name.toLowerCase());
  });

  it('is idempotent, case-insensitive in its key, and never empty for a non-blank description (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'B', 'é', '1', '2', ' ', '#', '*', '-', '/', '&', '\t', 'Z'),
      maxLength: 30,
    });
    fc.assert(
      fc.property(text, (description) => {
        const name = payeeName(description);
        expect(payeeName(name)).toBe(name);
        expect(payeeKey(name)).toBe(payeeKey(description));
        expect(payeeKey(description.toUpperCase())).toBe(payeeKey(description.toLowerCase()));
        if (description.trim() !== '') expect(name).not.toBe('');
      }),
    );
  });
});

describe('rankPayees', () => {
  it('merges spellings by key, shows the commonest spelling, ranks by magnitude then count then name', () => {
    expect(
      rankPayees([
        { key: 'tesco', name: 'TESCO', count: 3, total: -3000 },
        { key: 'tesco', name: 'Tesco', count: 5, total: -2000 },
        { key: 'acme', name: 'ACME', count: 1, total: 10000 },
        { key: 'b', name: 'B', count: 1, total: -5000 },
        { key: 'a', name: 'A', count: 2, total: 5000 },
        { key: 'refund', name: 'Refund', count: 2, total: 0 },
      ]),
    ).toEqual([
      { payee: 'ACME', count: 1, total: 10000 },
      { payee: 'Tesco', count: 8, total: -5000 },
      { payee: 'A', count: 2, total: 5000 },
      { payee: 'B', count: 1, total: -5000 },
      { payee: 'Refund', count: 2, total: 0 },
    ]);
  });

  it('takes the first spelling in code order when counts tie, and honours the limit', () => {
    const groups = [
      { key: 'x', name: 'x shop', count: 1, total: -1 },
      { key: 'x', name: 'X SHOP', count: 1, total: -1 },
    ];
    expect(rankPayees(groups)).toEqual([{ payee: 'X SHOP', count: 2, total: -2 }]);
    expect(rankPayees([...groups].reverse())).toEqual([{ payee: 'X SHOP', count: 2, total: -2 }]);
    expect(
      rankPayees(
        [
          { key: 'a', name: 'a', count: 1, total: 1 },
          { key: 'b', name: 'b', count: 1, total: 2 },
        ],
        1,
      ),
    ).toEqual([{ payee: 'b', count: 1, total: 2 }]);
  });
});
