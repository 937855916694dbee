import { describe, expect, it } from 'vitest';
import { monthsEnding, netWorthByMonth } from '../../src/shared/accounts/net-worth';

describe('monthsEnding', () => {
  it.each([
    ['2024-03-15', 3, ['2024-01', '2024-02', '2024-03']],
    ['2024-02-01', 3, ['2023-12', '2024-01', '2024-02']],
    ['2025-01-31', 1, ['2025-01']],
    [
      '2024-12-31',
      13,
      [
        '2023-12',
        '2024-01',
        '2024-02',
        '2024-03',
        '2024-04',
        '2024-05',
        '2024-06',
        '2024-07',
        '2024-08',
        '2024-09',
        '2024-10',
        '2024-11',
        '2024-12',
      ],
    ],
  ])('%s, %i months', (end, count, months) => {
    expect(monthsEnding(end, count)).toEqual(months);
  });
});

describe('netWorthByMonth', () => {
  it('adds every month up to each point, earlier months included, later ones not', () => {
    const points = netWorthByMonth(
      100,
      [
        { month: '2024-03', total: 5 },
        { month: '2023-01', total: -50 },
        { month: '2024-05', total: 1_000 },
      ],
      ['2024-02', '2024-03', '2024-04'],
    );
    expect(points).toEqual([
      { month: '2024-02', endDate: '2024-02-29', netWorth: 50 },
      { month: '2024-03', endDate: '2024-03-31', netWorth: 55 },
      { month: '2024-04', endDate: '2024-04-30', netWorth: 55 },
    ]);
  });
});
