/**
 * Exact decimals for exchange rates and converted amounts: a rate such as "0.86125" is kept as
 * the integer 86125 with scale 5, and conversion multiplies and divides integers (BigInt), rounding
 * once, half to even, so a converted figure never carries binary floating-point error.
 */

/** `units / 10^scale`, with `units` a BigInt. */
export interface Decimal {
  units: bigint;
  scale: number;
}

/** The most decimals a rate keeps; the ECB publishes at most 6 significant digits. */
export const MAX_RATE_SCALE = 12;

const DECIMAL_TEXT = /^([+-]?)(\d*)(?:\.(\d*))?$/;

/**
 * "1.0856", "0.5", "162", "1e-3" read exactly; null for text that is no decimal number or has more
 * than MAX_RATE_SCALE decimals after its trailing zeros are dropped.
 */
export function parseDecimal(text: string): Decimal | null {
  const trimmed = text.trim();
  const exp = /^(.*?)[eE]([+-]?\d{1,3})$/.exec(trimmed);
  const body = exp ? (exp[1] ?? '') : trimmed;
  const shift = exp ? Number(exp[2]) : 0;
  const match = DECIMAL_TEXT.exec(body);
  if (!match) return null;
  const [, sign = '', whole = '', fraction = ''] = match;
  if (whole === '' && fraction === '') return null;
  let digits = `${whole}${fraction}`;
  let scale = fraction.length - shift;
  if (scale < 0) {
    digits += '0'.repeat(-scale);
    scale = 0;
  }
  while (scale > 0 && digits.endsWith('0')) {
    digits = digits.slice(0, -1);
    scale -= 1;
  }
  if (scale > MAX_RATE_SCALE) return null;
  const units = BigInt(digits === '' ? '0' : digits);
  return { units: sign === '-' ? -units : units, scale };
}

/** The decimal as plain text without exponent or trailing zeros: "1.0856", "162", "0.000001". */
export function decimalText(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = digits.slice(0, digits.length - value.scale);
  let fraction = digits.slice(digits.length - value.scale);
  while (fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** numerator / denominator rounded to the nearest integer, ties to the even one. */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  let n = numerator;
  let d = denominator;
  if (d < 0n) {
    n = -n;
    d = -d;
  }
  const negative = n < 0n;
  const abs = negative ? -n : n;
  let q = abs / d;
  const twice = (abs % d) * 2n;
  if (twice > d || (twice === d && q % 2n === 1n)) q += 1n;
  return negative ? -q : q;
}

/** 10^n as a BigInt. */
export function pow10(n: number): bigint {
  return 10n ** BigInt(n);
}

/**
 * An amount of minor units in a currency with `fromDigits` decimals, times `rate` (quote per one unit
 * of base), as minor units of a currency with `toDigits` decimals, half to even.
 */
export function convertMinor(amount: number, rate: Decimal, fromDigits: number, toDigits: number): number {
  const numerator = BigInt(amount) * rate.units * pow10(toDigits);
  const denominator = pow10(rate.scale + fromDigits);
  return Number(divideHalfEven(numerator, denominator));
}

/**
 * An amount of minor units divided by `rate` (the inverse conversion: base per one unit of quote),
 * as minor units with `toDigits` decimals, half to even.
 */
export function convertMinorInverse(amount: number, rate: Decimal, fromDigits: number, toDigits: number): number {
  if (rate.units === 0n) throw new RangeError('A rate of zero has no inverse');
  const numerator = BigInt(amount) * pow10(toDigits + rate.scale);
  const denominator = rate.units * pow10(fromDigits);
  return Number(divideHalfEven(numerator, denominator));
}
