import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AMOUNT_CENTS } from '../../src/shared/limits';
import {
  AMOUNT_HINT,
  centsToDecimalString,
  decimalMarkOf,
  formatAmountInput,
  formatCents,
  readAmount,
  tooLargeMessage,
  type AmountMode,
  type ReadAmountOptions,
} from '../../src/shared/money';

const MODES: AmountMode[] = ['form', 'csv', 'query'];
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

type Outcome = number | string;

/** The reading in one word: the cents, the cents and a credit/debit marker ("1250 CR"), or the failure's code. */
function read(text: string, mode: AmountMode, options: ReadAmountOptions = {}): Outcome {
  const reading = readAmount(text, mode, options);
  if (!reading.ok) return reading.code;
  return reading.marker ? `${reading.cents} ${reading.marker}` : reading.cents;
}

const EMPTY = 'EMPTY';
const INVALID = 'INVALID';
const TOO_LARGE = 'TOO_LARGE';

describe('readAmount: one text, three writers', () => {
  // text, a form field (en-US and de-DE alike), a bank file's cell, an API query value
  it.each<[string, Outcome, Outcome, Outcome]>([
    ['12', 1200, 1200, 1200],
    ['12.3', 1230, 1230, 1230],
    ['-12.34', -1234, -1234, -1234],
    ['-0.05', -5, -5, -5],
    ['1000000', 100000000, 100000000, 100000000],
    ['007.10', 710, 710, 710],
    ['0000000000000000000001', 100, 100, 100],
    ['-0', 0, 0, 0],
    ['-0.00', 0, 0, 0],
    ['0,00', 0, 0, 0],
    ['+4', 400, 400, 400],
    ['\u221212.50', -1250, -1250, -1250],
    ['\u22125.25', -525, -525, -525],
    ['\u2013 12.50', -1250, -1250, -1250],
    ['      -31,45', -3145, -3145, -3145],
    ['  7.5  ', 750, 750, 750],
    ['\t-7.50\n', -750, -750, -750],
    ['.5', 50, 50, 50],
    [',5', 50, 50, 50],
    ['12.', 1200, 1200, 1200],
    ['1,234.', 123400, 123400, 123400],
    // decimal comma: never scaled
    ['-100,50', -10050, -10050, -10050],
    ['100,50', 10050, 10050, 10050],
    ['8,78', 878, 878, 878],
    ['319,9', 31990, 31990, 31990],
    ['3,5', 350, 350, 350],
    ['1,23', 123, 123, 123],
    ['12,', 1200, INVALID, INVALID],
    // thousands
    ['1,234.56', 123456, 123456, 123456],
    ['1,234,567.89', 123456789, 123456789, 123456789],
    ['-1,234,567.8', -123456780, -123456780, -123456780],
    ['1,234,567', 123456700, 123456700, 123456700],
    ['1.234,56', 123456, 123456, INVALID],
    ['1.234.567,89', 123456789, 123456789, INVALID],
    ['1.234.567', 123456700, 123456700, INVALID],
    ['1 234,56', 123456, 123456, INVALID],
    ['1 234,50', 123450, 123450, INVALID],
    ['1\u00a0234,56', 123456, 123456, INVALID],
    ['1\u202f234,56', 123456, 123456, INVALID],
    ['1\u2009234,56', 123456, 123456, INVALID],
    ['1\u2007234,56', 123456, 123456, INVALID],
    ['\t2.640,00  ', 264000, 264000, INVALID],
    ['-  1 234.56  ', -123456, -123456, INVALID],
    ['1 234', 123400, 123400, INVALID],
    ["1'234.56", 123456, 123456, INVALID],
    ["11'373.94", 1137394, 1137394, INVALID],
    ['1\u2019234.56', 123456, 123456, INVALID],
    ['1,23,456.78', 12345678, INVALID, INVALID],
    // signs and currencies
    ['(12.50)', -1250, -1250, INVALID],
    ['( 12,50 )', -1250, -1250, INVALID],
    ['(0.00)', 0, 0, INVALID],
    ['12.50-', -1250, -1250, INVALID],
    ['12-', -1200, -1200, INVALID],
    ['$12.50', 1250, 1250, INVALID],
    ['$5', 500, 500, INVALID],
    ['-$12.50', -1250, -1250, INVALID],
    ['$-12.50', -1250, -1250, INVALID],
    ['-$7,971.39', -797139, -797139, INVALID],
    ['- $220.00', -22000, -22000, INVALID],
    ['+ £1,234.56', 123456, 123456, INVALID],
    ['12,50 €', 1250, 1250, INVALID],
    ['€12,50', 1250, 1250, INVALID],
    ['€ 5', 500, 500, INVALID],
    ['-€ 3,20', -320, -320, INVALID],
    ['12.50€', 1250, 1250, INVALID],
    ['£1,000.00', 100000, 100000, INVALID],
    ['¥500', 50000, 50000, INVALID],
    ['CHF 10.50', INVALID, 1050, INVALID],
    ['EUR 12', INVALID, 1200, INVALID],
    ['12.50 CR', INVALID, '1250 CR', INVALID],
    ['12.50 DR', INVALID, '1250 DR', INVALID],
    ['12,50 H', INVALID, '1250 CR', INVALID],
    ['12,50 S', INVALID, '1250 DR', INVALID],
    // other digits
    ['\uff11\uff12\uff0e\uff15', 1250, 1250, 1250],
    ['\u0661\u0662\u066b\u0665', 1250, 1250, 1250],
    // more decimals than the currency has: a person's are rounded, a file's and a query's refused
    ['1.50', 150, 150, 150],
    ['0.995', 100, INVALID, INVALID],
    ['0,123', 12, INVALID, INVALID],
    ['1,234,567.891', 123456789, INVALID, INVALID],
    // blank, and what a bank writes in an empty cell
    ['', EMPTY, EMPTY, EMPTY],
    ['  \t ', EMPTY, EMPTY, EMPTY],
    ['-', INVALID, EMPTY, INVALID],
    ['--', INVALID, EMPTY, INVALID],
    // not amounts
    ['abc', INVALID, INVALID, INVALID],
    ['12abc', INVALID, INVALID, INVALID],
    ['1o0', INVALID, INVALID, INVALID],
    ['1e3', INVALID, INVALID, INVALID],
    ['NaN', INVALID, INVALID, INVALID],
    ['Infinity', INVALID, INVALID, INVALID],
    ['1.2.3', INVALID, INVALID, INVALID],
    ['1..2', INVALID, INVALID, INVALID],
    ['12.345.6', INVALID, INVALID, INVALID],
    ['1.2.3,4,5x', INVALID, INVALID, INVALID],
    ['12.50,30', INVALID, INVALID, INVALID],
    ['1.234,567.89', INVALID, INVALID, INVALID],
    ['12,50,3', INVALID, INVALID, INVALID],
    ['1,234,56', INVALID, INVALID, INVALID],
    ['1,23,4', INVALID, INVALID, INVALID],
    ['12,345,67', INVALID, INVALID, INVALID],
    ['12,34,567', 123456700, INVALID, INVALID],
    ['12 50', INVALID, INVALID, INVALID],
    ['1 234.567,89', INVALID, INVALID, INVALID],
    ['--5', INVALID, INVALID, INVALID],
    ['-5-', INVALID, INVALID, INVALID],
    ['(-5)', INVALID, INVALID, INVALID],
    ['$12 €', INVALID, INVALID, INVALID],
    ['.', INVALID, INVALID, INVALID],
    [',', INVALID, INVALID, INVALID],
    ['$', INVALID, INVALID, INVALID],
    ['()', INVALID, INVALID, INVALID],
    ['5+5', INVALID, INVALID, INVALID],
    ['1/2', INVALID, INVALID, INVALID],
  ])('%j: form %j, csv %j, query %j', (text, form, csv, query) => {
    expect(read(text, 'form', { locale: 'en-US' })).toBe(form);
    expect(read(text, 'form', { locale: 'de-DE' })).toBe(form);
    expect(read(text, 'csv')).toBe(csv);
    expect(read(text, 'query')).toBe(query);
  });

  // One mark before exactly three digits: a person's locale decides; files and queries group thousands.
  it.each<[string, Outcome, Outcome, Outcome, Outcome]>([
    ['1,234', 123400, 123, 123400, 123400],
    ['999,999', 99999900, 100000, 99999900, 99999900],
    ['1.234', 123, 123400, 123400, INVALID],
    ['-12.345', -1235, -1234500, -1234500, INVALID],
    ['1.005', 101, 100500, 100500, INVALID],
  ])('%j: form en-US %j, form de-DE %j, csv %j, query %j', (text, enUS, deDE, csv, query) => {
    expect(read(text, 'form', { locale: 'en-US' })).toBe(enUS);
    expect(read(text, 'form', { locale: 'de-DE' })).toBe(deDE);
    expect(read(text, 'csv')).toBe(csv);
    expect(read(text, 'query')).toBe(query);
  });

  it.each([
    ['1,234', 'en-GB', 123400],
    ['1,234', 'fr-FR', 123],
  ])('a form reads ambiguous %j in %s as %d and says the locale decided', (text, locale, cents) => {
    expect(readAmount(text, 'form', { locale })).toMatchObject({ ok: true, cents, localeDependent: true });
  });

  it.each(['1,234.56', '100,50', '12', '1.234,56', '0,123', '1 234'])('%j does not depend on the locale', (text) => {
    expect(readAmount(text, 'form', { locale: 'de-DE' })).toMatchObject({ ok: true, localeDependent: false });
  });

  it('rounds a form field half away from zero, and says so', () => {
    expect(readAmount('1.005', 'form')).toMatchObject({ ok: true, cents: 101, rounded: true });
    expect(readAmount('-1.004', 'form')).toMatchObject({ ok: true, cents: -100, rounded: true });
    expect(readAmount('0.995', 'form')).toMatchObject({ ok: true, cents: 100, rounded: true });
    expect(readAmount('1.50', 'form')).toMatchObject({ ok: true, cents: 150, rounded: false });
    expect(readAmount(`0.${'9'.repeat(400)}`, 'form')).toMatchObject({ ok: true, cents: 100 });
  });

  it('names the problem: blank, not an amount, or too large', () => {
    for (const mode of MODES) {
      expect(readAmount('', mode)).toEqual({ ok: false, code: 'EMPTY', message: 'Amount is required' });
      expect(readAmount('abc', mode)).toEqual({ ok: false, code: 'INVALID', message: AMOUNT_HINT });
    }
    expect(readAmount('9'.repeat(20), 'form')).toEqual({
      ok: false,
      code: 'TOO_LARGE',
      message: 'Enter an amount of at most 100,000,000,000.00',
    });
  });

  it('refuses a form field or a query value beyond the largest stored amount; a file reads up to 2^53', () => {
    for (const mode of ['form', 'query'] as const) {
      expect(read(centsToDecimalString(MAX_AMOUNT_CENTS), mode)).toBe(MAX_AMOUNT_CENTS);
      expect(read(centsToDecimalString(-MAX_AMOUNT_CENTS), mode)).toBe(-MAX_AMOUNT_CENTS);
      expect(read(centsToDecimalString(MAX_AMOUNT_CENTS + 1), mode)).toBe(TOO_LARGE);
    }
    // The import reports an amount beyond the stored limit with its line.
    expect(read(centsToDecimalString(MAX_AMOUNT_CENTS + 1), 'csv')).toBe(MAX_AMOUNT_CENTS + 1);
    expect(read('90071992547409.91', 'csv')).toBe(Number.MAX_SAFE_INTEGER);
    expect(read('-90,071,992,547,409.91', 'csv')).toBe(-Number.MAX_SAFE_INTEGER);
    expect(read('90071992547409.92', 'csv')).toBe(TOO_LARGE);
    for (const mode of MODES) expect(read('1'.repeat(400), mode)).toBe(TOO_LARGE);
  });
});

