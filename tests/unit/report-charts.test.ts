import { describe, expect, it } from 'vitest';
import {
  CATEGORY_PALETTES,
  cashflowBarFilters,
  cashflowTotals,
  categoryBarFilters,
  monthLabel,
  monthWithinRange,
  nameHash,
  netFilters,
  OTHER_COLORS,
  payeeFilters,
  reportPresetRange,
  seriesColors,
  spendingChart,
  UNCATEGORIZED_COLORS,
  type MonthlyReportRow,
  type ReportPreset,
} from '../../src/shared/reports';

const row = (month: string, byCategory: Record<string, number>, income = 0, expenses = 0): MonthlyReportRow => ({
  month,
  income,
  expenses,
  net: income - expenses,
  byCategory,
});

describe('spendingChart', () => {
  it.each([
    {
      name: 'spending categories only, as positive spending, biggest first; income categories left out',
      report: [
        row('2024-01', { Groceries: -5000, Rent: -100000, Salary: 300000 }),
        row('2024-02', { Groceries: -3000, Salary: 300000 }),
      ],
      limit: 8,
      series: [
        { name: 'Rent', categories: ['Rent'], values: [100000, 0], total: 100000 },
        { name: 'Groceries', categories: ['Groceries'], values: [5000, 3000], total: 8000 },
      ],
      monthTotals: [105000, 3000],
      otherName: null,
    },
    {
      name: 'a refund lowers its month (below zero when the month holds only the refund)',
      report: [row('2024-01', { Shoes: -8000 }), row('2024-02', { Shoes: 2000 })],
      limit: 8,
      series: [{ name: 'Shoes', categories: ['Shoes'], values: [8000, -2000], total: 6000 }],
      monthTotals: [8000, -2000],
      otherName: null,
    },
    {
      name: 'the tail beyond the limit folds into Other, which names its categories',
      report: [row('2024-01', { A: -500, B: -400, C: -300, D: -200, Uncategorized: -100 })],
      limit: 2,
      series: [
        { name: 'A', categories: ['A'], values: [500], total: 500 },
        { name: 'B', categories: ['B'], values: [400], total: 400 },
        { name: 'Other', categories: ['C', 'D', 'Uncategorized'], values: [600], total: 600 },
      ],
      monthTotals: [1500],
      otherName: 'Other',
    },
    {
      name: 'a category called Other keeps its name; the tail is Other (rest)',
      report: [row('2024-01', { Other: -900, B: -400, C: -300 })],
      limit: 1,
      series: [
        { name: 'Other', categories: ['Other'], values: [900], total: 900 },
        { name: 'Other (rest)', categories: ['B', 'C'], values: [700], total: 700 },
      ],
      monthTotals: [1600],
      otherName: 'Other (rest)',
    },
    {
      name: 'no rows: no series, zero months',
      report: [row('2024-01', {}), row('2024-02', {})],
      limit: 8,
      series: [],
      monthTotals: [0, 0],
      otherName: null,
    },
    {
      name: 'a category whose refunds equal its spending is no spending',
      report: [row('2024-01', { Shoes: -2000 }), row('2024-02', { Shoes: 2000 })],
      limit: 8,
      series: [],
      monthTotals: [0, 0],
      otherName: null,
    },
  ])('$name', ({ report, limit, series, monthTotals, otherName }) => {
    const chart = spendingChart(report, limit);
    expect(chart.months).toEqual(report.map((r) => r.month));
    expect(chart.series).toEqual(series);
    expect(chart.monthTotals).toEqual(monthTotals);
    expect(chart.otherName).toBe(otherName);
  });

  it('keeps the top 8 and folds the rest with the default limit', () => {
    const byCategory = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`C${String(i).padStart(2, '0')}`, -(1000 - i)]),
    );
    const chart = spendingChart([row('2024-01', byCategory)]);
    expect(chart.series.map((s) => s.name)).toEqual(['C00', 'C01', 'C02', 'C03', 'C04', 'C05', 'C06', 'C07', 'Other']);
    expect(chart.series.at(-1)).toMatchObject({
      categories: ['C08', 'C09', 'C10', 'C11'],
      total: 992 + 991 + 990 + 989,
    });
  });
});

