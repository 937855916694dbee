import { formatMoney } from '../../../shared/money';

const compact = new Map<string, Intl.NumberFormat>();

/** An axis tick: whole currency units in short form (1.2K), for scale only; figures use formatMoney. */
export function axisAmount(cents: number, locale = 'en-US'): string {
  let format = compact.get(locale);
  if (!format)
    compact.set(locale, (format = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 })));
  return format.format(cents / 100);
}

/** A figure in a tooltip or a table cell: exact cents. */
export function figure(cents: number | null | undefined): string {
  return formatMoney(cents ?? 0);
}