describe("readAmount with a currency's decimals", () => {
  it.each<[string, AmountMode, number, Outcome]>([
    ['1234', 'form', 0, 1234],
    ['1,234.5', 'form', 0, 1235],
    ['12.50', 'csv', 0, INVALID],
    ['1500.00', 'csv', 0, 1500],
    ['-1500.0', 'query', 0, -1500],
    ['-2.10', 'csv', 3, -2100],
    // one mark before three digits: decimals of a three-decimal currency, else thousands
    ['1.250', 'csv', 3, 1250],
    ['1,250', 'query', 3, 1250],
    ['1.250', 'csv', 0, 1250],
    ['1.250', 'csv', 2, 125000],
    ['12', 'query', 0, 12],
    ['1.234', 'form', 3, 1234],
    ['-1,5', 'csv', 3, -1500],
    ['0.0005', 'form', 3, 1],
    ['12.3456', 'csv', 3, INVALID],
    ['1.5', 'query', 3, 1500],
  ])('%j as %s with %d decimals -> %j', (text, mode, fractionDigits, expected) => {
    expect(read(text, mode, { fractionDigits })).toBe(expected);
  });

  it('says the limit in the currency’s notation', () => {
    expect(tooLargeMessage(MAX_AMOUNT_CENTS, 0)).toBe('Enter an amount of at most 10,000,000,000,000');
    expect(tooLargeMessage(MAX_AMOUNT_CENTS, 3)).toBe('Enter an amount of at most 10,000,000,000.000');
    expect(readAmount('10000000000001', 'form', { fractionDigits: 0 })).toMatchObject({
      code: 'TOO_LARGE',
      message: tooLargeMessage(MAX_AMOUNT_CENTS, 0),
    });
  });

  it.each([-1, 1.5, 5])('refuses %d decimals', (fractionDigits) => {
    expect(() => readAmount('1', 'form', { fractionDigits })).toThrow(RangeError);
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

describe('readAmount properties', () => {
  it('reads back what formatAmountInput shows, in every locale', () => {
    fc.assert(
      fc.property(amounts, fc.constantFrom(...LOCALES), (value, locale) => {
        expect(readAmount(formatAmountInput(value, locale), 'form', { locale })).toMatchObject({
          ok: true,
          cents: value,
        });
      }),
    );
  });

  it('reads back the plain and the grouped en-US text of any amount, in every mode', () => {
    fc.assert(
      fc.property(amounts, fc.constantFrom(...MODES), (value, mode) => {
        expect(read(centsToDecimalString(value), mode)).toBe(value);
        expect(read(formatCents(value), mode)).toBe(value);
      }),
    );
  });

  it('never scales: a decimal point or comma with two decimals is the same amount in every locale and mode', () => {
    fc.assert(
      fc.property(amounts, fc.constantFrom(...LOCALES), fc.constantFrom('.', ','), (value, locale, mark) => {
        const text = centsToDecimalString(value).replace('.', mark);
        expect(readAmount(text, 'form', { locale })).toMatchObject({ ok: true, cents: value, localeDependent: false });
        expect(read(text, 'csv')).toBe(value);
        expect(read(text, 'query')).toBe(value);
      }),
    );
  });

  it('reads plain decimals the same whether or not they need trimming', () => {
    const plain = fc
      .tuple(fc.boolean(), fc.stringMatching(/^\d{1,18}$/), fc.stringMatching(/^(\.\d{1,2})?$/))
      .map(([minus, whole, fraction]) => `${minus ? '-' : ''}${whole}${fraction}`);
    fc.assert(
      fc.property(plain, fc.constantFrom(...MODES), fc.integer({ min: 0, max: 4 }), (text, mode, fractionDigits) => {
        expect(readAmount(text, mode, { fractionDigits })).toEqual(readAmount(` ${text} `, mode, { fractionDigits }));
      }),
    );
  });

  it('reads the same amount with a currency symbol, parentheses or a Unicode minus', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: MAX_AMOUNT_CENTS }),
        fc.constantFrom('$', '€', '£', '₹'),
        fc.constantFrom<AmountMode>('form', 'csv'),
        (value, symbol, mode) => {
          const plain = centsToDecimalString(value);
          expect(read(`${symbol}${plain}`, mode)).toBe(value);
          expect(read(`${plain} ${symbol}`, mode)).toBe(value);
          expect(read(`(${plain})`, mode)).toBe(-value);
          expect(read(`\u2212${symbol}${plain}`, mode)).toBe(-value);
        },
      ),
    );
  });

  it('never throws, and anything it reads is whole cents within the limit', () => {
    const chars = fc.constantFrom(..."0123456789.,-+ ()$€'\u2212\u00a0eaCRDH".split(''));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(chars, { maxLength: 24 }).map((a) => a.join('')),
        ),
        fc.constantFrom(...LOCALES),
        fc.constantFrom(...MODES),
        (text, locale, mode) => {
          const reading = readAmount(text, mode, { locale });
          if (reading.ok) {
            expect(Number.isSafeInteger(reading.cents)).toBe(true);
            if (mode !== 'csv') expect(Math.abs(reading.cents)).toBeLessThanOrEqual(MAX_AMOUNT_CENTS);
            expect(Object.is(reading.cents, -0)).toBe(false);
          } else {
            expect(['EMPTY', 'INVALID', 'TOO_LARGE']).toContain(reading.code);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('refuses any form field or query value with a letter in it', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.constantFrom(...'abcdefghijklmnopqrstuvwxyzAEIOU'.split('')),
        fc.string(),
        fc.constantFrom<AmountMode>('form', 'query'),
        (before, letter, after, mode) => {
          expect(readAmount(`${before}${letter}${after}`, mode).ok).toBe(false);
        },
      ),
    );
  });
});
