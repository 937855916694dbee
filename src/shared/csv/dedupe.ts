import { runSteps, type Steps } from './steps';
import { RECORDS_PER_STEP } from './tokenize';
import { must } from '../must';

/** Duplicate detection by occurrence: same account, date, amount in cents and normalised description. */
export function normalizeDescription(text: string): string {
  // Fast path (most bank text): printable ASCII with single inner spaces is already normal.
  if (!NEEDS_NORMALIZING.test(text)) return text.toLowerCase();
  return text.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

const NEEDS_NORMALIZING = /[^\x20-\x7e]|\s\s|^\s|\s$/;

export function dedupeKey(postDate: string, amount: number, description: string): string {
  return `${postDate}|${amount}|${normalizeDescription(description)}`;
}

/** What an account already holds, for duplicate detection. */
export interface StoredRows {
  /** Stored rows per dedupe key (date, cents, description): a map of dedupeKey strings, or RowCounts. */
  all: Map<string, number> | RowCounts;
  /** The same, counting only stored rows without a bank id (FITID). */
  withoutFitid?: Map<string, number> | RowCounts;
  /** Bank ids (FITID) already stored. */
  fitids?: ReadonlySet<string>;
}

/** 2^25: amounts of fewer cents (in size) share a number with their date in dateAmountKey. */
const AMOUNT_SPAN = 33_554_432;

/**
 * A date and an amount as one Map key: YYYYMMDD * 2^26 + (cents + 2^25), below 2^53, when the
 * date is `YYYY-MM-DD` and the amount whole cents under 2^25 in size; else the text
 * `date|cents` (a string key never equals a number key).
 */
function dateAmountKey(postDate: string, amount: number): number | string {
  if (
    postDate.length === 10 &&
    Number.isInteger(amount) &&
    amount > -AMOUNT_SPAN &&
    amount < AMOUNT_SPAN &&
    postDate[4] === '-' &&
    postDate[7] === '-'
  ) {
    let ymd = 0;
    for (let i = 0; i < 10; i += 1) {
      if (i === 4 || i === 7) continue;
      const digit = postDate.charCodeAt(i) - 48;
      if (digit < 0 || digit > 9) return `${postDate}|${amount}`;
      ymd = ymd * 10 + digit;
    }
    return ymd * 2 * AMOUNT_SPAN + (amount + AMOUNT_SPAN);
  }
  return `${postDate}|${amount}`;
}

/**
 * Stored rows counted by dedupe key as a map of dedupeKey strings counts them, without building
 * and hashing a key string a row (most of what a re-import cost): by date and
 * amount as one number, then the one normalised description stored there (most dates and amounts
 * hold one row), or a count per description.
 */
export class RowCounts {
  private readonly at = new Map<number | string, string | Map<string, number>>();

  add(postDate: string, amount: number, description: string): void {
    const at = dateAmountKey(postDate, amount);
    const text = normalizeDescription(description);
    const found = this.at.get(at);
    if (found === undefined) this.at.set(at, text);
    else if (typeof found === 'string')
      this.at.set(at, found === text ? new Map([[text, 2]]) : new Map([[found, 1]]).set(text, 1));
    else found.set(text, (found.get(text) ?? 0) + 1);
  }

  /** Uses up one stored row with this dedupe key; answers whether there was one. */
  take(postDate: string, amount: number, description: string): boolean {
    const at = dateAmountKey(postDate, amount);
    const found = this.at.get(at);
    if (found === undefined) return false;
    const text = normalizeDescription(description);
    if (typeof found === 'string') {
      if (found !== text) return false;
      this.at.delete(at);
      return true;
    }
    const count = found.get(text) ?? 0;
    if (count > 1) found.set(text, count - 1);
    else if (count === 1) {
      found.delete(text);
      if (found.size === 0) this.at.delete(at);
    }
    return count > 0;
  }

  /** Dates and amounts that still hold a stored row (0 when every row is used up). */
  get size(): number {
    return this.at.size;
  }

  copy(): RowCounts {
    const copy = new RowCounts();
    for (const [at, found] of this.at) copy.at.set(at, typeof found === 'string' ? found : new Map(found));
    return copy;
  }
}

/** Uses up one stored row with the row's dedupe key from a map of dedupeKey strings; answers whether there was one. */
function takeFromMap(pool: Map<string, number>, postDate: string, amount: number, description: string): boolean {
  const key = dedupeKey(postDate, amount, description);
  const count = pool.get(key) ?? 0;
  if (count > 1) pool.set(key, count - 1);
  else if (count === 1) pool.delete(key);
  return count > 0;
}

const copyOf = (pool: Map<string, number> | RowCounts) => (pool instanceof RowCounts ? pool.copy() : new Map(pool));

/**
 * `bankDescription`: the file's own text when a rule renamed the row. Stored rows are compared by
 * the bank's text too (a renamed row keeps it), so a rule added, changed or removed between two
 * imports of one statement never makes its rows look new.
 */
type DedupeRow = {
  postDate: string;
  amount: number;
  description: string;
  bankDescription?: string;
  fitid?: string | null;
};

/**
 * Marks which rows are already stored. A row with a bank id (FITID) is a duplicate when that
 * id is stored (whatever the description says now), else when an equal row without an id is;
 * a row without one is matched by key. Each stored row absorbs one equal row of the file, so
 * two identical purchases in one file both import the first time and neither the second time.
 */
export function markDuplicates(rows: readonly DedupeRow[], existing: Map<string, number> | StoredRows): boolean[] {
  return runSteps(markDuplicatesSteps(rows, existing));
}

/** `markDuplicates` as steps (see steps.ts), pausing every RECORDS_PER_STEP rows. */
export function* markDuplicatesSteps(
  rows: readonly DedupeRow[],
  existing: Map<string, number> | StoredRows,
): Steps<boolean[]> {
  const marker = new DuplicateMarker(existing);
  const duplicate = new Array<boolean>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    if (i > 0 && i % RECORDS_PER_STEP === 0) yield;
    duplicate[i] = marker.isDuplicate(must(rows[i], 'i < rows.length'));
  }
  return duplicate;
}

