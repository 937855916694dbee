import { describe, expect, it } from 'vitest';
import { AmountChains, sievePairs, type RowColumns } from '../../src/shared/transfers/pairing';

/** Rows as [amount, day, account]. */
const columns = (rows: [number, number, number][]): RowColumns => ({
  amounts: rows.map((row) => row[0]),
  days: rows.map((row) => row[1]),
  accounts: rows.map((row) => row[2]),
});

describe('positions by amount', () => {
  it('chains every position of an amount, large and negative amounts included', () => {
    const amounts = [5, -5, 5, 2 ** 40 + 5, -(2 ** 40) - 5, 5, 0];
    const chains = new AmountChains(amounts);
    const at = (amount: number) => {
      const found: number[] = [];
      for (let i = chains.firstOf(amount); i >= 0; i = chains.after(i)) found.push(i);
      return found;
    };
    expect(at(5)).toEqual([0, 2, 5]);
    expect(at(-5)).toEqual([1]);
    expect(at(2 ** 40 + 5)).toEqual([3]);
    expect(at(-(2 ** 40) - 5)).toEqual([4]);
    expect(at(0)).toEqual([6]);
    expect(at(7)).toEqual([]);
  });
});

describe('sieving the batch account against the others', () => {
  it('finds opposite amounts within the window in other accounts, and each counterpart’s rivals', () => {
    // Account 1 is the batch's; 2 and 3 are others.
    const own = columns([
      [-100, 10, 1], // pairs with the 100 of account 2 (3 days)
      [-200, 10, 1], // its opposite is 6 days away: outside a 5-day window
      [-300, 10, 1], // its opposite is in its own account: never a pair
      [300, 12, 1],
      [-400, 20, 1], // no opposite at all
    ]);
    const others = columns([
      [100, 13, 2],
      [200, 16, 2],
      [-100, 15, 3], // a rival of the 100 of account 2: it could be its other side too
      [-100, 30, 3], // too far from that 100 to be a rival
      [-100, 14, 2], // same account as the counterpart: not a rival
    ]);
    expect(sievePairs(own, others, 5)).toEqual({ own: [0], counterparts: [0], rivals: [2] });
  });

  it('finds nothing without rows', () => {
    expect(sievePairs(columns([]), columns([[100, 1, 2]]), 5)).toEqual({ own: [], counterparts: [], rivals: [] });
  });
});