describe('seriesColors', () => {
  it.each(['light', 'dark'] as const)(
    'gives Other grey, Uncategorized slate and categories palette colours (%s)',
    (mode) => {
      const colors = seriesColors(['Rent', 'Uncategorized', 'Other'], mode);
      expect(colors.Other).toBe(OTHER_COLORS[mode]);
      expect(colors.Uncategorized).toBe(UNCATEGORIZED_COLORS[mode]);
      expect(colors.Rent).toBe(CATEGORY_PALETTES[mode][nameHash('Rent') % CATEGORY_PALETTES[mode].length]);
    },
  );

  it('keeps a category colour whatever else is shown, when nothing bigger collides', () => {
    const names = ['Rent', 'Groceries', 'Dining', 'Travel'];
    const alone = Object.fromEntries(names.map((name) => [name, seriesColors([name], 'light')[name]]));
    const together = seriesColors(names, 'light');
    const distinct =
      new Set(names.map((name) => nameHash(name) % CATEGORY_PALETTES.light.length)).size === names.length;
    if (distinct) expect(together).toEqual(alone);
    expect(seriesColors(names, 'light')).toEqual(together); // deterministic
  });

  it('never gives two shown series one colour (up to the palette size)', () => {
    const names = Array.from({ length: CATEGORY_PALETTES.dark.length }, (_, i) => `Category ${i}`);
    const colors = seriesColors(names, 'dark');
    expect(new Set(Object.values(colors)).size).toBe(names.length);
  });

  it('matches names regardless of case', () => {
    expect(nameHash('Dining')).toBe(nameHash('dining'));
  });

  it('palettes hold distinct colours, none of them the grey of Other', () => {
    for (const mode of ['light', 'dark'] as const) {
      expect(new Set(CATEGORY_PALETTES[mode]).size).toBe(CATEGORY_PALETTES[mode].length);
      expect(CATEGORY_PALETTES[mode]).not.toContain(OTHER_COLORS[mode]);
    }
  });
});

describe('cashflowTotals and monthLabel', () => {
  it('adds income and expenses over the range', () => {
    expect(cashflowTotals([row('2024-01', {}, 5000, 2000), row('2024-02', {}, 0, 4000)])).toEqual({
      income: 5000,
      expenses: 6000,
      net: -1000,
    });
  });
  it.each([
    ['2024-01', 'Jan 2024'],
    ['1999-12', 'Dec 1999'],
  ])('%s -> %s', (month, label) => expect(monthLabel(month)).toBe(label));
});

describe('figure links', () => {
  const range = { startDate: '2024-01-15', endDate: '2024-03-10' };
  it.each([
    ['2024-01', { startDate: '2024-01-15', endDate: '2024-01-31' }],
    ['2024-02', { startDate: '2024-02-01', endDate: '2024-02-29' }],
    ['2024-03', { startDate: '2024-03-01', endDate: '2024-03-10' }],
  ])('month %s within the range', (month, dates) => expect(monthWithinRange(month, range)).toEqual(dates));

  it.each([
    [
      'a category bar',
      categoryBarFilters(range, '2024-02', ['Dining']),
      { startDate: '2024-02-01', endDate: '2024-02-29', counted: true, categories: ['Dining'] },
    ],
    [
      'the Other bar',
      categoryBarFilters({ ...range, account: 'Checking' }, '2024-01', ['C', 'Uncategorized']),
      {
        startDate: '2024-01-15',
        endDate: '2024-01-31',
        counted: true,
        account: 'Checking',
        categories: ['C', 'Uncategorized'],
      },
    ],
    [
      'an income bar',
      cashflowBarFilters(range, '2024-03', 'in'),
      { startDate: '2024-03-01', endDate: '2024-03-10', counted: true, direction: 'in' },
    ],
    [
      'an expenses bar',
      cashflowBarFilters(range, '2024-02', 'out'),
      { startDate: '2024-02-01', endDate: '2024-02-29', counted: true, direction: 'out' },
    ],
    ['a net point', netFilters(range, '2024-02'), { startDate: '2024-02-01', endDate: '2024-02-29', counted: true }],
    [
      'a payee',
      payeeFilters(range, 'Tesco Stores'),
      { startDate: '2024-01-15', endDate: '2024-03-10', counted: true, payee: 'Tesco Stores' },
    ],
  ])('%s', (_name, filters, expected) => expect(filters).toEqual(expected));
});

describe('reportPresetRange', () => {
  it.each<[ReportPreset, string, { startDate: string; endDate: string } | null]>([
    ['This year', '2024-05-17', { startDate: '2024-01-01', endDate: '2024-05-31' }],
    ['This year', '2024-01-01', { startDate: '2024-01-01', endDate: '2024-01-31' }],
    ['Last 12 months', '2024-05-17', { startDate: '2023-06-01', endDate: '2024-05-31' }],
    ['Last 12 months', '2024-12-31', { startDate: '2024-01-01', endDate: '2024-12-31' }],
    ['Last 12 months', '2024-02-29', { startDate: '2023-03-01', endDate: '2024-02-29' }],
    ['Last year', '2024-05-17', { startDate: '2023-01-01', endDate: '2023-12-31' }],
    ['Custom', '2024-05-17', null],
  ])('%s on %s', (preset, today, range) => expect(reportPresetRange(preset, today)).toEqual(range));

  it('refuses a today that is no date', () =>
    expect(() => reportPresetRange('This year', '2024-13-01')).toThrow(RangeError));
});
