import { describe, expect, it } from 'vitest';
import { formatMoney, formatSignedMoney, MINUS_SIGN } from '../../src/shared/money';

describe('amounts as a screen shows them', () => {
  it.each([
    [-84233, undefined, '−$842.33'],
    [84233, undefined, '$842.33'],
    [-5, undefined, '−$0.05'],
    [0, undefined, '$0.00'],
    [-123456789, 'USD', '−$1,234,567.89'],
    [-84233, 'EUR', '−€842.33'],
    [-84233, 'GBP', '−£842.33'],
  ])('%i in %s reads %s, the minus before the symbol', (cents, currency, text) => {
    expect(formatMoney(cents, { currency })).toBe(text);
  });

  it('never writes a hyphen-minus, nor a sign after the symbol', () => {
    for (const cents of [-1, -99, -100, -84233, -Number.MAX_SAFE_INTEGER]) {
      const text = formatMoney(cents);
      expect(text.startsWith(MINUS_SIGN)).toBe(true);
      expect(text).not.toMatch(/-|\$\D/);
    }
  });

  it('writes a net with its sign: plus for money in, minus for money out, none for zero', () => {
    expect(formatSignedMoney(235737)).toBe('+$2,357.37');
    expect(formatSignedMoney(-1200)).toBe('−$12.00');
    expect(formatSignedMoney(0)).toBe('$0.00');
  });
});
