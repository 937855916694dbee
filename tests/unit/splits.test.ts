import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  autoFillRemainder,
  canSubmitSplit,
  lastPartAdjustment,
  MIN_SPLITS,
  signedSplitAmounts,
  SPLIT_TOLERANCE_CENTS,
  splitRemainder,
  validateSplit,
  type SplitEntryLike,
} from '../../src/shared/splits';

/** Entry builder: `e(-600, 'Food')`. */
function e(amount: number | null | undefined, category: string | null | undefined = 'c'): SplitEntryLike {
  return { amount, category };
}

/** Cuts |parent| into `count` >= 1 non-zero parts at the given fractions. */
const partitions = fc
  .tuple(
    fc.integer({ min: 2, max: Number.MAX_SAFE_INTEGER }),
    fc.boolean(),
    fc.uniqueArray(fc.double({ min: 0, max: 1, noNaN: true }), { minLength: 1, maxLength: 9 }),
  )
  .map(([magnitude, negative, cuts]) => {
    const points = [...new Set(cuts.map((c) => Math.min(magnitude - 1, Math.floor(c * (magnitude - 1)) + 1)))].sort(
      (a, b) => a - b,
    );
    const bounds = [0, ...points, magnitude];
    const parts = bounds.slice(1).map((b, i) => b - bounds[i]);
    return { parent: negative ? -magnitude : magnitude, parts };
  })
  .filter(({ parts }) => parts.length >= MIN_SPLITS);

describe('validateSplit', () => {
  it.each([
    ['two parts summing exactly', -10000, [e(-6000, 'Food'), e(-4000, 'Home')]],
    ['positive parent', 500, [e(200, 'a'), e(300, 'b')]],
    ['three parts', -300, [e(-100, 'a'), e(-150, 'b'), e(-50, 'c')]],
    ['one cent each', -2, [e(-1, 'a'), e(-1, 'b')]],
    ['blank rows are ignored', -100, [e(-50, 'a'), e(null, ''), e(-50, 'b'), e(undefined, undefined)]],
    ['a row with amount but no category is ignored', -100, [e(-50, 'a'), e(-999, '  '), e(-50, 'b')]],
    ['a row with category but no amount is ignored', -100, [e(-50, 'a'), e(null, 'x'), e(-50, 'b')]],
    ['largest amount', -Number.MAX_SAFE_INTEGER, [e(-1, 'a'), e(-Number.MAX_SAFE_INTEGER + 1, 'b')]],
  ])('accepts: %s', (_label, parent, entries) => {
    const result = validateSplit(parent, entries);
    expect(result.ok).toBe(true);
  });

  it.each([
    ['no rows', -100, [], 'TOO_FEW_SPLITS', 'At least 2 splits are required'],
    ['one counted row', -100, [e(-100, 'a'), e(null, 'b')], 'TOO_FEW_SPLITS', 'At least 2 splits are required'],
    [
      'a row without category does not count',
      -100,
      [e(-50, 'a'), e(-50, '  ')],
      'TOO_FEW_SPLITS',
      'At least 2 splits are required',
    ],
    [
      'a NaN amount does not count',
      -100,
      [e(-50, 'a'), e(Number.NaN, 'b')],
      'TOO_FEW_SPLITS',
      'At least 2 splits are required',
    ],
    ['sum off by one cent', -10000, [e(-6000), e(-3999)], 'SUM_MISMATCH', 'Split amounts must sum to 100.00'],
    ['sum too large', 4567, [e(4000), e(600)], 'SUM_MISMATCH', 'Split amounts must sum to 45.67'],
    [
      'message shows |parent| without grouping',
      -123456,
      [e(-1), e(-2)],
      'SUM_MISMATCH',
      'Split amounts must sum to 1234.56',
    ],
    [
      'sum beyond the safe range',
      -Number.MAX_SAFE_INTEGER,
      [e(-Number.MAX_SAFE_INTEGER), e(-Number.MAX_SAFE_INTEGER)],
      'SUM_MISMATCH',
      'Split amounts must sum to 90071992547409.91',
    ],
    [
      'wrong sign (negative parent)',
      -100,
      [e(150), e(-250)],
      'SIGN_MISMATCH',
      'Split amounts must be negative like the original transaction',
    ],
    [
      'wrong sign (positive parent)',
      100,
      [e(150), e(-50)],
      'SIGN_MISMATCH',
      'Split amounts must be positive like the original transaction',
    ],
    [
      'magnitudes sent for a negative parent',
      -100,
      [e(60), e(40)],
      'SIGN_MISMATCH',
      'Split amounts must be negative like the original transaction',
    ],
    ['zero part', -100, [e(0), e(-100)], 'ZERO_AMOUNT', 'Every split needs an amount other than 0.00'],
    ['zero parent', 0, [e(0), e(0)], 'ZERO_AMOUNT', 'A transaction of 0.00 cannot be split'],
    ['zero parent with non-zero parts', 0, [e(5), e(-5)], 'ZERO_AMOUNT', 'A transaction of 0.00 cannot be split'],
  ])('refuses: %s', (_label, parent, entries, code, message) => {
    expect(validateSplit(parent, entries)).toEqual({ ok: false, code, message });
  });

  it('returns the counted entries with trimmed categories, in order', () => {
    expect(validateSplit(-300, [e(-100, ' Food '), e(null, 'x'), e(-200, 'Home')])).toEqual({
      ok: true,
      entries: [
        { amount: -100, category: 'Food' },
        { amount: -200, category: 'Home' },
      ],
    });
  });

  it('accepts any partition of the parent into 2+ same-sign non-zero parts, which sum exactly', () => {
    fc.assert(
      fc.property(partitions, ({ parent, parts }) => {
        const amounts = signedSplitAmounts(parent, parts);
        const result = validateSplit(
          parent,
          amounts.map((amount, i) => e(amount, `c${i}`)),
        );
        expect(result.ok).toBe(true);
        if (result.ok) expect(result.entries.reduce((s, x) => s + BigInt(x.amount), 0n)).toBe(BigInt(parent));
        expect(splitRemainder(parent, parts)).toBe(0);
        expect(canSubmitSplit(parent, parts, false)).toBe(true);
      }),
    );
  });

  it('refuses any entry list whose sum differs from the parent', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1_000_000, max: 1_000_000 }),
        fc.array(fc.integer({ min: -1_000_000, max: 1_000_000 }), { minLength: 2, maxLength: 6 }),
        (parent, amounts) => {
          fc.pre(amounts.reduce((s, a) => s + a, 0) !== parent);
          const result = validateSplit(
            parent,
            amounts.map((amount) => e(amount)),
          );
          expect(result.ok).toBe(false);
        },
      ),
    );
  });

  it('refuses a valid partition nudged by any non-zero delta with SUM_MISMATCH', () => {
    fc.assert(
      fc.property(partitions, fc.integer({ min: 1, max: 1000 }), ({ parent, parts }, delta) => {
        const amounts = signedSplitAmounts(parent, parts);
        amounts[0] += amounts[0] < 0 ? -delta : delta; // keeps the sign, changes the sum
        fc.pre(Number.isSafeInteger(amounts[0]));
        expect(
          validateSplit(
            parent,
            amounts.map((amount) => e(amount)),
          ),
        ).toMatchObject({ ok: false, code: 'SUM_MISMATCH' });
      }),
    );
  });
});

