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
/** The first word of two-word city names ("NEW YORK", "SAN DIEGO", "ST LOUIS"). */
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

const DIGIT = /\d/;
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

/** The words of a folded description, and which of them hold an (ASCII) digit. */
interface Words {
  words: string[];
  digits: boolean[];
}

const CODE_0 = 48;
const CODE_9 = 57;
const CODE_LOWER_A = 97;
const CODE_LOWER_Z = 122;

/**
 * The words of plain ASCII text in one pass over its characters, as foldMerchantText and a
 * split on spaces would give them (letters lower-cased, ' ` & dropped, anything else splits);
 * null when the text holds a non-ASCII character (that goes the Unicode way).
 */
function asciiWords(description: string): Words | null {
  for (let i = 0; i < description.length; i++) if (description.charCodeAt(i) > 127) return null;
  // One native lower-casing of the whole text instead of one per word.
  const text = description.toLowerCase();
  const words: string[] = [];
  const digits: boolean[] = [];
  // The word being read: where it starts (-1: none), its text so far once a joiner was dropped.
  let start = -1;
  let joined: string | null = null;
  let digit = false;
  for (let i = 0; i <= text.length; i++) {
    const code = i < text.length ? text.charCodeAt(i) : 32;
    const isDigit = code >= CODE_0 && code <= CODE_9;
    if (isDigit || (code >= CODE_LOWER_A && code <= CODE_LOWER_Z)) {
      if (start < 0) start = i;
      else if (joined !== null) joined += text.charAt(i);
      digit ||= isDigit;
    } else if (code === 39 || code === 96 || code === 38) {
      // ' ` &: dropped without splitting the word ("McDonald's" -> "mcdonalds").
      if (start >= 0) joined ??= text.slice(start, i);
    } else if (start >= 0) {
      words.push(joined ?? text.slice(start, i));
      digits.push(digit);
      start = -1;
      joined = null;
      digit = false;
    }
  }
  return { words, digits };
}

/** The words of foldMerchantText(description), split on spaces (a faster way for plain ASCII text). */
export function merchantWords(description: string): string[] {
  return foldedWords(description).words;
}

function foldedWords(description: string): Words {
  const ascii = asciiWords(description);
  if (ascii) return ascii;
  const words = foldMerchantText(description).split(' ').filter(Boolean);
  return { words, digits: words.map((word) => DIGIT.test(word)) };
}

function isMask(word: string): boolean {
  if (word.length < 2) return false;
  for (let i = 0; i < word.length; i++) if (word.charCodeAt(i) !== 120) return false;
  return true;
}

/** The index of the first word at or after `from` that is not removed, or -1. */
function nextKept(removed: readonly boolean[], from: number): number {
  for (let i = from; i < removed.length; i++) if (!removed[i]) return i;
  return -1;
}

/** Marks digits, masks, noise words, references, card words and month names next to a number. */
function markNoise(words: readonly string[], digits: readonly boolean[], removed: boolean[]): void {
  for (let i = 0; i < words.length; i++) {
    const word = words[i] ?? '';
    if (digits[i] || isMask(word) || NOISE_WORDS.has(word)) removed[i] = true;
    else if (REFERENCE_MARKERS.has(word) && i + 1 < words.length) {
      removed[i] = true;
      removed[i + 1] = true;
      i++;
    }
  }
  for (let i = 0; i < words.length; i++) {
    // "CARD XXXX1234", "CARD 1234": the word that announces a card number goes with it.
    const word = words[i] ?? '';
    if (word === 'card' && i + 1 < words.length && removed[i + 1]) removed[i] = true;
    if (MONTHS.has(word) && ((i > 0 && digits[i - 1]) || (i + 1 < words.length && digits[i + 1]))) removed[i] = true;
  }
}

/** Marks the leading payment words (strong ones always, weak ones only inside a run of noise). */
function markPrefixes(words: readonly string[], removed: boolean[]): void {
  let start = 0;
  while (start < words.length) {
    if (removed[start]) {
      start++;
      continue;
    }
    const word = words[start] ?? '';
    if (!PREFIX_WORDS.has(word)) break;
    if (WEAK_PREFIX.has(word)) {
      const next = nextKept(removed, start + 1);
      if (!(next >= 0 && PREFIX_WORDS.has(words[next] ?? ''))) break;
    }
    removed[start] = true;
    start++;
  }
}