/**
 * `markDuplicates` one row at a time, for rows that come in chunks: asked in the file's order,
 * it answers as `markDuplicates` over the whole file. With `owned`, the caller hands the stored
 * counts over and the marker uses them up in place (no copy of a key map as large as the account's
 * rows); rows with a bank id then need `withoutFitid` to be given. Without it, the caller's maps
 * stay as they are (copied only when a row needs them).
 */
export class DuplicateMarker {
  private readonly stored: StoredRows;
  private readonly owned: boolean;
  private left: Map<string, number> | RowCounts | null = null;
  private leftWithout: Map<string, number> | RowCounts | null = null;
  private readonly fitids: ReadonlySet<string>;

  constructor(existing: Map<string, number> | StoredRows, options: { owned?: boolean } = {}) {
    this.stored = existing instanceof Map ? { all: existing } : existing;
    this.owned = options.owned ?? false;
    this.fitids = this.stored.fitids ?? new Set<string>();
  }

  isDuplicate(row: DedupeRow): boolean {
    if (row.fitid && this.fitids.has(row.fitid)) return true;
    const pool = row.fitid
      ? (this.leftWithout ??= this.poolWithoutFitid())
      : (this.left ??= this.owned ? this.stored.all : copyOf(this.stored.all));
    // A key costs a string built and hashed per row: none is built when nothing is left to match
    // (a first import, or once every stored row has absorbed its equal), as keys used up are deleted.
    if (pool.size === 0) return false;
    const description = row.bankDescription ?? row.description;
    return pool instanceof RowCounts
      ? pool.take(row.postDate, row.amount, description)
      : takeFromMap(pool, row.postDate, row.amount, description);
  }

  private poolWithoutFitid(): Map<string, number> | RowCounts {
    if (!this.owned) return copyOf(this.stored.withoutFitid ?? this.stored.all);
    return must(this.stored.withoutFitid, 'rows with a bank id are marked against the stored rows without one');
  }
}
