import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  absCents,
  centsFromNumber,
  centsToDecimalString,
  formatCents,
  groupDigits,
  isCents,
  sumCents,
} from '../../src/shared/money';

const MAX = Number.MAX_SAFE_INTEGER;
const anyCents = fc.integer({ min: -MAX, max: MAX });

describe('centsFromNumber (round(100 x value) on the decimal text)', () => {
  it.each([
    [1, 100],
    [1.005, 101],
    [-1.005, -101],
    [0.1 + 0.2, 30],
    [-12.345, -1235],
    [19.99, 1999],
    [1.1, 110],
    [0.005, 1],
    [-0.005, -1],
    [0.0049, 0],
    [-0.004, 0],
    [1e-7, 0],
    [5e-3, 1],
    [0, 0],
    [-0, 0],
    [9007199254740.99, 900719925474099],
    [123456.78, 12345678],
  ])('%d -> %d', (value, cents) => {
    expect(Object.is(centsFromNumber(value), cents)).toBe(true);
  });

  it.each([Number.NaN, Infinity, -Infinity, 1e15, 1e21, -1e300])('refuses %d', (value) => {
    expect(() => centsFromNumber(value)).toThrow(RangeError);
  });

  it('is the inverse of /100 for amounts of up to 15 significant digits', () => {
    fc.assert(
      fc.property(fc.integer({ min: -999_999_999_999_999, max: 999_999_999_999_999 }), (cents) => {
        expect(centsFromNumber(cents / 100)).toBe(cents);
      }),
    );
  });
});

describe('centsToDecimalString and formatCents', () => {
  it.each([
    [123456, '1,234.56', '$1,234.56', '1234.56'],
    [-1230, '-12.30', '-$12.30', '-12.30'],
    [5, '0.05', '$0.05', '0.05'],
    [-5, '-0.05', '-$0.05', '-0.05'],
    [-100, '-1.00', '-$1.00', '-1.00'],
    [0, '0.00', '$0.00', '0.00'],
    [-0, '0.00', '$0.00', '0.00'],
    [100000000, '1,000,000.00', '$1,000,000.00', '1000000.00'],
    [MAX, '90,071,992,547,409.91', '$90,071,992,547,409.91', '90071992547409.91'],
    [-MAX, '-90,071,992,547,409.91', '-$90,071,992,547,409.91', '-90071992547409.91'],
    [9007199254740899, '90,071,992,547,408.99', '$90,071,992,547,408.99', '90071992547408.99'],
  ])('%d', (cents, plain, usd, decimal) => {
    expect(formatCents(cents)).toBe(plain);
    expect(formatCents(cents, { currency: 'USD' })).toBe(usd);
    expect(centsToDecimalString(cents)).toBe(decimal);
  });

  it.each([
    [123456, { locale: 'de-DE' }, '1.234,56'],
    [-123456, { locale: 'de-DE', currency: 'EUR' }, '-1.234,56\u00a0€'],
    [-5, { locale: 'en-GB', currency: 'GBP' }, '-£0.05'],
    [123456, { locale: 'en-IN' }, '1,234.56'],
    [12345678901, { locale: 'en-IN' }, '12,34,56,789.01'],
    [123456, { locale: 'ar-EG' }, '١٬٢٣٤٫٥٦'],
    [123456, { currency: 'JPY' }, '¥123,456'],
    [-5, { currency: 'KRW' }, '-₩5'],
    [-1500, { currency: 'BHD' }, '-BHD\u00a01.500'],
    [1, { currency: 'KWD', locale: 'ar-EG' }, '\u200f٠٫٠٠١\u00a0د.ك.\u200f'],
  ])('%d with %j -> %j', (cents, options, expected) => {
    expect(formatCents(cents, options)).toBe(expected);
  });

  it.each(['en-US', 'de-DE', 'ar-EG', 'hi-IN-u-nu-deva', 'fr-CH'])(
    '%s: every fraction 00-99, either sign, reads as Intl formats value/100',
    (locale) => {
      const intl = new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
      for (const units of [0, 7, 1234]) {
        for (let fraction = 0; fraction < 100; fraction += 1) {
          const cents = units * 100 + fraction;
          // Exact in floating point at this size: Intl's own rounding of value/100 is the reference.
          expect(formatCents(cents, { locale })).toBe(intl.format(cents / 100));
          if (cents !== 0) expect(formatCents(-cents, { locale })).toBe(intl.format(-cents / 100));
        }
      }
    },
  );

  it.each([1.5, Number.NaN, Infinity, MAX + 1])('refuses non-cents %d', (value) => {
    expect(() => formatCents(value)).toThrow(RangeError);
    expect(() => centsToDecimalString(value)).toThrow(RangeError);
  });

  it("agrees with Intl's exact decimal-string formatting for every safe cents value", () => {
    const oracle = new Intl.NumberFormat('de-DE', {
      style: 'currency',
      currency: 'EUR',
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
    });
    fc.assert(
      fc.property(anyCents, (cents) => {
        const exact = oracle.format(centsToDecimalString(cents) as unknown as number);
        expect(formatCents(cents, { locale: 'de-DE', currency: 'EUR' })).toBe(exact);
      }),
    );
  });
});

