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
  /** Stored rows per dedupe key (date, cents, description). */
  all: Map<string, number>;
  /** The same, counting only stored rows without a bank id (FITID). */
  withoutFitid?: Map<string, number>;
  /** Bank ids (FITID) already stored. */
  fitids?: ReadonlySet<string>;
}

/**
 * `bankDescription`: the file's own text when a rule renamed the row. Stored rows are compared by
 * the bank's text too (a renamed row keeps it), so a rule added, changed or removed between two
 * imports of one statement never makes its rows look new.
 */
type DedupeRow = { postDate: string; amount: number; description: string; bankDescription?: string; fitid?: string | null };

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
export function* markDuplicatesSteps(rows: readonly DedupeRow[], existing: Map<string, number> | StoredRows): Steps<boolean[]> {
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
  private left: Map<string, number> | null = null;
  private leftWithout: Map<string, number> | null = null;
  private readonly fitids: ReadonlySet<string>;

  constructor(existing: Map<string, number> | StoredRows, options: { owned?: boolean } = {}) {
    this.stored = existing instanceof Map ? { all: existing } : existing;
    this.owned = options.owned ?? false;
    this.fitids = this.stored.fitids ?? new Set<string>();
  }

  isDuplicate(row: DedupeRow): boolean {
    if (row.fitid && this.fitids.has(row.fitid)) return true;
    const pool = row.fitid ? (this.leftWithout ??= this.poolWithoutFitid()) : (this.left ??= this.owned ? this.stored.all : new Map(this.stored.all));
    // A key costs a string built and hashed per row: none is built when nothing is left to match
    // (a first import, or once every stored row has absorbed its equal), as keys used up are deleted.
    if (pool.size === 0) return false;
    const key = dedupeKey(row.postDate, row.amount, row.bankDescription ?? row.description);
    const count = pool.get(key) ?? 0;
    if (count > 1) pool.set(key, count - 1);
    else if (count === 1) pool.delete(key);
    return count > 0;
  }

  private poolWithoutFitid(): Map<string, number> {
    if (!this.owned) return new Map(this.stored.withoutFitid ?? this.stored.all);
    return must(this.stored.withoutFitid, 'rows with a bank id are marked against the stored rows without one');
  }
}