/** Drops a region tail: a trailing region code, then the city before it. */
function dropRegionTail(kept: string[]): string[] {
  if (kept.length >= 3 && REGION_CODES.has(kept[kept.length - 1] ?? '')) {
    // Card descriptors end "NAME CITY ST": the word before the code is the city.
    const city = kept[kept.length - 2] ?? '';
    if (kept.length < 4) return kept.slice(0, -2);
    const beforeCity = kept[kept.length - 3] ?? '';
    return kept.slice(0, CITY_FIRST_WORDS.has(beforeCity) || CITY_LAST_WORDS.has(city) ? -3 : -2);
  }
  if (kept.length === 2) {
    const [first = '', second = ''] = kept;
    if (REGION_CODES.has(second) && first.length > 2) return kept.slice(0, 1);
  }
  return kept;
}

/*
 * The same steps for plain ASCII text (most bank text) over numbers instead of strings: one pass
 * over the characters finds each word's bounds and, for a word of at most 10 letters without a
 * digit, its letters packed 5 bits each into one exact number, looked up in one table of the
 * special words above (what the sets say of it, as bits). Only the words kept (the merchant's,
 * usually two or three) become strings; a description costs about one pass over its text.
 */
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
/** Letters packed into one number (32^10 = 2^50 stays exact in a double); longer words are looked up as text. */
const PACKED_LETTERS = 10;

function packWord(word: string): number {
  let packed = 0;
  for (let i = 0; i < word.length; i++) packed = packed * 32 + (word.charCodeAt(i) - 96);
  return packed;
}

/**
 * What the word sets say of each special word, as bits: words of up to 10 letters in an
 * open-addressing table of their packed letters (no allocation per lookup, unlike a Map of
 * numbers beyond small integers), longer words by text.
 */
const SPECIAL_SLOTS = 1024;
const specialPacked = new Float64Array(SPECIAL_SLOTS);
const specialBits = new Int32Array(SPECIAL_SLOTS);
const SPECIAL_LONG = new Map<string, number>();

function specialSlot(packed: number): number {
  let slot = (packed | 0) & (SPECIAL_SLOTS - 1);
  // Slots hold packed words (never 0: letters pack from 1); a free slot ends the search.
  while (specialPacked[slot] !== packed && specialPacked[slot] !== 0) slot = (slot + 1) & (SPECIAL_SLOTS - 1);
  return slot;
}

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
  for (const word of words) {
    if (word.length > PACKED_LETTERS) SPECIAL_LONG.set(word, (SPECIAL_LONG.get(word) ?? 0) | bit);
    else {
      const slot = specialSlot(packWord(word));
      specialPacked[slot] = packWord(word);
      specialBits[slot] = (specialBits[slot] ?? 0) | bit;
    }
  }
}

/** Scratch space of asciiMerchantTokens (synchronous, so one set serves every call), grown as needed. */
let wordStarts = new Int32Array(32);
let wordEnds = new Int32Array(32);
let wordBits = new Int32Array(32);
let wordLetters = new Int32Array(32);
let wordRemoved = new Uint8Array(32);
let keptWords = new Int32Array(32);

function growWords(size: number): void {
  wordStarts = new Int32Array(size);
  wordEnds = new Int32Array(size);
  wordBits = new Int32Array(size);
  wordLetters = new Int32Array(size);
  wordRemoved = new Uint8Array(size);
  keptWords = new Int32Array(size);
}

