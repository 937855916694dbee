/**
 * Merchant text as banks write it, reduced to the words that name the merchant:
 * "POS 4412 GREEN BASKET #0231 SPRINGFIELD IL 03/14" and "Green Basket 0977 Springfield, IL"
 * both become "green basket". Pure and deterministic; used by the suggestion learner.
 *
 * Steps, in order:
 * 1. accents removed (NFKD without combining marks), lower case, apostrophes dropped
 *    ("McDonald's" -> "mcdonalds"), "&" joins ("B&Q" -> "bq"), other punctuation splits words;
 * 2. tokens holding a digit go (card numbers "xxxx1234", store numbers "#0231", dates "03/14",
 *    reference codes "REF8F2K1"), as do masks ("xxxx"), a month name next to a number
 *    ("14 MAR"), and the word after a reference marker ("REF ABCDEF");
 * 3. payment-processor and card prefixes at the start ("POS", "CARD PURCHASE", "SQ *",
 *    "PAYPAL *", "DIRECT DEBIT") and company suffixes ("INC", "LTD", "COM") go;
 * 4. a region tail goes: a trailing country or US/Canadian state code after at least two
 *    words, and the city before it ("SPRINGFIELD IL", "NEW YORK NY"): card descriptors end
 *    "NAME CITY ST", so "GREEN BASKET IL" would lose "BASKET" (rare; near matching softens it).
 * A description made only of such noise keeps its first words, so nothing maps to "".
 *
 * Learning normalises every categorised row of a user's history, so one pass over the character
 * codes finds the words (text beyond ASCII is folded first) into scratch arrays reused by every call.
 */

/** A merchant as learning groups rows by it. */
export interface MerchantWords {
  /** The merchant's words, space separated: the key rows are grouped by. */
  key: string;
  tokens: string[];
}

export interface MerchantKey extends MerchantWords {
  /** How a reason names the merchant: the key in capitals ("GREEN BASKET"). */
  display: string;
}

const MONTHS = new Set(['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec']);

/** Words that start a description but name the way of paying, not the merchant. */
const PREFIX_WORDS = new Set([
  'pos',
  'purchase',
  'card',
  'debit',
  'credit',
  'visa',
  'mastercard',
  'mc',
  'contactless',
  'checkcard',
  'chkcard',
  'chk',
  'recurring',
  'payment',
  'pmt',
  'direct',
  'dd',
  'so',
  'sq',
  'tst',
  'sp',
  'pp',
  'paypal',
  'ach',
  'eft',
  'online',
  'web',
  'authorized',
  'on',
  'at',
  'to',
  'from',
  'transaction',
  'trx',
  'txn',
  'apple',
  'pay',
  'google',
  'gpay',
  'pending',
  'pre',
]);
/** Prefix words that may also be a merchant's own first word: dropped only when followed by another prefix word or a removed token. */
const WEAK_PREFIX = new Set(['apple', 'google', 'on', 'at', 'to', 'from', 'direct', 'online', 'web', 'pay', 'credit']);

/** Words after which the next token is a reference, not a name. */
const REFERENCE_MARKERS = new Set([
  'ref',
  'reference',
  'auth',
  'id',
  'conf',
  'confirmation',
  'invoice',
  'inv',
  'order',
]);

const NOISE_WORDS = new Set([
  'www',
  'com',
  'net',
  'org',
  'inc',
  'llc',
  'ltd',
  'gmbh',
  'plc',
  'corp',
  'co',
  'sa',
  'ag',
  'bv',
  'srl',
  'xxx',
  'xxxx',
]);