describe('groupDigits (en-US grouping of whole numbers, without ICU)', () => {
  it.each([
    [0, '0'],
    [7, '7'],
    [999, '999'],
    [1000, '1,000'],
    [-1000, '-1,000'],
    [100_000, '100,000'],
    [1_000_000, '1,000,000'],
    [10_000_000_000_000, '10,000,000,000,000'],
    [-123_456_789, '-123,456,789'],
  ])('%d -> %s', (n, text) => {
    expect(groupDigits(n)).toBe(text);
  });

  it("answers what toLocaleString('en-US') answers for any safe integer", () => {
    fc.assert(fc.property(anyCents, (n) => groupDigits(n) === n.toLocaleString('en-US')));
  });

  it.each([1.5, Number.NaN, Infinity, 2 ** 60])('refuses %d', (n) => {
    expect(() => groupDigits(n)).toThrow(RangeError);
  });
});

describe('absCents, sumCents, isCents', () => {
  it.each([
    [[], 0],
    [[1, 2, -3], 0],
    [[-150, 25], -125],
    [[MAX, 1, -1], MAX],
    [[MAX, MAX, -MAX], MAX],
    [[-MAX, -MAX, MAX, 5], -MAX + 5],
  ])('sumCents(%j) = %d', (values, total) => {
    expect(sumCents(values)).toBe(total);
  });

  it.each([
    ['over the top', [MAX, 1]],
    ['under the bottom', [-MAX, -1]],
    ['not an integer', [1, 0.5]],
    ['NaN', [Number.NaN]],
  ])('sumCents refuses %s', (_label, values) => {
    expect(() => sumCents(values)).toThrow(RangeError);
  });

  it('sums exactly (compared with BigInt) or throws', () => {
    fc.assert(
      fc.property(fc.array(anyCents, { maxLength: 20 }), (values) => {
        const exact = values.reduce((s, v) => s + BigInt(v), 0n);
        if (exact > BigInt(MAX) || exact < -BigInt(MAX)) expect(() => sumCents(values)).toThrow(RangeError);
        else expect(sumCents(values)).toBe(Number(exact));
      }),
    );
  });

  it.each([
    [-1230, 1230],
    [1230, 1230],
    [-MAX, MAX],
  ])('absCents(%d) = %d', (cents, abs) => {
    expect(absCents(cents)).toBe(abs);
  });
  it('absCents never returns -0', () => {
    expect(Object.is(absCents(-0), 0)).toBe(true);
  });

  it.each([
    [0, true],
    [-MAX, true],
    [MAX + 1, false],
    [1.5, false],
    ['5', false],
  ])('isCents(%j) = %s', (value, expected) => {
    expect(isCents(value)).toBe(expected);
  });
});
