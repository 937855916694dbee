/**
 * Money is integers of the currency's minor unit below the UI (cents for two decimals; see
 * currencies.ts), shown with that many decimals. These helpers turn them into text (and
 * read-amount.ts text into them) exactly: no step divides in floating point, so every safe
 * integer survives a round trip.
 *
 * Programming errors (a non-integer "cents" value, a sum beyond the safe range) throw a RangeError.
 */
import { minorUnitsOf } from './currencies';

/** True for a value usable as cents: an integer within ±Number.MAX_SAFE_INTEGER. */
export function isCents(value: unknown): value is number {
  return Number.isSafeInteger(value);
}

function assertCents(cents: number): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an amount in cents: ${String(cents)}`);
}
/** Digits of Number.MAX_SAFE_INTEGER (9007199254740991). */
const MAX_SAFE_DIGITS = 16;

/** `String(number)` for a finite non-negative number: "1.005", "1e-7", "1.5e+21". */
const NUMBER_TEXT = /^(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/;

/**
 * round(100 x value) for a number from a form (a line item's amount).
 *
 * Works on the number's shortest decimal text (`String(value)`, the digits a person typed)
 * instead of multiplying in binary floating point, so:
 * - 1.005 -> 101 (binary 1.005 * 100 is 100.49999999999999, which Math.round makes 100);
 * - 0.1 + 0.2 (0.30000000000000004) -> 30; 19.99 -> 1999;
 * - halves round away from zero, symmetrically: -1.005 -> -101, -0.005 -> -1
 *   (Math.round would give -100 and -0).
 * Never returns -0. Throws RangeError for NaN, ±Infinity, or a result beyond MAX_SAFE_INTEGER.
 */
export function centsFromNumber(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError('Amount must be a finite number');
  const match = NUMBER_TEXT.exec(String(Math.abs(value)));
  if (!match) throw new RangeError(`Unexpected number text: ${String(value)}`);
  const [, intPart = '', fracPart = '', exponent = '0'] = match;
  const digits = intPart + fracPart;
  // Index in `digits` of the decimal point once the value is multiplied by 100.
  const point = intPart.length + Number(exponent) + 2;
  if (point > MAX_SAFE_DIGITS + 1) throw new RangeError('Amount is too large');
  let wholeDigits: string;
  let roundingDigit: string;
  if (point <= 0) {
    wholeDigits = '0';
    roundingDigit = point === 0 ? digits.charAt(0) : '0';
  } else if (point >= digits.length) {
    wholeDigits = digits + '0'.repeat(point - digits.length);
    roundingDigit = '0';
  } else {
    wholeDigits = digits.slice(0, point);
    roundingDigit = digits.charAt(point);
  }
  const cents = Number(wholeDigits) + (roundingDigit >= '5' ? 1 : 0);
  if (cents > Number.MAX_SAFE_INTEGER) throw new RangeError('Amount is too large');
  return value < 0 && cents !== 0 ? -cents : cents;
}

/** Splits |minor| into whole units and the fraction (0 to 10^digits - 1) with integer maths only. */
function unitsAndFraction(cents: number, digits = 2): { negative: boolean; units: number; fraction: number } {
  assertCents(cents);
  const abs = Math.abs(cents);
  const scale = 10 ** digits;
  const fraction = abs % scale;
  // abs - fraction is a multiple of the scale, so the division is exact.
  return { negative: cents < 0, units: (abs - fraction) / scale, fraction };
}

/**
 * Minor units -> the "-1234.56" form for input fields: no grouping, '.' decimal mark, always the
 * currency's decimals ("0.00", "-0.05"; "1500" for yen with `digits` 0), as an API query takes it
 * (readAmount's 'query' mode). Throws RangeError unless `cents` is a safe integer.
 */
export function centsToDecimalString(cents: number, digits = 2): string {
  const { negative, units, fraction } = unitsAndFraction(cents, digits);
  const decimals = digits > 0 ? `.${String(fraction).padStart(digits, '0')}` : '';
  return `${negative ? '-' : ''}${units}${decimals}`;
}

/**
 * A whole number with its thousands grouped the en-US way ("10,000,000,000,000"): what
 * `n.toLocaleString('en-US')` answers for an integer, for the fixed texts of messages and limits. Without ICU: the
 * first number a process formats through Intl maps ICU's data into it for good, and these texts are
 * built when a module loads, in a server that may have nothing else to format (tests/integration/idle-footprint).
 */
export function groupDigits(n: number): string {
  if (!Number.isSafeInteger(n)) throw new RangeError(`${n} is not a safe integer`);
  const all = String(Math.abs(n));
  let digits = all.slice(0, all.length % 3 || 3);
  for (let i = digits.length; i < all.length; i += 3) digits += `,${all.slice(i, i + 3)}`;
  return n < 0 ? `-${digits}` : digits;
}

export interface FormatOptions {
  /**
   * ISO 4217 code such as 'USD': the amount is in its minor unit and shown with its decimals (none
   * for JPY, three for BHD) and symbol. Without it: two decimals, no symbol.
   */
  currency?: string;
  /** Without a currency: the decimals of the minor unit (default 2), for a plain figure of a yen or dinar amount. */
  digits?: number;
  /** BCP 47 locale; defaults to 'en-US' (not the runtime's locale) so server and client agree. */
  locale?: string;
}

export const DEFAULT_LOCALE = 'en-US';

const amountFormatters = new Map<string, Intl.NumberFormat>();
/** Per locale, its ten digits ("0".."9", or "٠".."٩" in ar-EG), to write a fraction digit by digit. */
const digitTables = new Map<string, string[]>();

function amountFormatter(locale: string, currency: string | undefined, digits: number): Intl.NumberFormat {
  const key = `${locale}|${currency ?? ''}|${digits}`;
  let found = amountFormatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
      useGrouping: true,
      ...(currency ? { style: 'currency', currency } : {}),
    });
    amountFormatters.set(key, found);
  }
  return found;
}

/** `digits` localised digits ("05", or "٠٥" in ar-EG) for the fraction of an amount. */
function fractionText(locale: string, fraction: number, digits: number): string {
  let table = digitTables.get(locale);
  if (!table) {
    const format = new Intl.NumberFormat(locale, { maximumFractionDigits: 0, useGrouping: false });
    table = Array.from({ length: 10 }, (_, n) =>
      format
        .formatToParts(n)
        .filter((part) => part.type === 'integer')
        .map((part) => part.value)
        .join(''),
    );
    digitTables.set(locale, table);
  }
  const localDigits = table;
  return String(fraction)
    .padStart(digits, '0')
    .replace(/\d/g, (d) => localDigits[Number(d)] ?? d);
}

/**
 * Minor units shown with the currency's decimals and grouping, through Intl.NumberFormat:
 * 123456 -> "1,234.56", -1230 -> "-12.30"; with currency 'USD' -> "$1,234.56" / "-$12.30"; with
 * 'JPY' 1500 -> "¥1,500"; with 'BHD' 1500 -> "BHD 1.500"; with locale 'de-DE' -> "1.234,56".
 *
 * Exact for every safe integer: Intl only ever sees the whole units (an integer, exact as a
 * Number) and the fraction digits are computed with integer maths and localised separately, so
 * no float division can round. Negative amounts below one unit keep their sign ("-0.05"). Throws
 * RangeError for non-integer minor units or an unknown currency.
 */
export function formatCents(cents: number, options: FormatOptions = {}): string {
  const locale = options.locale ?? DEFAULT_LOCALE;
  const digits = options.currency ? minorUnitsOf(options.currency) : (options.digits ?? 2);
  const { negative, units, fraction } = unitsAndFraction(cents, digits);
  // -0 keeps the minus sign in Intl's default signDisplay ("auto"), as wanted for -5 cents.
  const parts = amountFormatter(locale, options.currency, digits).formatToParts(negative ? -units : units);
  const localFraction = fractionText(locale, fraction, digits);
  return parts.map((part) => (part.type === 'fraction' ? localFraction : part.value)).join('');
}

/** |cents| (never -0). */
export function absCents(cents: number): number {
  assertCents(cents);
  return Math.abs(cents);
}

/**
 * Exact sum of cents. Partial sums may leave the safe range (they continue in BigInt); a
 * RangeError is thrown only when a value is not integer cents or the final sum is out of range.
 */
export function sumCents(values: Iterable<number>): number {
  let total = 0;
  let big: bigint | null = null;
  for (const value of values) {
    assertCents(value);
    if (big !== null) {
      big += BigInt(value);
      continue;
    }
    const next = total + value;
    if (Number.isSafeInteger(next)) total = next;
    else big = BigInt(total) + BigInt(value);
  }
  if (big === null) return total;
  if (big > BigInt(Number.MAX_SAFE_INTEGER) || big < -BigInt(Number.MAX_SAFE_INTEGER)) {
    throw new RangeError('Sum of amounts is out of range');
  }
  return Number(big);
}
