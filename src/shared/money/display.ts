import { DEFAULT_CURRENCY } from './currencies';
import { formatCents } from './money';

/** U+2212, the minus sign of typeset numbers: as wide as the plus sign, and read as "minus" by screen readers. */
export const MINUS_SIGN = '\u2212';

export interface MoneyOptions {
  /** ISO 4217 code of the amount's currency (an account's); DEFAULT_CURRENCY when absent. */
  currency?: string | null;
  /** BCP 47 locale; 'en-US' by default, as formatCents. */
  locale?: string;
}

/**
 * An amount as a person reads it on any screen: with its currency's symbol and a true minus sign before the symbol:
 * -84233 -> "−$842.33" (never "$-842.33"), 123456 -> "$1,234.56". Fields a person types into take
 * formatAmountInput's plain "-842.33" instead, and files and API values centsToDecimalString's.
 */
export function formatMoney(cents: number, options: MoneyOptions = {}): string {
  const currency = options.currency ?? DEFAULT_CURRENCY;
  return formatCents(cents, { currency, ...(options.locale ? { locale: options.locale } : {}) }).replace(
    '-',
    MINUS_SIGN,
  );
}

/** A net with its sign always written: "+$2,357.37", "−$12.00", "$0.00" (money in is plus, money out minus). */
export function formatSignedMoney(cents: number, options: MoneyOptions = {}): string {
  const text = formatMoney(cents, options);
  return cents > 0 ? `+${text}` : text;
}
