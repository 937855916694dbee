import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_CENTS } from '../../src/shared/limits';
import {
  AMOUNT_HINT,
  centsToDecimalString,
  decimalMarkOf,
  formatAmountInput,
  parseAmount,
  TOO_LARGE_MESSAGE,
} from '../../src/shared/money';

const LOCALES = [
  'en-US',
  'de-DE',
  'fr-FR',
  'de-CH',
  'en-IN',
  'es-ES',
  'nl-NL',
  'en-GB',
  'pt-BR',
  'ar-EG',
  'ja-JP',
  'sv-SE',
];
const amounts = fc.integer({ min: -MAX_AMOUNT_CENTS, max: MAX_AMOUNT_CENTS });

function cents(text: string, locale = 'en-US'): number | string {
  const reading = parseAmount(text, locale);
  return reading.ok ? reading.cents : reading.code;
}

describe('parseAmount: common notations, the same in every locale', () => {
  it.each([
    ['-100.50', -10050],
    ['-100,50', -10050],
    ['100,50', 10050],
    ['1,234.56', 123456],
    ['1.234,56', 123456],
    ['1 234,56', 123456],
    ['1\u00a0234,56', 123456],
    ['1\u202f234,56', 123456],
    ["1'234.56", 123456],
    ['1\u2019234.56', 123456],
    ['(12.50)', -1250],
    ['( 12,50 )', -1250],
    ['\u221212.50', -1250],
    ['$12.50', 1250],
    ['-$12.50', -1250],
    ['$-12.50', -1250],
    ['12,50 €', 1250],
    ['€12,50', 1250],
    ['-€ 3,20', -320],
    ['12.50€', 1250],
    ['£1,000.00', 100000],
    ['¥500', 50000],
    ['12.50-', -1250],
    ['+4', 400],
    ['12', 1200],
    ['.5', 50],
    [',5', 50],
    ['12.', 1200],
    ['0,123', 12],
    ['-0', 0],
    ['(0.00)', 0],
    ['1,234,567.89', 123456789],
    ['1.234.567,89', 123456789],
    ['1.234.567', 123456700],
    ['1,234,567', 123456700],
    ['1,23,456.78', 12345678],
    ['  7.5  ', 750],
    ['\uff11\uff12\uff0e\uff15', 1250],
    ['\u0661\u0662\u066b\u0665', 1250],
    ['1000000', 100000000],
  ])('%j -> %d (en-US and de-DE alike)', (text, expected) => {
    expect(cents(text, 'en-US')).toBe(expected);
    expect(cents(text, 'de-DE')).toBe(expected);
  });

  it.each([
    ['1,234', 'en-US', 123400],
    ['1,234', 'en-GB', 123400],
    ['1,234', 'de-DE', 123],
    ['1,234', 'fr-FR', 123],
    ['1.234', 'en-US', 123],
    ['1.234', 'de-DE', 123400],
    ['-12.345', 'en-US', -1235],
    ['-12.345', 'de-DE', -1234500],
    ['999,999', 'de-DE', 100000],
  ])('ambiguous %j in %s -> %d, and says the locale decided', (text, locale, expected) => {
    const reading = parseAmount(text, locale);
    expect(reading).toMatchObject({ ok: true, cents: expected, localeDependent: true });
  });

  it.each(['1,234.56', '100,50', '12', '1.234,56', '0,123', '1 234'])('%j does not depend on the locale', (text) => {
    const reading = parseAmount(text, 'de-DE');
    expect(reading.ok && reading.localeDependent).toBe(false);
  });

  it('rounds more than two decimals half away from zero, and says so', () => {
    expect(parseAmount('1.005')).toMatchObject({ ok: true, cents: 101, rounded: true });
    expect(parseAmount('-1.004')).toMatchObject({ ok: true, cents: -100, rounded: true });
    expect(parseAmount('0.995')).toMatchObject({ ok: true, cents: 100, rounded: true });
    expect(parseAmount('1.50')).toMatchObject({ ok: true, cents: 150, rounded: false });
  });

  it.each([
    ['letters', 'abc'],
    ['letters after digits', '12abc'],
    ['letters inside', '1o0'],
    ['a currency code', 'EUR 12'],
    ['exponent', '1e3'],
    ['NaN', 'NaN'],
    ['Infinity', 'Infinity'],
    ['two decimal points', '1.2.3'],
    ['two decimal marks', '12.50,30'],
    ['decimal before groups', '1.234,567.89'],
    ['two decimal commas', '12,50,3'],
    ['a bad group', '1,23,4'],
    ['a short last group', '12,345,67'],
    ['spaced digits that are no groups', '12 50'],
    ['spaces and two marks', '1 234.567,89'],
    ['two signs', '--5'],
    ['sign on both ends', '-5-'],
    ['parentheses and a sign', '(-5)'],
    ['two currency symbols', '$12 €'],
    ['a sign alone', '-'],
    ['a mark alone', '.'],
    ['a currency alone', '$'],
    ['empty parentheses', '()'],
    ['an operator', '5+5'],
    ['a slash', '1/2'],
  ])('refuses %s (%j) with the hint', (_label, text) => {
    expect(parseAmount(text, 'en-US')).toEqual({ ok: false, code: 'INVALID', message: AMOUNT_HINT });
    expect(parseAmount(text, 'de-DE')).toEqual({ ok: false, code: 'INVALID', message: AMOUNT_HINT });
  });

  it('answers EMPTY for blank text', () => {
    expect(parseAmount('')).toMatchObject({ ok: false, code: 'EMPTY' });
    expect(parseAmount('  \t ')).toMatchObject({ ok: false, code: 'EMPTY' });
  });

  it('refuses amounts beyond the largest stored amount', () => {
    expect(cents(centsToDecimalString(MAX_AMOUNT_CENTS))).toBe(MAX_AMOUNT_CENTS);
    expect(cents(centsToDecimalString(-MAX_AMOUNT_CENTS))).toBe(-MAX_AMOUNT_CENTS);
    expect(parseAmount(centsToDecimalString(MAX_AMOUNT_CENTS + 1))).toEqual({
      ok: false,
      code: 'TOO_LARGE',
      message: TOO_LARGE_MESSAGE,
    });
    expect(parseAmount('9'.repeat(400))).toMatchObject({ ok: false, code: 'TOO_LARGE' });
    expect(parseAmount(`0.${'9'.repeat(400)}`)).toMatchObject({ ok: true, cents: 100 });
  });
});

