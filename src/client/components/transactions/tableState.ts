import type { TransactionDto } from '../../../shared/schemas/transactions';

/**
 * Pure pieces of the transaction table's state: what Back restores, how the counts are worded,
 * and how the arrow keys move within a row. Kept apart from React so they survive a rebuild.
 */

/** What a table remembers in its history entry when the person opens a row to edit it. */
export interface TableMemory {
  selected: number[];
  /** The row that was opened; focus returns to it. */
  focusId: number | null;
}

export function isTableMemory(value: unknown): value is TableMemory {
  if (!value || typeof value !== 'object') return false;
  const memory = value as Partial<TableMemory>;
  return (
    Array.isArray(memory.selected) &&
    memory.selected.every((id) => Number.isSafeInteger(id)) &&
    (memory.focusId === null || Number.isSafeInteger(memory.focusId))
  );
}

/**
 * The selection to restore once rows have loaded: the remembered ids that are still shown.
 * Null while none of the remembered rows (nor the focused one) is there yet.
 */
export function restorableSelection(
  memory: TableMemory,
  rows: readonly Pick<TransactionDto, 'id'>[],
): Set<number> | null {
  const shown = new Set(rows.map((row) => row.id));
  const kept = memory.selected.filter((id) => shown.has(id));
  if (kept.length === 0 && (memory.focusId === null || !shown.has(memory.focusId))) return null;
  return new Set(kept);
}

export interface RowCounts {
  /** Rows in the list, split originals included. */
  rows: number;
  /** Rows counted in totals: everything but split originals (their parts count instead). */
  counted: number;
  /** Split originals (parents) in the list. */
  originals: number;
}

export function rowCounts(rows: readonly Pick<TransactionDto, 'isSplit'>[]): RowCounts {
  let originals = 0;
  for (const row of rows) if (row.isSplit) originals += 1;
  return { rows: rows.length, counted: rows.length - originals, originals };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * Why a list and the totals above it show different counts: "Showing all 2206 rows: 2199
 * transactions counted in the totals and 7 split originals (their parts are counted instead)".
 * Without split originals the two agree: "Showing all 120 transactions".
 */
export function showingAllText(counts: RowCounts): string {
  if (counts.originals === 0) return `Showing all ${plural(counts.rows, 'transaction')}`;
  return `Showing all ${plural(counts.rows, 'row')}: ${plural(counts.counted, 'transaction')} counted in the totals and ${plural(counts.originals, 'split original')} (their parts are counted instead)`;
}

/** "showing 12 of 2206 rows" or "showing 12 of 120 transactions". */
export function showingSomeText(shown: number, counts: RowCounts): string {
  return `showing ${shown} of ${counts.originals === 0 ? plural(counts.rows, 'transaction') : plural(counts.rows, 'row')}`;
}

/** The note beside "Found N transactions" when split originals are among them. */
export function originalsNote(counts: RowCounts): string | null {
  if (counts.originals === 0) return null;
  return `${plural(counts.originals, 'split original')} not counted in the total (their parts are)`;
}

/**
 * The arrow keys move between the controls of one row (a row is one Tab stop):
 * index of the control to focus next, or null for keys that do not move.
 */
export function nextControlIndex(current: number, count: number, key: string): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
      return Math.min(count - 1, current + 1);
    case 'ArrowLeft':
      return Math.max(0, current - 1);
    default:
      return null;
  }
}
