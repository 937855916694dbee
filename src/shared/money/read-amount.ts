/**
 * The one reader of amounts written as text, for every caller: what a person types in an amount
 * field, a cell of a bank's file, a value in an API query. Text in, integer minor units out (cents
 * when the currency has two decimals), with no floating point and no silent scaling: "-100,50" is
 * -10050 in every mode and locale, never -1005000.
 *
 * Every mode reads a decimal point or a decimal comma ("-100.50", "-100,50", ".5", "12."),
 * thousands in groups of three ("1,234,567.89"), a leading sign ('-', '+', the Unicode minus or a dash),
 * and full-width or Arabic-Indic digits; it refuses letters, two decimal marks, malformed groups
 * and magnitudes beyond its limit. MODES lists everything a mode adds or forbids beyond that.
 */
import { MAX_AMOUNT_CENTS } from '../limits';
import { decimalMarkOf } from './locale-notation';
import { DEFAULT_LOCALE, groupDigits } from './money';

/** Who wrote the text: a person in a form field, a bank in a file, a program in an API query. */
export type AmountMode = 'form' | 'csv' | 'query';

export interface ReadAmountOptions {
  /** The writer's locale (form fields): its decimal mark decides whether "1,234" is 1234 or 1.234. */
  locale?: string;
  /** The currency's decimals: 2 (the default) for EUR or USD, 0 for JPY, 3 for BHD. */
  fractionDigits?: number;
}

/** "CR" or "DR" when a bank's cell itself says which way the money went ("12.50 CR"). */
export type CreditDebitMarker = 'CR' | 'DR';

export type AmountReading =
  | {
      ok: true;
      /** The amount in minor units of the currency (cents for two decimals). */
      cents: number;
      marker: CreditDebitMarker | null;
      /** The locale decided what one mark before three digits meant ("1,234"). */
      localeDependent: boolean;
      /** More decimals than the currency has were rounded half away from zero ("1.005" -> 1.01). */
      rounded: boolean;
    }
  | { ok: false; code: 'EMPTY' | 'INVALID' | 'TOO_LARGE'; message: string };

interface ModeRules {
  /** Text that means "no amount" besides blank text. */
  placeholder: RegExp | null;
  /** A credit or debit word after the amount ("12.50 CR"; German banks' "H" and "S") gives its direction. */
  creditDebitWords: boolean;
  /** Currency marks allowed before or after the number, one at most. */
  currency: 'none' | 'symbols' | 'symbols and codes';
  /** A sign after the number ("12.50-") or parentheses around it ("(12.50)"), besides a leading sign. */
  accountingSigns: boolean;
  /** The characters that may group thousands (a regular-expression class body). */
  groupMarks: string;
  /** Indian lakh groups ("1,23,456.78"). */
  indianGroups: boolean;
  /** One mark before exactly three digits ("1,234", "1.234"): the locale's decimal mark decides, or it groups thousands. */
  ambiguousMark: 'locale' | 'thousands';
  /** More decimals than the currency has: rounded half away from zero, or refused. */
  extraDecimals: 'round' | 'refuse';
  /** The largest magnitude read, in minor units. */
  limit: number;
}

const ANY_GROUP_MARK = ",.\\s'\u2019";

/**
 * What each caller's text may hold. A person may type any common notation and sees what it was
 * read as; a bank's file is read without a locale and never rounded; an API query takes the plain
 * notation its documentation shows. Bank files keep their own limit: the import reports an amount
 * beyond MAX_AMOUNT_CENTS with its line.
 */
const MODES: Record<AmountMode, ModeRules> = {
  form: {
    placeholder: null,
    creditDebitWords: false,
    currency: 'symbols',
    accountingSigns: true,
    groupMarks: ANY_GROUP_MARK,
    indianGroups: true,
    ambiguousMark: 'locale',
    extraDecimals: 'round',
    limit: MAX_AMOUNT_CENTS,
  },
  csv: {
    placeholder: /^--?$/,
    creditDebitWords: true,
    currency: 'symbols and codes',
    accountingSigns: true,
    groupMarks: ANY_GROUP_MARK,
    indianGroups: false,
    ambiguousMark: 'thousands',
    extraDecimals: 'refuse',
    limit: Number.MAX_SAFE_INTEGER,
  },
  query: {
    placeholder: null,
    creditDebitWords: false,
    currency: 'none',
    accountingSigns: false,
    groupMarks: ',',
    indianGroups: false,
    ambiguousMark: 'thousands',
    extraDecimals: 'refuse',
    limit: MAX_AMOUNT_CENTS,
  },
};