const REGION_CODES = new Set([
  // US states and DC
  'al',
  'ak',
  'az',
  'ar',
  'ca',
  'co',
  'ct',
  'de',
  'dc',
  'fl',
  'ga',
  'hi',
  'id',
  'il',
  'in',
  'ia',
  'ks',
  'ky',
  'la',
  'me',
  'md',
  'ma',
  'mi',
  'mn',
  'ms',
  'mo',
  'mt',
  'ne',
  'nv',
  'nh',
  'nj',
  'nm',
  'ny',
  'nc',
  'nd',
  'oh',
  'ok',
  'or',
  'pa',
  'ri',
  'sc',
  'sd',
  'tn',
  'tx',
  'ut',
  'vt',
  'va',
  'wa',
  'wv',
  'wi',
  'wy',
  // Canadian provinces
  'ab',
  'bc',
  'mb',
  'nb',
  'nl',
  'ns',
  'on',
  'pe',
  'qc',
  'sk',
  // countries (ISO 3166 alpha-2 and alpha-3 of the common ones) and country words
  'us',
  'usa',
  'gb',
  'gbr',
  'uk',
  'ie',
  'irl',
  'fr',
  'fra',
  'deu',
  'ger',
  'nl',
  'nld',
  'be',
  'bel',
  'es',
  'esp',
  'it',
  'ita',
  'pt',
  'prt',
  'at',
  'aut',
  'ch',
  'che',
  'se',
  'swe',
  'no',
  'nor',
  'dk',
  'dnk',
  'fi',
  'fin',
  'pl',
  'pol',
  'cz',
  'cze',
  'au',
  'aus',
  'nz',
  'nzl',
  'can',
  'mx',
  'mex',
  'jp',
  'jpn',
  'lu',
  'lux',
]);
/** The last word of two-word city names ("CAPITAL CITY", "PALM SPRINGS", "MIAMI BEACH"). */
const CITY_LAST_WORDS = new Set([
  'city',
  'town',
  'beach',
  'springs',
  'falls',
  'park',
  'heights',
  'village',
  'island',
  'valley',
  'hills',
]);
/** The first word of two-word city names ("NEW YORK", "SAN DIEGO", "ST LOUIS"). */
const CITY_FIRST_WORDS = new Set([
  'new',
  'san',
  'los',
  'las',
  'st',
  'saint',
  'fort',
  'ft',
  'el',
  'la',
  'santa',
  'salt',
  'palo',
  'north',
  'south',
  'east',
  'west',
  'port',
  'mount',
  'mt',
  'lake',
  'grand',
  'bad',
  'le',
]);

