/**
 * The marks people in a locale write amounts with: the decimal mark readAmount asks about when
 * "1,234" could be either, and the grouped text an amount field shows.
 */
import { DEFAULT_LOCALE } from './money';

const decimalMarks = new Map<string, '.' | ','>();
const groupMarks = new Map<string, string>();

function numberParts(locale: string): Intl.NumberFormatPart[] {
  try {
    return new Intl.NumberFormat(locale, { numberingSystem: 'latn', useGrouping: true }).formatToParts(1234567.5);
  } catch {
    return new Intl.NumberFormat(DEFAULT_LOCALE, { useGrouping: true }).formatToParts(1234567.5);
  }
}

/** The decimal mark people in `locale` type: ',' for de-DE, fr-FR, ...; '.' otherwise. */
export function decimalMarkOf(locale: string): '.' | ',' {
  let mark = decimalMarks.get(locale);
  if (!mark) {
    const decimal = numberParts(locale).find((part) => part.type === 'decimal')?.value;
    mark = decimal === ',' || decimal === '\u066b' ? ',' : '.';
    decimalMarks.set(locale, mark);
  }
  return mark;
}

function groupMarkOf(locale: string): string {
  let mark = groupMarks.get(locale);
  if (mark === undefined) {
    mark = numberParts(locale).find((part) => part.type === 'group')?.value ?? '';
    if (mark === '\u066c') mark = decimalMarkOf(locale) === ',' ? '.' : ',';
    groupMarks.set(locale, mark);
  }
  return mark;
}

/**
 * Minor units as an amount field shows them in `locale`: grouped, the currency's decimals (`digits`,
 * two by default; none for yen), Latin digits and an ASCII minus ("-1,234.50" in en-US, "-1.234,50"
 * in de-DE). readAmount reads it back exactly.
 */
export function formatAmountInput(cents: number, locale: string = DEFAULT_LOCALE, digits = 2): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an amount in cents: ${String(cents)}`);
  const abs = Math.abs(cents);
  const scale = 10 ** digits;
  const fraction = abs % scale;
  const units = String((abs - fraction) / scale);
  const group = groupMarkOf(locale);
  let grouped = units;
  if (group) {
    const parts: string[] = [];
    for (let end = units.length; end > 0; end -= 3) parts.unshift(units.slice(Math.max(0, end - 3), end));
    grouped = parts.join(group);
  }
  const decimals = digits === 0 ? '' : `${decimalMarkOf(locale)}${String(fraction).padStart(digits, '0')}`;
  return `${cents < 0 ? '-' : ''}${grouped}${decimals}`;
}
