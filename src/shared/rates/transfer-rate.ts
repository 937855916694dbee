/**
 * A transfer between accounts of two currencies carries both amounts. The rate they imply (units of
 * the arriving currency for one unit of the leaving one) must lie within TRANSFER_RATE_TOLERANCE of
 * the day's rate: further off, the sides are not one movement of money (or an amount was mistyped).
 */
import { minorUnitsOf } from '../money/currencies';
import { pow10 } from '../money/decimal';
import { convertAmount, fractionText, type RateFraction } from './lookup';

/** How far (as a fraction of it) the implied rate may lie from the day's rate. */
export const TRANSFER_RATE_TOLERANCE = 0.05;

/** Units of `inCurrency` per unit of `outCurrency` that `outAmount` leaving and `inAmount` arriving imply. */
export function impliedRate(
  outAmount: number,
  outCurrency: string,
  inAmount: number,
  inCurrency: string,
): RateFraction {
  const out = BigInt(Math.abs(outAmount));
  const arrived = BigInt(Math.abs(inAmount));
  return { num: arrived * pow10(minorUnitsOf(outCurrency)), den: out * pow10(minorUnitsOf(inCurrency)) };
}

/** The implied rate's distance from the day's rate, relative to the day's rate (0.012 is 1.2% off). */
export function rateDeviation(implied: RateFraction, day: RateFraction): number {
  if (implied.den === 0n || day.num === 0n) return Infinity;
  // |implied / day - 1| in millionths, exactly, then as a fraction: 5% is 0.05, not a hair above it.
  const millionths = (implied.num * day.den * 1_000_000n) / (implied.den * day.num) - 1_000_000n;
  return Number(millionths < 0n ? -millionths : millionths) / 1_000_000;
}

/** What `amount` of `from` comes to in `to` at the day's rate (half to even), for a transfer given one amount. */
export function arrivingAmount(amount: number, from: string, to: string, day: RateFraction): number {
  return convertAmount(amount, day, minorUnitsOf(from), minorUnitsOf(to));
}

/** The implied rate as text for answers and messages ("1.1679"). */
export function rateText(rate: RateFraction): string {
  return rate.den === 0n ? '' : fractionText(rate, 6);
}
