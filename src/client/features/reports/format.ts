import { formatMoney, minorUnitsOf } from '../../../shared/money';

const compact = new Map<string, Intl.NumberFormat>();

/** An axis tick: whole currency units in short form (1.2K), for scale only; figures use formatMoney. */
export function axisAmount(cents: number, locale = 'en-US', currency: string | null = null): string {
  let format = compact.get(locale);
  if (!format)
    compact.set(locale, (format = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 })));
  return format.format(cents / 10 ** (currency ? minorUnitsOf(currency) : 2));
}

/** A figure in a tooltip or a table cell: exact minor units of `currency` (the home currency). */
export function figure(cents: number | null | undefined, currency: string | null = null): string {
  return formatMoney(cents ?? 0, { currency });
}