const CURRENCY_CODES =
  'US\\$|R\\$|S\\$|CHF|EUR|USD|GBP|SGD|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|HUF|BRL|JPY|INR|ZAR|MXN|kr\\.?|zł|Fr\\.';

/** A mode's rules with their regular expressions built once. */
interface CompiledRules extends ModeRules {
  currencyAtStart: RegExp | null;
  currencyAtEnd: RegExp | null;
  numberChars: RegExp;
  /** Per decimal mark, what may separate the groups of the whole part. */
  separators: Record<'.' | ',' | 'none', RegExp>;
}

function compile(rules: ModeRules): CompiledRules {
  const currency = { none: null, symbols: '\\p{Sc}', 'symbols and codes': `${CURRENCY_CODES}|\\p{Sc}` }[rules.currency];
  const separator = (decimal: string) => new RegExp(`[${rules.groupMarks.replace(decimal, '')}]`);
  return {
    ...rules,
    currencyAtStart: currency === null ? null : new RegExp(`^(?:${currency})`, 'iu'),
    currencyAtEnd: currency === null ? null : new RegExp(`(?:${currency})$`, 'iu'),
    numberChars: new RegExp(`^[\\d.,${rules.groupMarks}]*$`),
    separators: { '.': separator('.'), ',': separator(','), none: separator('') },
  };
}

const COMPILED: Record<AmountMode, CompiledRules> = {
  form: compile(MODES.form),
  csv: compile(MODES.csv),
  query: compile(MODES.query),
};

/** The hint an amount field shows when it cannot read the text. */
export const AMOUNT_HINT = 'Enter an amount like -12.50';

const EMPTY: AmountReading = { ok: false, code: 'EMPTY', message: 'Amount is required' };
const INVALID: AmountReading = { ok: false, code: 'INVALID', message: AMOUNT_HINT };

/** Digits of Number.MAX_SAFE_INTEGER (9007199254740991). */
const MAX_SAFE_DIGITS = 16;

/** A limit in minor units as a figure in a currency's decimals: "100,000,000,000.00", or "10,000,000,000,000" yen. */
export function limitText(limit: number = MAX_AMOUNT_CENTS, fractionDigits = 2): string {
  const scale = 10 ** fractionDigits;
  const rest = limit % scale;
  const decimals = fractionDigits > 0 ? `.${String(rest).padStart(fractionDigits, '0')}` : '';
  return `${groupDigits((limit - rest) / scale)}${decimals}`;
}

/** "Enter an amount of at most 100,000,000,000.00" for a limit in minor units. */
export function tooLargeMessage(limit: number = MAX_AMOUNT_CENTS, fractionDigits = 2): string {
  return `Enter an amount of at most ${limitText(limit, fractionDigits)}`;
}

/** Reads `text` as `mode`'s writer meant it; see the module comment and MODES. */
export function readAmount(text: string, mode: AmountMode, options: ReadAmountOptions = {}): AmountReading {
  const fractionDigits = options.fractionDigits ?? 2;
  if (!Number.isInteger(fractionDigits) || fractionDigits < 0 || fractionDigits > 4)
    throw new RangeError(`A currency has 0 to 4 decimals, not ${String(fractionDigits)}`);
  const rules = COMPILED[mode];
  // Plain decimals, most cells of a bank's file, need none of the notation steps.
  const plain = PLAIN.exec(text);
  if (plain) {
    const [, sign, whole = '', fraction = ''] = plain;
    return minorUnits({ whole, fraction, localeDependent: false }, sign === '-', null, rules, fractionDigits);
  }
  const normalised = asciiDigits(text.normalize('NFKC')).trim();
  if (normalised === '' || rules.placeholder?.test(normalised)) return EMPTY;
  const { amount, marker } = rules.creditDebitWords
    ? creditDebitWord(normalised)
    : { amount: normalised, marker: null };
  const peeled = peel(amount, rules);
  if (!peeled || peeled.body === '') return INVALID;
  const number = splitNumber(peeled.body, rules, options.locale ?? DEFAULT_LOCALE, fractionDigits);
  if (!number) return INVALID;
  return minorUnits(number, peeled.negative, marker, rules, fractionDigits);
}

