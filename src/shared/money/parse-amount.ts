/**
 * The one reader of amounts people type (transaction amount, split parts, account balance,
 * line items, search bounds). Text in, integer cents out, with no floating point and no
 * silent scaling: "-100,50" is -10050 cents in every locale, never -1005000.
 *
 * Accepted notations:
 * - decimal point or decimal comma: "-100.50", "-100,50", ".5", "12.";
 * - thousands groups of three with ',', '.', a space (also no-break and narrow no-break),
 *   or an apostrophe: "1,234.56", "1.234,56", "1 234,56", "1'234.56"; Indian groups
 *   ("1,23,456.78") too;
 * - a sign: '-', '+', the Unicode minus U+2212, a trailing '-' ("12.50-"), or parentheses
 *   around the amount ("(12.50)" is -12.50);
 * - one currency symbol before or after the number ("$12.50", "-€ 3,20", "12,50 €");
 * - Arabic-Indic and full-width digits.
 *
 * Ambiguous text, one separator followed by exactly three digits ("1,234", "1.234"), is read
 * with the locale's decimal mark: in en-US "1,234" is 1234.00 and "1.234" is 1.23; in de-DE
 * "1.234" is 1234.00 and "1,234" is 1.23 (`localeDependent` says so, so a field can show what
 * it understood). More than two decimals are rounded half away from zero (`rounded`).
 * Anything else (letters, two decimal marks, malformed groups) is refused.
 */
import { MAX_AMOUNT_CENTS } from '../limits';
import { DEFAULT_LOCALE, groupDigits } from './money';

/** The hint every amount field shows when it cannot read the text. */
export const AMOUNT_HINT = 'Enter an amount like -12.50';

export type AmountReading =
  | { ok: true; cents: number; localeDependent: boolean; rounded: boolean }
  | { ok: false; code: 'EMPTY' | 'INVALID' | 'TOO_LARGE'; message: string };

const EMPTY: AmountReading = { ok: false, code: 'EMPTY', message: 'Amount is required' };
const INVALID: AmountReading = { ok: false, code: 'INVALID', message: AMOUNT_HINT };

/** "Enter an amount of at most 100,000,000,000.00" */
export const TOO_LARGE_MESSAGE = `Enter an amount of at most ${groupDigits(MAX_AMOUNT_CENTS / 100)}.00`;

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
 * Cents as an amount field shows them in `locale`: grouped, two decimals, Latin digits and an
 * ASCII minus ("-1,234.50" in en-US, "-1.234,50" in de-DE). parseAmount reads it back exactly.
 */
export function formatAmountInput(cents: number, locale: string = DEFAULT_LOCALE): string {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`Not an amount in cents: ${String(cents)}`);
  const abs = Math.abs(cents);
  const fraction = abs % 100;
  const units = String((abs - fraction) / 100);
  const group = groupMarkOf(locale);
  let grouped = units;
  if (group) {
    const parts: string[] = [];
    for (let end = units.length; end > 0; end -= 3) parts.unshift(units.slice(Math.max(0, end - 3), end));
    grouped = parts.join(group);
  }
  return `${cents < 0 ? '-' : ''}${grouped}${decimalMarkOf(locale)}${String(fraction).padStart(2, '0')}`;
}

/** Arabic-Indic and Extended Arabic-Indic digits and separators -> ASCII. */
function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9\u066b\u066c]/g, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch === '\u066b') return '.';
    if (ch === '\u066c') return ',';
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

