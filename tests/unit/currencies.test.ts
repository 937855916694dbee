import { describe, expect, it } from 'vitest';
import {
  CURRENCY_CODES,
  currencyOfLocale,
  DEFAULT_CURRENCY,
  isCurrencyCode,
  minorUnitsOf,
} from '../../src/shared/money/currencies';

describe('minorUnitsOf', () => {
  it.each([
    ['EUR', 2],
    ['USD', 2],
    ['GBP', 2],
    ['CHF', 2],
    ['HUF', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['BHD', 3],
    ['KWD', 3],
    ['TND', 3],
    ['CLF', 4],
  ])('%s has %d decimals', (code, digits) => {
    expect(minorUnitsOf(code)).toBe(digits);
  });

  it('refuses a code that is not an ISO 4217 currency', () => {
    for (const code of ['EURO', 'eur', 'XXX', '', 'ABC']) expect(() => minorUnitsOf(code)).toThrow(RangeError);
  });

  it('lists each code once, three capital letters, and every one formats through Intl', () => {
    expect(new Set(CURRENCY_CODES).size).toBe(CURRENCY_CODES.length);
    for (const code of CURRENCY_CODES) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect(isCurrencyCode(code)).toBe(true);
      expect(() => new Intl.NumberFormat('en', { style: 'currency', currency: code })).not.toThrow();
    }
  });
});

describe('currencyOfLocale', () => {
  it.each([
    ['en-US', 'USD'],
    ['en-GB', 'GBP'],
    ['de-DE', 'EUR'],
    ['de', 'EUR'],
    ['fr-CH', 'CHF'],
    ['de-AT', 'EUR'],
    ['ja', 'JPY'],
    ['ko-KR', 'KRW'],
    ['ar-BH', 'BHD'],
    ['not a locale', DEFAULT_CURRENCY],
  ])('%s -> %s', (locale, currency) => {
    expect(currencyOfLocale(locale)).toBe(currency);
  });
});
