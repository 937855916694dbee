import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isReservedCategoryName,
  reservedCategoryMessage,
  reservedCategoryOnTransactionMessage,
} from '../../src/shared/categories';
import { magnitudeBounds } from '../../src/shared/money';

describe('the reserved category name', () => {
  it.each([
    ['Uncategorized', true],
    ['uncategorized', true],
    [' UNCATEGORIZED\t', true],
    ['UnCaTeGoRiZeD', true],
    ['Uncategorised', false],
    ['Uncategorized stuff', false],
    ['', false],
    [null, false],
    [undefined, false],
  ])('%j -> %s', (name, reserved) => {
    expect(isReservedCategoryName(name)).toBe(reserved);
  });

  it('words both refusals with the name as typed', () => {
    expect(reservedCategoryMessage(' UNCATEGORIZED ')).toBe(
      "'UNCATEGORIZED' is reserved for transactions without a category: choose another name",
    );
    expect(reservedCategoryOnTransactionMessage('uncategorized')).toBe(
      "'uncategorized' is reserved for transactions without a category: leave the category empty instead",
    );
  });
});

describe('magnitudeBounds', () => {
  it.each([
    [{}, {}],
    [{ minAmount: -15000 }, { minAmount: 15000 }],
    [{ maxAmount: -500 }, { maxAmount: 500 }],
    [
      { minAmount: -15000, maxAmount: -5000 },
      { minAmount: 5000, maxAmount: 15000 },
    ],
    [
      { minAmount: 5000, maxAmount: 15000 },
      { minAmount: 5000, maxAmount: 15000 },
    ],
    [
      { minAmount: 15000, maxAmount: -5000 },
      { minAmount: 5000, maxAmount: 15000 },
    ],
    [
      { minAmount: 0, maxAmount: 0 },
      { minAmount: 0, maxAmount: 0 },
    ],
  ])('%j -> %j', (input, expected) => {
    expect(magnitudeBounds(input)).toEqual(expected);
  });

  it('always answers non-negative bounds in order, whatever the signs', () => {
    const bound = fc.option(fc.integer({ min: -1e12, max: 1e12 }), { nil: undefined });
    fc.assert(
      fc.property(bound, bound, (minAmount, maxAmount) => {
        const out = magnitudeBounds({ minAmount, maxAmount });
        for (const value of [out.minAmount, out.maxAmount])
          if (value !== undefined) expect(value).toBeGreaterThanOrEqual(0);
        if (out.minAmount !== undefined && out.maxAmount !== undefined)
          expect(out.minAmount).toBeLessThanOrEqual(out.maxAmount);
      }),
    );
  });
});
