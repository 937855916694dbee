import { describe, expect, it } from 'vitest';
import {
  arrivingAmount,
  impliedRate,
  rateDeviation,
  rateText,
  TRANSFER_RATE_TOLERANCE,
} from '../../src/shared/rates/transfer-rate';

const rate = (num: bigint, den: bigint) => ({ num, den });

describe('the rate a transfer across currencies implies', () => {
  it.each([
    // out, out currency, in, in currency, implied rate
    [-10000, 'EUR', 8500, 'GBP', '0.85'],
    [-10000, 'EUR', 16250, 'JPY', '162.5'],
    [-16250, 'JPY', 10000, 'EUR', '0.006154'],
    [-1000, 'KWD', 325, 'USD', '3.25'],
  ] as const)('%i %s out and %i %s in: 1 = %s', (out, outCurrency, arrived, inCurrency, text) => {
    expect(rateText(impliedRate(out, outCurrency, arrived, inCurrency))).toBe(text);
  });

  it.each([
    [rate(86n, 100n), rate(85n, 100n), 0.0118],
    [rate(85n, 100n), rate(85n, 100n), 0],
    [rate(80n, 100n), rate(85n, 100n), 0.0588],
  ])('lies %s from %s by %f', (implied, day, off) => {
    expect(rateDeviation(implied, day)).toBeCloseTo(off, 4);
  });

  it('allows 5% either way', () => {
    expect(TRANSFER_RATE_TOLERANCE).toBe(0.05);
    expect(rateDeviation(rate(105n, 100n), rate(1n, 1n))).toBeLessThanOrEqual(TRANSFER_RATE_TOLERANCE);
    expect(rateDeviation(rate(1051n, 1000n), rate(1n, 1n))).toBeGreaterThan(TRANSFER_RATE_TOLERANCE);
  });

  it.each([
    [10000, 'EUR', 'GBP', rate(85n, 100n), 8500],
    [10000, 'EUR', 'JPY', rate(16225n, 100n), 16225],
    [333, 'EUR', 'JPY', rate(1625n, 10n), 541], // 541.125 yen
    [1, 'GBP', 'EUR', rate(100n, 85n), 1], // 1.176 cents
  ] as const)('%i %s arrive in %s as %i', (amount, from, to, day, arrived) => {
    expect(arrivingAmount(amount, from, to, day)).toBe(arrived);
  });
});
