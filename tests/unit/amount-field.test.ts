import { describe, expect, it } from 'vitest';
import { readAmountField, understoodAmount, UNSIGNED_MESSAGE } from '../../src/client/lib/amountField';

describe('readAmountField', () => {
  it.each([
    ['', {}, { ok: true, cents: null }],
    ['  ', { required: true }, { ok: false, message: 'Amount is required' }],
    ['', { required: true, requiredMessage: 'Balance is required' }, { ok: false, message: 'Balance is required' }],
    ['abc', {}, { ok: false, message: 'Enter an amount like -12.50' }],
    ['-100,50', {}, { ok: true, cents: -10050 }],
    ['-5', { unsigned: true }, { ok: false, message: UNSIGNED_MESSAGE }],
    ['5', { unsigned: true }, { ok: true, cents: 500 }],
    ['9'.repeat(20), {}, { ok: false, message: 'Enter an amount of at most 100,000,000,000.00' }],
  ])('%j with %j', (text, rules, expected) => {
    expect(readAmountField(text, 'en-US', rules)).toEqual(expected);
  });
});

describe('understoodAmount', () => {
  it.each([
    ['-100,50', 'en-US', '-100.50', null],
    ['-100,50', 'de-DE', '-100,50', null],
    ['1234.5', 'en-US', '1,234.50', null],
    ['1,234', 'en-US', '1,234.00', "Read as 1,234.00 (',' groups thousands here)"],
    ['1,234', 'de-DE', '1,23', "Read as 1,23 (',' is the decimal mark here; rounded to two decimals)"],
    ['1.234', 'de-DE', '1.234,00', "Read as 1.234,00 ('.' groups thousands here)"],
    ['1.005', 'en-US', '1.01', "Read as 1.01 ('.' is the decimal mark here; rounded to two decimals)"],
    ['2.999', 'en-US', '3.00', "Read as 3.00 ('.' is the decimal mark here; rounded to two decimals)"],
    ['0.1234', 'en-US', '0.12', 'Read as 0.12 (rounded to two decimals)'],
  ])('%j in %s shows %j', (text, locale, shown, note) => {
    expect(understoodAmount(text, locale)).toEqual({ text: shown, note });
  });

  it('leaves blank and unreadable text as typed', () => {
    expect(understoodAmount('', 'en-US')).toBeNull();
    expect(understoodAmount('12abc', 'en-US')).toBeNull();
  });
});

describe('amount fields in an account’s currency', () => {
  it.each([
    ['1500', 'JPY', { ok: true, cents: 1500 }],
    ['1,500', 'JPY', { ok: true, cents: 1500 }],
    ['12.50', 'EUR', { ok: true, cents: 1250 }],
    ['1.250', 'BHD', { ok: true, cents: 1250 }],
    ['12.50', null, { ok: true, cents: 1250 }],
  ] as const)('reads %s in %s', (text, currency, expected) => {
    expect(readAmountField(text, 'en-US', { currency })).toEqual(expected);
  });

  it.each([
    ['1500', 'JPY', '1,500'],
    ['1.5', 'BHD', '1.500'],
    ['-3', 'EUR', '-3.00'],
  ] as const)('shows %s in %s as %s once understood', (text, currency, shown) => {
    expect(understoodAmount(text, 'en-US', currency)?.text).toBe(shown);
  });
});