const SIGN = /^[-+\u2212]$/;
const CURRENCY = /^\p{Sc}$/u;
const SPACE_GROUP = /[\s'\u2019]/;

/** Peels signs and one currency symbol off both ends; null when they do not make sense. */
function peel(text: string): { body: string; negative: boolean } | null {
  let rest = text.trim();
  let negative = false;
  let signs = 0;
  let currencies = 0;
  if (rest.startsWith('(') && rest.endsWith(')')) {
    negative = true;
    signs += 1;
    rest = rest.slice(1, -1).trim();
  }
  for (;;) {
    const ch = rest.charAt(0);
    if (SIGN.test(ch)) {
      if (++signs > 1) return null;
      negative = ch !== '+';
    } else if (CURRENCY.test(ch)) {
      if (++currencies > 1) return null;
    } else break;
    rest = rest.slice(1).trimStart();
  }
  for (;;) {
    const ch = rest.charAt(rest.length - 1);
    if (SIGN.test(ch)) {
      if (++signs > 1) return null;
      negative = ch !== '+';
    } else if (CURRENCY.test(ch)) {
      if (++currencies > 1) return null;
    } else break;
    rest = rest.slice(0, -1).trimEnd();
  }
  return { body: rest, negative };
}

/** Digits grouped by `separator`: first group 1-3 digits then groups of 3 (or Indian 2s then 3). */
function ungroup(text: string, separator: RegExp): string | null {
  const groups = text.split(separator);
  if (groups.length === 1) return /^\d+$/.test(text) ? text : null;
  if (!groups.every((g) => /^\d+$/.test(g))) return null;
  // split() returns at least one string, and more than one here.
  const [first = '', ...others] = groups;
  const last = others.at(-1) ?? '';
  const western = first.length <= 3 && others.every((g) => g.length === 3);
  const indian = first.length <= 2 && last.length === 3 && others.slice(0, -1).every((g) => g.length === 2);
  return western || indian ? groups.join('') : null;
}

function count(text: string, ch: string): number {
  let n = 0;
  for (const c of text) if (c === ch) n += 1;
  return n;
}

/** The whole and fraction digits of the number's body, or null when it is not a number. */
function splitNumber(
  body: string,
  locale: string,
): { whole: string; fraction: string; localeDependent: boolean } | null {
  if (!/^[\d.,\s'\u2019]*$/.test(body) || !/\d/.test(body)) return null;
  const dots = count(body, '.');
  const commas = count(body, ',');
  const spaced = SPACE_GROUP.test(body);
  let decimal: '.' | ',' | null = null;
  let localeDependent = false;
  if (dots > 0 && commas > 0) {
    if (spaced) return null;
    decimal = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
    if (count(body, decimal) > 1) return null;
  } else if (dots + commas > 0) {
    const mark = dots > 0 ? '.' : ',';
    const marks = dots + commas;
    if (spaced) {
      if (marks > 1) return null;
      decimal = mark;
    } else if (marks === 1) {
      // One mark: split() gives exactly the text before it and the text after it.
      const [before = '', after = ''] = body.split(mark);
      const couldGroup = after.length === 3 && before.length >= 1 && before.length <= 3 && !/^0+$/.test(before);
      if (couldGroup) {
        localeDependent = true;
        decimal = decimalMarkOf(locale) === mark ? mark : null;
      } else {
        decimal = mark;
      }
    }
    // Several of one mark and nothing else: they group thousands ("1.234.567").
  }
  const point = decimal === null ? -1 : body.lastIndexOf(decimal);
  const wholeText = point < 0 ? body : body.slice(0, point);
  const fraction = point < 0 ? '' : body.slice(point + 1);
  if (!/^\d*$/.test(fraction)) return null;
  const groupSeparator = decimal === '.' ? /[,\s'\u2019]/ : decimal === ',' ? /[.\s'\u2019]/ : /[.,\s'\u2019]/;
  if (wholeText === '') return fraction === '' ? null : { whole: '0', fraction, localeDependent };
  const mixedGroups = new Set(wholeText.replace(/\d/g, '').replace(/[\s'\u2019]/g, ' ')).size > 1;
  if (mixedGroups) return null;
  const whole = ungroup(wholeText, groupSeparator);
  if (whole === null) return null;
  return { whole, fraction, localeDependent };
}

/** Reads an amount typed in `locale` (the browser's language); see the module comment. */
export function parseAmount(text: string, locale: string = DEFAULT_LOCALE): AmountReading {
  const normalised = asciiDigits(text.normalize('NFKC')).trim();
  if (normalised === '') return EMPTY;
  const peeled = peel(normalised);
  if (!peeled || peeled.body === '') return INVALID;
  const number = splitNumber(peeled.body, locale);
  if (!number) return INVALID;
  const whole = number.whole.replace(/^0+(?=\d)/, '');
  const kept = number.fraction.slice(0, 2).padEnd(2, '0');
  const roundUp = number.fraction.length > 2 && number.fraction.charAt(2) >= '5';
  // Compare digit strings first: Number() is exact only up to 2^53.
  const digits = `${whole}${kept}`.replace(/^0+(?=\d)/, '');
  if (digits.length > String(MAX_AMOUNT_CENTS).length + 1)
    return { ok: false, code: 'TOO_LARGE', message: TOO_LARGE_MESSAGE };
  const magnitude = Number(digits) + (roundUp ? 1 : 0);
  if (magnitude > MAX_AMOUNT_CENTS) return { ok: false, code: 'TOO_LARGE', message: TOO_LARGE_MESSAGE };
  const cents = peeled.negative && magnitude !== 0 ? -magnitude : magnitude;
  return { ok: true, cents, localeDependent: number.localeDependent, rounded: number.fraction.length > 2 };
}
