/**
 * Money is integer cents below the UI. These helpers turn decimal text into cents and
 * cents into text exactly, without floating-point arithmetic.
 */

const DECIMAL = /^([+-])?(\d{1,3}(?:,\d{3})+|\d+)?(?:[.,](\d{1,2}))?$/;

/**
 * "12", "12.3", "-0.05", "1,234.56", " 7.5 ", "3,5" -> cents; null when invalid, when it
 * has more than two decimals, or when it leaves the safe integer range.
 */
export function parseDecimalToCents(text: string): number | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  const match = DECIMAL.exec(trimmed);
  if (!match) return null;
  const [, sign, whole = '', fraction = ''] = match;
  if (!whole && !fraction) return null;
  // "1,234" is thousands; "3,5" (one group of fewer than 3 digits) is a decimal comma, handled by the regex.
  const digits = `${whole.replace(/,/g, '') || '0'}${fraction.padEnd(2, '0')}`;
  const cents = BigInt(digits);
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const value = Number(cents);
  return sign === '-' ? (value === 0 ? 0 : -value) : value;
}

/**
 * round(100 x value) for a form number, done on its decimal text so 1.005 becomes 101
 * (as a person reads it) rather than 100 (as binary floating point would have it).
 * Halves round away from zero.
 */
export function centsFromNumber(value: number): number {
  if (!Number.isFinite(value)) throw new RangeError('Amount must be a finite number');
  const negative = value < 0;
  const text = Math.abs(value).toFixed(10);
  const [whole, fraction] = text.split('.');
  let cents = BigInt(whole) * 100n + BigInt(fraction.slice(0, 2));
  if (Number(fraction[2]) >= 5) cents += 1n;
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('Amount is too large');
  const result = Number(cents);
  return negative && result !== 0 ? -result : result;
}

/** -123456 -> "-1234.56"; 5 -> "0.05" (for input fields). */
export function centsToDecimalString(cents: number): string {
  const negative = cents < 0;
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100);
  const fraction = String(abs % 100).padStart(2, '0');
  return `${negative ? '-' : ''}${whole}.${fraction}`;
}

export interface FormatOptions {
  /** ISO currency code, e.g. 'USD'; without it the number is shown without a symbol. */
  currency?: string;
  locale?: string;
}

const formatters = new Map<string, Intl.NumberFormat>();
function formatter(locale: string | undefined, currency: string | undefined): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency ?? ''}`;
  let found = formatters.get(key);
  if (!found) {
    found = new Intl.NumberFormat(locale ?? 'en-US', {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      ...(currency ? { style: 'currency', currency } : {}),
    });
    formatters.set(key, found);
  }
  return found;
}

/**
 * Cents as value/100 with exactly two decimals and grouping: 123456 -> "1,234.56",
 * -1230 -> "-12.30", with currency 'USD' -> "$1,234.56" / "-$12.30". Exact for every safe integer
 * (formatted from a decimal string, never from a float division).
 */
export function formatCents(cents: number, options: FormatOptions = {}): string {
  const text = centsToDecimalString(cents);
  // Intl accepts decimal strings exactly (ES2023 "string as exact decimal").
  return formatter(options.locale, options.currency).format(text as unknown as number);
}

export function absCents(cents: number): number {
  return Math.abs(cents);
}

/** Sum of cents; a RangeError if it leaves the safe integer range. */
export function sumCents(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) {
    total += value;
    if (!Number.isSafeInteger(total)) throw new RangeError('Sum of amounts is out of range');
  }
  return total;
}