describe('dialog helpers', () => {
  it.each([
    [-10000, [6000, null], 4000],
    [-10000, [null, null], 10000],
    [10000, [], 10000],
    [2500, [1000, 2000], -500],
    [-1, [1, null, 0], 0],
  ])('splitRemainder(%d, %j) = %d', (parent, magnitudes, remainder) => {
    expect(splitRemainder(parent, magnitudes)).toBe(remainder);
  });

  it.each([
    ['exact', -10000, [6000, 4000], false, true],
    ['one cent short (the server would refuse it)', -10000, [6000, 3999], false, false],
    ['one cent over', -10000, [6000, 4001], false, false],
    ['two cents short', -10000, [6000, 3998], false, false],
    ['two cents over', 10000, [6000, 4002], false, false],
    ['while saving', -10000, [6000, 4000], true, false],
    ['nothing typed', -10000, [null, null], false, false],
  ])('canSubmitSplit: %s', (_label, parent, magnitudes, saving, expected) => {
    expect(canSubmitSplit(parent, magnitudes, saving)).toBe(expected);
  });

  it.each([
    ['first empty row gets the rest', -10000, [6000, null, null], [6000, 4000, null]],
    ['empty row before a filled one', -10000, [null, 2500], [7500, 2500]],
    ['nothing left', -10000, [6000, 4000], [6000, 4000]],
    ['over-assigned: unchanged', -10000, [12000, null], [12000, null]],
    ['no empty row: unchanged', 10000, [6000, 1000], [6000, 1000]],
    ['positive parent', 500, [null, null], [500, null]],
  ])('autoFillRemainder: %s', (_label, parent, magnitudes, expected) => {
    const input = [...magnitudes];
    expect(autoFillRemainder(parent, input)).toEqual(expected);
    expect(input).toEqual(magnitudes); // never mutates
  });

  it('after auto-fill with an empty row the dialog can submit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.array(fc.option(fc.integer({ min: 0, max: 1_000_000 }), { nil: null }), { minLength: 1, maxLength: 6 }),
        (parent, magnitudes) => {
          const filled = autoFillRemainder(parent, magnitudes);
          const remainder = splitRemainder(parent, magnitudes);
          if (remainder > 0 && magnitudes.includes(null)) expect(splitRemainder(parent, filled)).toBe(0);
          else expect(filled).toEqual(magnitudes);
          expect(filled.filter((m) => m === null).length).toBeGreaterThanOrEqual(
            magnitudes.filter((m) => m === null).length - 1,
          );
        },
      ),
    );
  });

  it.each([
    [-100, [40, 60], [-40, -60]],
    [100, [40, 60], [40, 60]],
    [-100, [-40, 60], [-40, -60]],
    [0, [5], [5]],
  ])('signedSplitAmounts(%d, %j) = %j', (parent, magnitudes, expected) => {
    expect(signedSplitAmounts(parent, magnitudes)).toEqual(expected);
  });
  it('signedSplitAmounts never produces -0', () => {
    expect(Object.is(signedSplitAmounts(-100, [0])[0], 0)).toBe(true);
  });

  it('exports the constants: two parts at least, and no remainder allowed', () => {
    expect([MIN_SPLITS, SPLIT_TOLERANCE_CENTS]).toEqual([2, 0]);
  });

  it.each([
    [
      'one cent short',
      -10000,
      [6000, 3999],
      { index: 1, magnitude: 4000, label: 'Add the remaining 0.01 to the last part' },
    ],
    [
      'one cent over',
      10000,
      [6000, 4001],
      { index: 1, magnitude: 4000, label: 'Take the extra 0.01 off the last part' },
    ],
    [
      'short by more, three parts',
      -82_35,
      [5000, 3000, 200],
      { index: 2, magnitude: 235, label: 'Add the remaining 0.35 to the last part' },
    ],
    [
      'a grouped remainder',
      -1_000_000,
      [500_000, 376_543],
      { index: 1, magnitude: 500_000, label: 'Add the remaining 1,234.57 to the last part' },
    ],
  ])('lastPartAdjustment: %s', (_label, parent, magnitudes, expected) => {
    expect(lastPartAdjustment(parent, magnitudes)).toEqual(expected);
  });

  it.each([
    ['exact', -10000, [6000, 4000]],
    ['an empty slot (Auto-fill instead)', -10000, [6000, null]],
    ['the last part cannot give that much', 10000, [10500, 300]],
    ['nothing typed', 10000, [null, null]],
  ])('lastPartAdjustment offers nothing: %s', (_label, parent, magnitudes) => {
    expect(lastPartAdjustment(parent, magnitudes)).toBeNull();
  });

  it('after the last-part adjustment the dialog can submit', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -10_000_000, max: 10_000_000 }),
        fc.array(fc.integer({ min: 1, max: 1_000_000 }), { minLength: 2, maxLength: 6 }),
        (parent, magnitudes) => {
          const fix = lastPartAdjustment(parent, magnitudes);
          if (!fix) return;
          const next = [...magnitudes];
          next[fix.index] = fix.magnitude;
          expect(splitRemainder(parent, next)).toBe(0);
          expect(canSubmitSplit(parent, next, false)).toBe(true);
          expect(fix.magnitude).toBeGreaterThan(0);
        },
      ),
    );
  });
});

describe('the last part’s adjustment in the parent’s currency', () => {
  it.each([
    [-10000, [6000, 3000], null, 'Add the remaining 10.00 to the last part'],
    [-1500, [1000, 400], 'JPY', 'Add the remaining 100 to the last part'],
    [-1500, [1000, 600], 'JPY', 'Take the extra 100 off the last part'],
    [-2000, [1000, 900], 'BHD', 'Add the remaining 0.100 to the last part'],
  ] as const)('%i split as %j in %s: %s', (parent, magnitudes, currency, label) => {
    expect(lastPartAdjustment(parent, magnitudes, currency)?.label).toBe(label);
  });
});
