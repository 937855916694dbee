import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  compareRegisterOrder,
  reconcileFigures,
  withRunningBalance,
  type RegisterTransaction,
} from '../../src/shared/register/register';

const row = (
  id: number,
  postDate: string,
  amount: number,
  extra: Partial<RegisterTransaction> = {},
): RegisterTransaction => ({
  id,
  postDate,
  amount,
  isSplit: false,
  parentTransactionId: null,
  ...extra,
});

describe('compareRegisterOrder', () => {
  it('puts the newest first, keeps a split parent right above its parts, parts newest first', () => {
    const rows = [
      row(1, '2024-01-01', 100),
      row(2, '2024-02-01', -50, { isSplit: true }),
      row(3, '2024-02-01', -10),
      row(4, '2024-02-01', -30, { parentTransactionId: 2 }),
      row(5, '2024-02-01', -20, { parentTransactionId: 2 }),
      row(6, '2024-01-15', 7),
    ];
    expect([...rows].sort(compareRegisterOrder).map((r) => r.id)).toEqual([3, 2, 5, 4, 6, 1]);
  });
});

describe('withRunningBalance', () => {
  it.each([
    ['no rows', [], 500, []],
    ['one row', [row(1, '2024-01-01', -200)], 500, [500]],
    [
      'walks back',
      [row(3, '2024-03-01', 20), row(2, '2024-02-01', -10), row(1, '2024-01-01', 300)],
      1000,
      [1000, 980, 990],
    ],
    [
      'a split parent shows the balance after its split and counts once',
      [
        row(2, '2024-02-01', -50, { isSplit: true }),
        row(4, '2024-02-01', -20, { parentTransactionId: 2 }),
        row(3, '2024-02-01', -30, { parentTransactionId: 2 }),
        row(1, '2024-01-01', 5),
      ],
      100,
      [100, 100, 120, 150],
    ],
  ] as const)('%s', (_name, rows, start, balances) => {
    expect(withRunningBalance(rows, start).map((r) => r.runningBalance)).toEqual(balances);
  });

  it('each balance is the start minus the counted rows above it (property)', () => {
    const rows = fc.array(fc.record({ amount: fc.integer({ min: -100000, max: 100000 }), isSplit: fc.boolean() }), {
      maxLength: 40,
    });
    fc.assert(
      fc.property(rows, fc.integer({ min: -1e9, max: 1e9 }), (items, start) => {
        const list = items.map((item, i) => row(i + 1, '2024-01-01', item.amount, { isSplit: item.isSplit }));
        withRunningBalance(list, start).forEach((r, i) => {
          const above = list
            .slice(0, i)
            .filter((x) => !x.isSplit)
            .reduce((sum, x) => sum + x.amount, 0);
          expect(r.runningBalance).toBe(start - above);
        });
      }),
    );
  });
});

describe('reconcileFigures', () => {
  it.each([
    // stated, after the statement date, statement -> register balance, difference, adjusted
    [100000, 2000, 97500, 98000, -500, 99500],
    [100000, 2000, 98000, 98000, 0, 100000],
    [0, 0, 1234, 0, 1234, 1234],
    [-5000, -1000, -4000, -4000, 0, -5000],
  ])('stated %i, later %i, statement %i', (stated, later, statement, registerBalance, difference, adjustedBalance) => {
    expect(reconcileFigures(stated, later, statement)).toEqual({ registerBalance, difference, adjustedBalance });
  });

  it('after adjusting, the statement agrees (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.integer({ min: -1e12, max: 1e12 }),
        (stated, later, statement) => {
          const { adjustedBalance } = reconcileFigures(stated, later, statement);
          expect(reconcileFigures(adjustedBalance, later, statement).difference).toBe(0);
        },
      ),
    );
  });
});