describe('decimalMarkOf and formatAmountInput', () => {
  it.each([
    ['en-US', '.', -123456, '-1,234.56'],
    ['de-DE', ',', -123456, '-1.234,56'],
    ['fr-FR', ',', 123456, '1\u202f234,56'],
    ['ar-EG', '.', 123456, '1,234.56'],
    ['en-US', '.', 5, '0.05'],
    ['en-US', '.', -5, '-0.05'],
    ['en-US', '.', 0, '0.00'],
    ['not a locale!', '.', 100, '1.00'],
  ])('%s uses %j: %d -> %j', (locale, mark, value, text) => {
    expect(decimalMarkOf(locale)).toBe(mark);
    expect(formatAmountInput(value, locale)).toBe(text);
  });

  it('groups Swiss amounts with an apostrophe (ASCII or typographic, by ICU version)', () => {
    expect(formatAmountInput(123456, 'de-CH')).toMatch(/^1['\u2019]234\.56$/);
  });
});

describe('parseAmount properties', () => {
  it('reads back what formatAmountInput shows, in every locale', () => {
    fc.assert(
      fc.property(amounts, fc.constantFrom(...LOCALES), (value, locale) => {
        expect(parseAmount(formatAmountInput(value, locale), locale)).toMatchObject({ ok: true, cents: value });
      }),
    );
  });

  it('never scales: a decimal point or comma with two decimals is the same amount in every locale', () => {
    fc.assert(
      fc.property(amounts, fc.constantFrom(...LOCALES), fc.constantFrom('.', ','), (value, locale, mark) => {
        const text = centsToDecimalString(value).replace('.', mark);
        expect(parseAmount(text, locale)).toMatchObject({ ok: true, cents: value, localeDependent: false });
      }),
    );
  });

  it('reads the same amount with a currency symbol, parentheses or a Unicode minus', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }),
        fc.constantFrom('$', '€', '£', '₹'),
        (value, symbol) => {
          const plain = centsToDecimalString(value);
          expect(cents(`${symbol}${plain}`)).toBe(value);
          expect(cents(`${plain} ${symbol}`)).toBe(value);
          expect(cents(`(${plain})`)).toBe(-value);
          expect(cents(`\u2212${symbol}${plain}`)).toBe(-value);
        },
      ),
    );
  });

  it('never throws, and anything it reads is whole cents within the limit', () => {
    const chars = fc.constantFrom(..."0123456789.,-+ ()$€'\u2212\u00a0ea".split(''));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(chars, { maxLength: 24 }).map((a) => a.join('')),
        ),
        fc.constantFrom(...LOCALES),
        (text, locale) => {
          const reading = parseAmount(text, locale);
          if (reading.ok) {
            expect(Number.isSafeInteger(reading.cents)).toBe(true);
            expect(Math.abs(reading.cents)).toBeLessThanOrEqual(MAX_AMOUNT_CENTS);
            expect(Object.is(reading.cents, -0)).toBe(false);
          } else {
            expect(['EMPTY', 'INVALID', 'TOO_LARGE']).toContain(reading.code);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses any text with a letter in it', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzAEIOU'.split('')),
        fc.string(),
        (before, letter, after) => {
          expect(parseAmount(`${before}${letter}${after}`).ok).toBe(false);
        },
      ),
    );
  });
});