const PLAIN = /^(-?)(\d+)(?:\.(\d{1,2}))?$/;

/** Arabic-Indic and Extended Arabic-Indic digits and separators -> ASCII. */
function asciiDigits(text: string): string {
  return text.replace(/[\u0660-\u0669\u06f0-\u06f9\u066b\u066c]/g, (ch) => {
    const code = ch.charCodeAt(0);
    if (ch === '\u066b') return '.';
    if (ch === '\u066c') return ',';
    return String(code >= 0x06f0 ? code - 0x06f0 : code - 0x0660);
  });
}

/** Words that end an amount to say which way it goes, with an optional full stop: "12.50 CR", "7,00 S". */
const CREDIT_DEBIT_WORDS = ['CR', 'DR', 'Cr', 'Dr', 'H', 'S'] as const;

/**
 * The amount without a trailing credit or debit word, and what the word said. Read from the end by hand: a regular
 * expression searching for the word at the end would be tried at every position of a long field.
 */
function creditDebitWord(text: string): { amount: string; marker: CreditDebitMarker | null } {
  const end = text.endsWith('.') ? text.length - 1 : text.length;
  for (const word of CREDIT_DEBIT_WORDS) {
    const start = end - word.length;
    if (start < 0 || !text.startsWith(word, start) || /\w/.test(text.charAt(start - 1))) continue;
    const amount = text.slice(0, start).trim();
    if (!/\d/.test(amount)) break;
    return { amount, marker: word === 'CR' || word === 'H' ? 'CR' : 'DR' };
  }
  return { amount: text, marker: null };
}

const SIGN = /^[-+\u2212\u2013]$/;

interface Peeling {
  rest: string;
  negative: boolean;
  signs: number;
  currencies: number;
}

/** The number without its signs and currency mark; null when they do not make sense ("--5", "(-5)", "$12 €"). */
function peel(text: string, rules: CompiledRules): { body: string; negative: boolean } | null {
  const p: Peeling = { rest: text, negative: false, signs: 0, currencies: 0 };
  if (rules.accountingSigns && text.startsWith('(') && text.endsWith(')')) {
    p.negative = true;
    p.signs = 1;
    p.rest = text.slice(1, -1).trim();
  }
  return peelEnd(p, rules, true) && peelEnd(p, rules, false) ? { body: p.rest, negative: p.negative } : null;
}

/** Takes signs and a currency mark off one end of `p.rest`; false when there are too many. */
function peelEnd(p: Peeling, rules: CompiledRules, atStart: boolean): boolean {
  for (;;) {
    const ch = atStart ? p.rest.charAt(0) : p.rest.charAt(p.rest.length - 1);
    let length: number;
    if (SIGN.test(ch) && (atStart || rules.accountingSigns)) {
      if (++p.signs > 1) return false;
      p.negative = ch !== '+';
      length = 1;
    } else {
      // Currency marks are at most three characters long ("US$", "kr.").
      const currency = atStart ? rules.currencyAtStart?.exec(p.rest) : rules.currencyAtEnd?.exec(p.rest.slice(-3));
      if (!currency) return true;
      if (++p.currencies > 1) return false;
      length = currency[0].length;
    }
    p.rest = atStart ? p.rest.slice(length).trimStart() : p.rest.slice(0, -length).trimEnd();
  }
}

interface NumberParts {
  whole: string;
  fraction: string;
  localeDependent: boolean;
}

/** The whole and fraction digits of the number's body, or null when it is not a number. */
function splitNumber(body: string, rules: CompiledRules, locale: string, fractionDigits: number): NumberParts | null {
  if (!rules.numberChars.test(body) || !/\d/.test(body)) return null;
  const decimal = decimalMark(body, rules, locale, fractionDigits);
  if (!decimal) return null;
  const { mark, localeDependent } = decimal;
  const point = mark === null ? -1 : body.lastIndexOf(mark);
  const wholeText = point < 0 ? body : body.slice(0, point);
  const fraction = point < 0 ? '' : body.slice(point + 1);
  if (!/^\d*$/.test(fraction)) return null;
  if (wholeText === '') return fraction === '' ? null : { whole: '0', fraction, localeDependent };
  const whole = ungroup(wholeText, rules.separators[mark ?? 'none'], rules.indianGroups);
  return whole === null ? null : { whole, fraction, localeDependent };
}

type DecimalMark = { mark: '.' | ',' | null; localeDependent: boolean } | null;

