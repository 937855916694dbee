import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { centsFromNumber, centsToDecimalString, formatCents, parseDecimalToCents, sumCents } from '../../src/shared/money';

describe('parseDecimalToCents', () => {
  it.each([
    ['12', 1200],
    ['12.3', 1230],
    ['12.34', 1234],
    ['-0.05', -5],
    [' 7.5 ', 750],
    ['1,234.56', 123456],
    ['3,5', 350],
    ['+4', 400],
    ['.5', 50],
    ['-0', 0],
    ['90071992547409.91', 9007199254740991],
  ])('%s -> %d', (text, cents) => {
    expect(parseDecimalToCents(text)).toBe(cents);
  });
  it.each(['', '  ', 'abc', '1.234', '1..2', '12-', '1e3', 'NaN', '90071992547409.92', '-', '1,23,4'])('refuses %j', (text) => {
    expect(parseDecimalToCents(text)).toBeNull();
  });
});

describe('centsFromNumber (round(100 x value))', () => {
  it.each([
    [1, 100],
    [1.005, 101],
    [0.1 + 0.2, 30],
    [-12.345, -1235],
    [19.99, 1999],
    [0, 0],
  ])('%d -> %d', (value, cents) => {
    expect(centsFromNumber(value)).toBe(cents);
  });
  it('refuses non-finite numbers', () => {
    expect(() => centsFromNumber(Number.NaN)).toThrow(RangeError);
    expect(() => centsFromNumber(Infinity)).toThrow(RangeError);
  });
});

describe('formatting', () => {
  it.each([
    [123456, '1,234.56', '$1,234.56', '1234.56'],
    [-1230, '-12.30', '-$12.30', '-12.30'],
    [5, '0.05', '$0.05', '0.05'],
    [0, '0.00', '$0.00', '0.00'],
    [9007199254740991, '90,071,992,547,409.91', '$90,071,992,547,409.91', '90071992547409.91'],
  ])('%d', (cents, plain, usd, decimal) => {
    expect(formatCents(cents)).toBe(plain);
    expect(formatCents(cents, { currency: 'USD' })).toBe(usd);
    expect(centsToDecimalString(cents)).toBe(decimal);
  });
  it('round-trips every safe cents value through text', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (cents) => {
        expect(parseDecimalToCents(centsToDecimalString(cents))).toBe(cents);
        expect(parseDecimalToCents(formatCents(cents))).toBe(cents);
      }),
    );
  });
  it('sums within the safe range or throws', () => {
    expect(sumCents([1, 2, -3])).toBe(0);
    expect(() => sumCents([Number.MAX_SAFE_INTEGER, 1])).toThrow(RangeError);
  });
});
