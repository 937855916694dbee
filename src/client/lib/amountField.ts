import { AMOUNT_HINT, decimalMarkOf, formatAmountInput, minorUnitsOf, readAmount } from '../../shared/money';

/**
 * What an amount field's text means to a form: cents, nothing (blank and optional), or the
 * message to show under the field. Every amount field reads its text through this.
 */
export type FieldAmount = { ok: true; cents: number | null } | { ok: false; message: string };

export interface AmountFieldRules {
  /** Blank is an error ("Amount is required", or `requiredMessage`). */
  required?: boolean;
  requiredMessage?: string;
  /** Only sizes (split parts): a negative amount is an error. */
  unsigned?: boolean;
  /** ISO 4217 code the amount is in (an account's): its decimals decide the minor unit. Two decimals without one. */
  currency?: string | null;
}

/** Decimals of an amount field's currency: two when it names none. */
export function fieldDigits(currency: string | null | undefined): number {
  return currency ? minorUnitsOf(currency) : 2;
}

export const UNSIGNED_MESSAGE = 'Enter an amount of 0 or more';

export function readAmountField(text: string, locale: string, rules: AmountFieldRules = {}): FieldAmount {
  const reading = readAmount(text, 'form', { locale, fractionDigits: fieldDigits(rules.currency) });
  if (!reading.ok) {
    if (reading.code === 'EMPTY')
      return rules.required
        ? { ok: false, message: rules.requiredMessage ?? 'Amount is required' }
        : { ok: true, cents: null };
    return { ok: false, message: reading.code === 'INVALID' ? AMOUNT_HINT : reading.message };
  }
  if (rules.unsigned && reading.cents < 0) return { ok: false, message: UNSIGNED_MESSAGE };
  return { ok: true, cents: reading.cents };
}

/**
 * The text a field shows once the person leaves it: what was understood, in the locale's
 * notation ("-100,50" -> "-100.50" in en-US), and a note when the locale decided or decimals
 * were rounded ("Read as 1,234.00 (',' groups thousands here)"). Null when the text is blank or
 * not an amount (left as typed).
 */
export function understoodAmount(
  text: string,
  locale: string,
  currency?: string | null,
): { text: string; note: string | null } | null {
  const digits = fieldDigits(currency);
  const reading = readAmount(text, 'form', { locale, fractionDigits: digits });
  if (!reading.ok) return null;
  const shown = formatAmountInput(reading.cents, locale, digits);
  const why: string[] = [];
  if (reading.localeDependent) {
    const mark = text.includes(',') ? ',' : '.';
    why.push(decimalMarkOf(locale) === mark ? `'${mark}' is the decimal mark here` : `'${mark}' groups thousands here`);
  }
  if (reading.rounded)
    why.push(digits === 0 ? 'rounded to a whole amount' : `rounded to ${digits === 2 ? 'two' : digits} decimals`);
  return { text: shown, note: why.length > 0 ? `Read as ${shown} (${why.join('; ')})` : null };
}