// eslint-disable-next-line no-control-regex -- the range is all of ASCII (control characters included) so its complement is non-ASCII
const NON_ASCII = /[^\x00-\x7f]/;
const COMBINING_MARKS = /\p{M}+/gu;
const APOSTROPHES = /['’`&]/g;
const NOT_LETTER_OR_DIGIT = /[^\p{L}\p{N}]+/gu;
const NOT_ASCII_LETTER_OR_DIGIT = /[^a-z0-9]+/g;

/** Lower case without accents, apostrophes or ampersands; punctuation becomes spaces. */
export function foldMerchantText(description: string): string {
  // Plain ASCII (most bank text) skips the Unicode work.
  let text = NON_ASCII.test(description)
    ? description.normalize('NFKD').replace(COMBINING_MARKS, '').replace(/ß/g, 'ss')
    : description;
  text = text.toLowerCase().replace(APOSTROPHES, '');
  return (
    NON_ASCII.test(text) ? text.replace(NOT_LETTER_OR_DIGIT, ' ') : text.replace(NOT_ASCII_LETTER_OR_DIGIT, ' ')
  ).trim();
}

/** What a word is, as bits: what it holds, and which of the word sets above it belongs to. */
const WORD_DIGIT = 1;
const WORD_JOINER = 2;
const WORD_MASK = 4;
const WORD_NOISE = 8;
const WORD_REFERENCE = 16;
const WORD_MONTH = 32;
const WORD_PREFIX = 64;
const WORD_WEAK_PREFIX = 128;
const WORD_REGION = 256;
const WORD_CITY_FIRST = 512;
const WORD_CITY_LAST = 1024;
const WORD_CARD = 2048;

/** Each special word with the bits of the sets it belongs to. */
const SPECIAL_WORDS = new Map<string, number>();
for (const [words, bit] of [
  [NOISE_WORDS, WORD_NOISE],
  [REFERENCE_MARKERS, WORD_REFERENCE],
  [MONTHS, WORD_MONTH],
  [PREFIX_WORDS, WORD_PREFIX],
  [WEAK_PREFIX, WORD_WEAK_PREFIX],
  [REGION_CODES, WORD_REGION],
  [CITY_FIRST_WORDS, WORD_CITY_FIRST],
  [CITY_LAST_WORDS, WORD_CITY_LAST],
  [new Set(['card']), WORD_CARD],
] as const) {
  for (const word of words) SPECIAL_WORDS.set(word, (SPECIAL_WORDS.get(word) ?? 0) | bit);
}

/**
 * The words of the description being normalised: where each starts and ends in its text (as
 * written, or folded), its bits and letter count, whether it is removed, and the indexes of the
 * words kept. Normalising is synchronous, so every call reuses these, grown as needed.
 */
const scan = {
  text: '',
  count: 0,
  starts: new Int32Array(32),
  ends: new Int32Array(32),
  bits: new Int32Array(32),
  letters: new Int32Array(32),
  removed: new Uint8Array(32),
  kept: new Int32Array(32),
};

function growScan(size: number): void {
  scan.starts = new Int32Array(size);
  scan.ends = new Int32Array(size);
  scan.bits = new Int32Array(size);
  scan.letters = new Int32Array(size);
  scan.removed = new Uint8Array(size);
  scan.kept = new Int32Array(size);
}

const JOINERS = /['`&]/g;

/** Word `i` of the scan as text: lower case, joiners dropped. */
function wordText(i: number): string {
  const text = scan.text.slice(scan.starts[i], scan.ends[i]);
  return ((scan.bits[i] ?? 0) & WORD_JOINER ? text.replace(JOINERS, '') : text).toLowerCase();
}

/**
 * Splits `text` into words as foldMerchantText and a split on spaces would (letters and digits
 * make words; ' ` & are dropped without splitting one; anything else splits). Plain ASCII text is
 * read as written; false when it holds another character (the caller folds it first). In folded
 * text every character beyond ASCII is a letter or digit.
 */
function scanWords(text: string, folded: boolean): boolean {
  // A text of n characters holds at most (n + 1) / 2 words.
  if (scan.starts.length < (text.length >> 1) + 1) growScan((text.length >> 1) + 1);
  scan.text = text;
  scan.count = 0;
  let start = -1;
  let flags = 0;
  let letters = 0;
  for (let i = 0; i <= text.length; i++) {
    let code = i < text.length ? text.charCodeAt(i) : 32;
    if (code > 127 && !folded) return false;
    if (code >= 65 && code <= 90) code += 32;
    const digit = code >= 48 && code <= 57;
    if (digit || (code >= 97 && code <= 122) || code > 127) {
      if (start < 0) {
        start = i;
        flags = WORD_MASK;
        letters = 0;
      }
      if (digit) flags |= WORD_DIGIT;
      else letters++;
      // A mask is two or more x and nothing else ("xxxx").
      if (code !== 120) flags &= ~WORD_MASK;
    } else if (code === 39 || code === 96 || code === 38) {
      if (start >= 0) flags |= WORD_JOINER;
    } else if (start >= 0) {
      endWord(start, i, letters < 2 ? flags & ~WORD_MASK : flags, letters);
      start = -1;
    }
  }
  return true;
}

/** Records the word ending at `end`, with what the word sets say of it. */
function endWord(start: number, end: number, flags: number, letters: number): void {
  const n = scan.count++;
  scan.starts[n] = start;
  scan.ends[n] = end;
  scan.letters[n] = letters;
  scan.bits[n] = flags;
  if (!(flags & WORD_DIGIT)) scan.bits[n] = flags | (SPECIAL_WORDS.get(wordText(n)) ?? 0);
}

function bitsOf(i: number): number {
  return scan.bits[i] ?? 0;
}

/** Marks digits, masks, noise words, references, card words, month names next to a number and leading payment words. */
function markNoise(): void {
  const { count: n, removed } = scan;
  removed.fill(0, 0, n);
  for (let i = 0; i < n; i++) {
    if (bitsOf(i) & (WORD_DIGIT | WORD_MASK | WORD_NOISE)) removed[i] = 1;
    else if (bitsOf(i) & WORD_REFERENCE && i + 1 < n) {
      removed[i] = 1;
      removed[i + 1] = 1;
      i++;
    }
  }
  for (let i = 0; i < n; i++) {
    // "CARD XXXX1234", "CARD 1234": the word that announces a card number goes with it.
    if (bitsOf(i) & WORD_CARD && i + 1 < n && removed[i + 1]) removed[i] = 1;
    const nextToNumber = (i > 0 && bitsOf(i - 1) & WORD_DIGIT) || (i + 1 < n && bitsOf(i + 1) & WORD_DIGIT);
    if (bitsOf(i) & WORD_MONTH && nextToNumber) removed[i] = 1;
  }
  // Leading payment words: strong ones always, weak ones only before another payment word.
  for (let start = 0; start < n; start++) {
    if (removed[start]) continue;
    if (!(bitsOf(start) & WORD_PREFIX)) break;
    if (bitsOf(start) & WORD_WEAK_PREFIX) {
      let next = start + 1;
      while (next < n && removed[next]) next++;
      if (!(next < n && bitsOf(next) & WORD_PREFIX)) break;
    }
    removed[start] = 1;
  }
}

/** Lists the words not removed in `scan.kept` and answers how many of them name the merchant (a region tail goes). */
function keptWords(): number {
  const { count: n, removed, kept } = scan;
  let k = 0;
  for (let i = 0; i < n; i++) if (!removed[i]) kept[k++] = i;
  // Card descriptors end "NAME CITY ST": the word before the region code is the city, and two-word cities go whole.
  if (k >= 3 && bitsOf(kept[k - 1] ?? 0) & WORD_REGION) {
    if (k < 4) return k - 2;
    return k - (bitsOf(kept[k - 3] ?? 0) & WORD_CITY_FIRST || bitsOf(kept[k - 2] ?? 0) & WORD_CITY_LAST ? 3 : 2);
  }
  if (k === 2 && bitsOf(kept[1] ?? 0) & WORD_REGION && (scan.letters[kept[0] ?? 0] ?? 0) > 2) return 1;
  return k;
}

/** The words of foldMerchantText(description), split on spaces. */
export function merchantWords(description: string): string[] {
  if (!scanWords(description, false)) scanWords(foldMerchantText(description), true);
  return Array.from({ length: scan.count }, (_, i) => wordText(i));
}

/** The words of a description that name its merchant (see the module comment). */
export function merchantTokens(description: string): string[] {
  if (!scanWords(description, false)) scanWords(foldMerchantText(description), true);
  const n = scan.count;
  if (n === 0) return [];
  markNoise();
  const k = keptWords();
  const tokens: string[] = [];
  for (let j = 0; j < k; j++) tokens.push(wordText(scan.kept[j] ?? 0));
  if (tokens.length > 0) return tokens;
  // Only noise: keep the first words without digits, else the first words.
  for (let i = 0; i < n && tokens.length < 3; i++) if (!(bitsOf(i) & WORD_DIGIT)) tokens.push(wordText(i));
  if (tokens.length === 0) for (let i = 0; i < n && i < 3; i++) tokens.push(wordText(i));
  return tokens;
}

/** The merchant key and words of a description (what learning needs: no display text). */
export function merchantKey(description: string): MerchantWords {
  const tokens = merchantTokens(description);
  return { key: tokens.join(' '), tokens };
}

export function normalizeMerchant(description: string): MerchantKey {
  const merchant = merchantKey(description);
  return { ...merchant, display: merchant.key.toUpperCase() };
}