const JOINERS = /['`&]/g;

/** Word `i` of the last scan as text: lower case, joiners dropped. */
function wordText(description: string, i: number): string {
  const text = description.slice(wordStarts[i], wordEnds[i]);
  return ((wordBits[i] ?? 0) & WORD_JOINER ? text.replace(JOINERS, '') : text).toLowerCase();
}

/** merchantTokens of plain ASCII text (see above); null when the text holds a non-ASCII character. */
function asciiMerchantTokens(description: string): string[] | null {
  const length = description.length;
  // A text of n characters holds at most (n + 1) / 2 words.
  if (wordStarts.length < (length >> 1) + 1) growWords((length >> 1) + 1);
  const starts = wordStarts;
  const ends = wordEnds;
  const bits = wordBits;
  let n = 0;
  let inWord = false;
  let packed = 0;
  let letters = 0;
  let flags = 0;
  let allX = true;
  for (let i = 0; i <= length; i++) {
    let code = i < length ? description.charCodeAt(i) : 32;
    if (code > 127) return null;
    if (code >= 65 && code <= 90) code += 32;
    const isDigit = code >= CODE_0 && code <= CODE_9;
    if (isDigit || (code >= CODE_LOWER_A && code <= CODE_LOWER_Z)) {
      if (!inWord) {
        inWord = true;
        starts[n] = i;
        packed = 0;
        letters = 0;
        flags = 0;
        allX = true;
      }
      if (isDigit) flags |= WORD_DIGIT;
      else {
        letters++;
        if (letters <= PACKED_LETTERS) packed = packed * 32 + (code - 96);
        if (code !== 120) allX = false;
      }
    } else if (code === 39 || code === 96 || code === 38) {
      // ' ` &: dropped without splitting the word ("McDonald's" -> "mcdonalds").
      if (inWord) flags |= WORD_JOINER;
    } else if (inWord) {
      inWord = false;
      ends[n] = i;
      if (!(flags & WORD_DIGIT)) {
        if (allX && letters >= 2) flags |= WORD_MASK;
        bits[n] = flags;
        flags |=
          letters > PACKED_LETTERS
            ? (SPECIAL_LONG.get(wordText(description, n)) ?? 0)
            : (specialBits[specialSlot(packed)] ?? 0);
      }
      bits[n] = flags;
      wordLetters[n] = letters;
      n++;
    }
  }
  if (n === 0) return [];
  const removed = wordRemoved;
  removed.fill(0, 0, n);
  // Digits, masks, noise words, and a reference marker with the word after it.
  for (let i = 0; i < n; i++) {
    const word = bits[i] ?? 0;
    if (word & (WORD_DIGIT | WORD_MASK | WORD_NOISE)) removed[i] = 1;
    else if (word & WORD_REFERENCE && i + 1 < n) {
      removed[i] = 1;
      removed[i + 1] = 1;
      i++;
    }
  }
  // "CARD XXXX1234": the word that announces a card number goes with it; a month name next to a number.
  for (let i = 0; i < n; i++) {
    const word = bits[i] ?? 0;
    if (word & WORD_CARD && i + 1 < n && removed[i + 1]) removed[i] = 1;
    if (
      word & WORD_MONTH &&
      ((i > 0 && (bits[i - 1] ?? 0) & WORD_DIGIT) || (i + 1 < n && (bits[i + 1] ?? 0) & WORD_DIGIT))
    )
      removed[i] = 1;
  }
  // Leading payment words: strong ones always, weak ones only before another payment word.
  for (let start = 0; start < n; start++) {
    if (removed[start]) continue;
    const word = bits[start] ?? 0;
    if (!(word & WORD_PREFIX)) break;
    if (word & WORD_WEAK_PREFIX) {
      let next = start + 1;
      while (next < n && removed[next]) next++;
      if (!(next < n && (bits[next] ?? 0) & WORD_PREFIX)) break;
    }
    removed[start] = 1;
  }
  const kept = keptWords;
  let k = 0;
  for (let i = 0; i < n; i++) if (!removed[i]) kept[k++] = i;
  // A region tail (dropRegionTail).
  if (k >= 3 && (bits[kept[k - 1] ?? 0] ?? 0) & WORD_REGION) {
    if (k < 4) k -= 2;
    else k -= (bits[kept[k - 3] ?? 0] ?? 0) & WORD_CITY_FIRST || (bits[kept[k - 2] ?? 0] ?? 0) & WORD_CITY_LAST ? 3 : 2;
  } else if (k === 2 && (bits[kept[1] ?? 0] ?? 0) & WORD_REGION && (wordLetters[kept[0] ?? 0] ?? 0) > 2) k = 1;
  const tokens: string[] = [];
  if (k > 0) {
    for (let j = 0; j < k; j++) tokens.push(wordText(description, kept[j] ?? 0));
    return tokens;
  }
  // Only noise: keep the first words without digits, else the first words.
  for (let i = 0; i < n && tokens.length < 3; i++)
    if (!((bits[i] ?? 0) & WORD_DIGIT)) tokens.push(wordText(description, i));
  if (tokens.length === 0) for (let i = 0; i < n && i < 3; i++) tokens.push(wordText(description, i));
  return tokens;
}

/**
 * The words of a description that name its merchant (see the module comment). Plain ASCII text
 * (most bank text) goes through asciiMerchantTokens, the same steps over numbers (learning reads
 * every categorised row of a user's history, so this runs 100,000 times on a first suggestion);
 * other text is folded and split with the regular expressions above. tests/unit/suggest-learner.test.ts
 * holds both to the normaliser of f8591be (tests/unit/reference), which had only the second way.
 */
export function merchantTokens(description: string): string[] {
  const ascii = asciiMerchantTokens(description);
  if (ascii) return ascii;
  const { words, digits } = foldedWords(description);
  if (words.length === 0) return [];
  const removed = new Array<boolean>(words.length).fill(false);
  markNoise(words, digits, removed);
  markPrefixes(words, removed);
  const kept = dropRegionTail(words.filter((_, i) => !removed[i]));
  if (kept.length > 0) return kept;
  // Only noise: keep the first words without digits, else the first word.
  const plain = words.filter((_, i) => !digits[i]);
  return (plain.length > 0 ? plain : words).slice(0, 3);
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
