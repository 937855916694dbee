/**
 * A statement row's original amount: what a card payment abroad cost in the shop's currency. Banks
 * write it as a second amount with its currency (CSV "Original Amount", CAMT InstdAmt) or as the
 * rate the booked amount was converted at (OFX ORIGCURRENCY with CURRATE).
 */
import { isCurrencyCode, minorUnitsOf } from '../money/currencies';
import { divideHalfEven, parseDecimal, pow10 } from '../money/decimal';
import { readAmount } from '../money/read-amount';

export interface OriginalAmount {
  /** Minor units of `originalCurrency`, signed like the booked amount. */
  originalAmount: number;
  originalCurrency: string;
}

/** The booked amount's direction on the original (files often write it unsigned). */
function signedLike(booked: number, original: number): number {
  const magnitude = Math.abs(original);
  return booked < 0 && magnitude !== 0 ? -magnitude : magnitude;
}

/**
 * An amount written as text with its currency code; null when either is missing or unreadable, or
 * when the original is in the account's own currency (then it says nothing the amount does not).
 */
export function readOriginal(
  amountText: string,
  currencyText: string,
  booked: number,
  accountCurrency: string | undefined,
): OriginalAmount | null {
  const currency = currencyText.trim().toUpperCase();
  if (!isCurrencyCode(currency) || currency === accountCurrency) return null;
  const reading = readAmount(amountText, 'csv', { fractionDigits: minorUnitsOf(currency) });
  if (!reading.ok) return null;
  return { originalAmount: signedLike(booked, reading.cents), originalCurrency: currency };
}

/**
 * OFX: the booked amount (minor units with `bookedDigits` decimals) was converted from `currency` at
 * `rateText` (booked units per original unit), so the original is booked / rate, half to even.
 */
export function originalFromRate(
  booked: number,
  bookedDigits: number,
  rateText: string,
  currencyText: string,
): OriginalAmount | null {
  const currency = currencyText.trim().toUpperCase();
  const rate = parseDecimal(rateText);
  if (!isCurrencyCode(currency) || !rate || rate.units <= 0n) return null;
  const digits = minorUnitsOf(currency);
  const original = divideHalfEven(BigInt(booked) * pow10(digits + rate.scale), rate.units * pow10(bookedDigits));
  return { originalAmount: Number(original), originalCurrency: currency };
}
