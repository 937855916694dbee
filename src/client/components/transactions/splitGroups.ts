import type { TransactionDto } from '../../../shared/schemas/transactions';

/**
 * A split reads as one purchase: its original (the parent) with its parts beneath it. Pure pieces of the
 * transaction table: the display order of a sorted list and how its counts are worded.
 */

type SplitFields = Pick<TransactionDto, 'id' | 'isSplit' | 'parentTransactionId'>;

export interface ResultCounts {
  /** Purchases: rows that are not parts of a split shown with its original, so a split counts once. */
  transactions: number;
  /** Split originals in the list. */
  splitParents: number;
  /** Parts shown beneath their original. */
  parts: number;
  /** Parts whose original is not in the list (a filter matched the part alone). */
  looseParts: number;
}

export function resultCounts(rows: readonly SplitFields[]): ResultCounts {
  const parents = new Set<number>();
  for (const row of rows) if (row.isSplit) parents.add(row.id);
  let parts = 0;
  let looseParts = 0;
  for (const row of rows) {
    if (row.parentTransactionId === null) continue;
    if (parents.has(row.parentTransactionId)) parts += 1;
    else looseParts += 1;
  }
  return { transactions: rows.length - parts, splitParents: parents.size, parts, looseParts };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** "191 transactions (3 split into 8 parts)"; parts found without their original are named too. */
export function countsText(counts: ResultCounts): string {
  const notes: string[] = [];
  if (counts.splitParents > 0) notes.push(`${counts.splitParents} split into ${plural(counts.parts, 'part')}`);
  if (counts.looseParts > 0)
    notes.push(`${plural(counts.looseParts, 'part')} of ${counts.looseParts === 1 ? 'a split' : 'splits'}`);
  const base = plural(counts.transactions, 'transaction');
  return notes.length === 0 ? base : `${base} (${notes.join('; ')})`;
}

export interface SplitLayout<T> {
  /** Rows in display order: each original followed by its parts (unless folded), the parts in the order written. */
  rows: T[];
  /** Ids of the parts shown beneath their original (indented). */
  nested: ReadonlySet<number>;
  /** Per original in the list, how many of its parts the list holds. */
  partCounts: ReadonlyMap<number, number>;
}

/**
 * Puts each split's parts right after their original, keeping the sorted order of everything else; a part
 * whose original is not in the list stays where the sort put it. Parts of a folded original are left out.
 */
export function layoutSplits<T extends SplitFields>(sorted: readonly T[], folded: ReadonlySet<number>): SplitLayout<T> {
  const parents = new Set<number>();
  for (const row of sorted) if (row.isSplit) parents.add(row.id);
  if (parents.size === 0) return { rows: [...sorted], nested: new Set(), partCounts: new Map() };
  const partsOf = new Map<number, T[]>();
  for (const row of sorted) {
    const parent = row.parentTransactionId;
    if (parent === null || !parents.has(parent)) continue;
    const list = partsOf.get(parent);
    if (list) list.push(row);
    else partsOf.set(parent, [row]);
  }
  const rows: T[] = [];
  const nested = new Set<number>();
  const partCounts = new Map<number, number>();
  for (const row of sorted) {
    if (row.parentTransactionId !== null && parents.has(row.parentTransactionId)) continue;
    rows.push(row);
    if (!row.isSplit) continue;
    const parts = (partsOf.get(row.id) ?? []).sort((a, b) => a.id - b.id);
    partCounts.set(row.id, parts.length);
    if (folded.has(row.id)) continue;
    for (const part of parts) {
      rows.push(part);
      nested.add(part.id);
    }
  }
  return { rows, nested, partCounts };
}
