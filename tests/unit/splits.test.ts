import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { autoFillRemainder, canSubmitSplit, signedSplitAmounts, splitRemainder, validateSplit } from '../../src/shared/splits';

describe('validateSplit', () => {
  it.each([
    ['two parts summing exactly', -10000, [{ amount: -6000, category: 'Food' }, { amount: -4000, category: 'Home' }], 'ok'],
    ['positive parent', 500, [{ amount: 200, category: 'a' }, { amount: 300, category: 'b' }], 'ok'],
    ['blank rows are ignored', -100, [{ amount: -50, category: 'a' }, { amount: null, category: '' }, { amount: -50, category: 'b' }], 'ok'],
    ['one counted row', -100, [{ amount: -100, category: 'a' }, { amount: null, category: 'b' }], 'At least 2 splits are required'],
    ['a row without category does not count', -100, [{ amount: -50, category: 'a' }, { amount: -50, category: '  ' }], 'At least 2 splits are required'],
    ['sum off by one cent', -10000, [{ amount: -6000, category: 'a' }, { amount: -3999, category: 'b' }], 'Split amounts must sum to 100.00'],
    ['sum too large', 4567, [{ amount: 4000, category: 'a' }, { amount: 600, category: 'b' }], 'Split amounts must sum to 45.67'],
    ['wrong sign', -100, [{ amount: 150, category: 'a' }, { amount: -250, category: 'b' }], 'Split amounts must be negative like the original transaction'],
    ['zero part', -100, [{ amount: 0, category: 'a' }, { amount: -100, category: 'b' }], 'Every split needs an amount other than 0.00'],
    ['zero parent', 0, [{ amount: 0, category: 'a' }, { amount: 0, category: 'b' }], 'A transaction of 0.00 cannot be split'],
  ])('%s', (_label, parent, entries, expected) => {
    const result = validateSplit(parent, entries);
    if (expected === 'ok') expect(result.ok).toBe(true);
    else expect(result).toMatchObject({ ok: false, message: expected });
  });

  it('accepts any partition of the parent into 2+ same-sign non-zero parts', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 10_000_000 }), fc.boolean(), fc.array(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 8 }), (magnitude, negative, cuts) => {
        const points = [...new Set(cuts.map((c) => Math.floor(c * (magnitude - 1)) + 1))].sort((a, b) => a - b);
        const bounds = [0, ...points.filter((p) => p > 0 && p < magnitude), magnitude];
        const parts = bounds.slice(1).map((b, i) => b - bounds[i]);
        fc.pre(parts.length >= 2);
        const parent = negative ? -magnitude : magnitude;
        const amounts = signedSplitAmounts(parent, parts);
        const result = validateSplit(parent, amounts.map((amount, i) => ({ amount, category: `c${i}` })));
        expect(result.ok).toBe(true);
        expect(amounts.reduce((s, a) => s + a, 0)).toBe(parent);
      }),
    );
  });

  it('refuses any entry list whose sum differs from the parent', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: 2, maxLength: 6 }), (parent, amounts) => {
        fc.pre(amounts.reduce((s, a) => s + a, 0) !== parent);
        expect(validateSplit(parent, amounts.map((amount) => ({ amount, category: 'x' }))).ok).toBe(false);
      }),
    );
  });
});

describe('dialog helpers', () => {
  it.each([
    [-10000, [6000, null], 4000],
    [-10000, [null, null], 10000],
    [2500, [1000, 2000], -500],
  ])('remainder of %d with %j is %d', (parent, magnitudes, remainder) => {
    expect(splitRemainder(parent, magnitudes)).toBe(remainder);
  });
  it('enables submit only within one cent and not while saving', () => {
    expect(canSubmitSplit(-10000, [6000, 4000], false)).toBe(true);
    expect(canSubmitSplit(-10000, [6000, 3999], false)).toBe(true);
    expect(canSubmitSplit(-10000, [6000, 3998], false)).toBe(false);
    expect(canSubmitSplit(-10000, [6000, 4000], true)).toBe(false);
  });
  it('auto-fills the remainder into the first empty row only', () => {
    expect(autoFillRemainder(-10000, [6000, null, null])).toEqual([6000, 4000, null]);
    expect(autoFillRemainder(-10000, [null, 2500])).toEqual([7500, 2500]);
    expect(autoFillRemainder(-10000, [6000, 4000])).toEqual([6000, 4000]);
    expect(autoFillRemainder(-10000, [12000, null])).toEqual([12000, null]);
  });
  it('signs amounts like the original', () => {
    expect(signedSplitAmounts(-100, [40, 60])).toEqual([-40, -60]);
    expect(signedSplitAmounts(100, [40, 60])).toEqual([40, 60]);
  });
});