const NO_MARK: DecimalMark = { mark: null, localeDependent: false };
const SPACED = /[\s'\u2019]/;
const DIGITS = /^\d+$/;

function count(text: string, ch: string): number {
  let n = 0;
  for (let at = text.indexOf(ch); at >= 0; at = text.indexOf(ch, at + 1)) n += 1;
  return n;
}

/** Which mark, if any, separates the decimals; null when the marks contradict each other. */
function decimalMark(body: string, rules: CompiledRules, locale: string, fractionDigits: number): DecimalMark {
  const dots = count(body, '.');
  const commas = count(body, ',');
  const spaced = SPACED.test(body);
  if (dots > 0 && commas > 0) {
    // Both: the later one separates the decimals, once ("1.234,56").
    if (spaced) return null;
    const mark = body.lastIndexOf('.') > body.lastIndexOf(',') ? '.' : ',';
    return count(body, mark) > 1 ? null : { mark, localeDependent: false };
  }
  if (dots + commas === 0) return NO_MARK;
  const mark = dots > 0 ? '.' : ',';
  // Several of one mark group thousands ("1.234.567"); beside spaced groups one mark is decimal ("1 234,56").
  if (dots + commas > 1) return spaced ? null : NO_MARK;
  if (spaced) return { mark, localeDependent: false };
  const at = body.indexOf(mark);
  const before = body.slice(0, at);
  const after = body.slice(at + 1);
  const mayGroup =
    rules.groupMarks.includes(mark) &&
    after.length === 3 &&
    before.length >= 1 &&
    before.length <= 3 &&
    !/^0+$/.test(before);
  if (mayGroup) {
    // A currency of three decimals writes its amounts so ("1.250" dinars); for any other it groups.
    if (rules.ambiguousMark === 'thousands') return fractionDigits === 3 ? { mark, localeDependent: false } : NO_MARK;
    return { mark: decimalMarkOf(locale) === mark ? mark : null, localeDependent: true };
  }
  // Without a locale to ask, a ',' that ends the number is no decimal mark ("12," is half a list).
  if (after === '' && mark === ',' && rules.ambiguousMark === 'thousands') return null;
  return { mark, localeDependent: false };
}

/** Digits grouped by `separator`: a first group of 1-3 digits, then groups of 3 (or Indian 2s, then 3). */
function ungroup(text: string, separator: RegExp, indianGroups: boolean): string | null {
  if (DIGITS.test(text)) return text;
  const groups = text.split(separator);
  if (groups.length === 1 || !groups.every((g) => DIGITS.test(g))) return null;
  // One kind of separator throughout: "1 234'567" is no number.
  if (new Set(text.replace(/\d/g, '').replace(/[\s'\u2019]/g, ' ')).size > 1) return null;
  // split() returned more than one string.
  const [first = '', ...others] = groups;
  const last = others.at(-1) ?? '';
  const western = first.length <= 3 && others.every((g) => g.length === 3);
  const indian =
    indianGroups && first.length <= 2 && last.length === 3 && others.slice(0, -1).every((g) => g.length === 2);
  return western || indian ? groups.join('') : null;
}

/** The magnitude in minor units, signed, within the mode's limit. */
function minorUnits(
  number: NumberParts,
  negative: boolean,
  marker: CreditDebitMarker | null,
  rules: CompiledRules,
  fractionDigits: number,
): AmountReading {
  const { whole, fraction, localeDependent } = number;
  // Zeros past the currency's decimals change nothing ("1500.00" yen is 1500).
  const rounded = /[1-9]/.test(fraction.slice(fractionDigits));
  if (rounded && rules.extraDecimals === 'refuse') return INVALID;
  const kept = fraction.slice(0, fractionDigits).padEnd(fractionDigits, '0');
  const roundUp = rounded && fraction.charAt(fractionDigits) >= '5';
  // Compare digit strings first: Number() is exact only up to 2^53.
  const digits = `${whole}${kept}`.replace(/^0+(?=\d)/, '');
  const magnitude = digits.length > MAX_SAFE_DIGITS ? Infinity : Number(digits) + (roundUp ? 1 : 0);
  if (magnitude > rules.limit)
    return { ok: false, code: 'TOO_LARGE', message: tooLargeMessage(rules.limit, fractionDigits) };
  return { ok: true, cents: negative && magnitude !== 0 ? -magnitude : magnitude, marker, localeDependent, rounded };
}
