import { runSteps, type Steps } from './steps';
import { RECORDS_PER_STEP } from './tokenize';

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

/**
 * Marks which rows are already stored. `existing` counts stored rows per key; each stored
 * row absorbs one equal row of the file, so two identical purchases in one file both import
 * the first time and neither the second time.
 */
export function markDuplicates<T extends { postDate: string; amount: number; description: string }>(
  rows: readonly T[],
  existing: Map<string, number>,
): boolean[] {
  return runSteps(markDuplicatesSteps(rows, existing));
}

/** `markDuplicates` as steps (see steps.ts), pausing every RECORDS_PER_STEP rows. */
export function* markDuplicatesSteps<T extends { postDate: string; amount: number; description: string }>(
  rows: readonly T[],
  existing: Map<string, number>,
): Steps<boolean[]> {
  const left = new Map(existing);
  const duplicate = new Array<boolean>(rows.length);
  for (let i = 0; i < rows.length; i += 1) {
    if (i > 0 && i % RECORDS_PER_STEP === 0) yield;
    const row = rows[i];
    const key = dedupeKey(row.postDate, row.amount, row.description);
    const count = left.get(key) ?? 0;
    if (count > 0) left.set(key, count - 1);
    duplicate[i] = count > 0;
  }
  return duplicate;
}
