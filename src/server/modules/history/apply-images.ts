import type { EntityManager } from '@mikro-orm/knex';
import { ForeignKeyConstraintViolationException } from '@mikro-orm/core';
import { AppError } from '../../../shared/errors';
import {
  deleteRows,
  IMAGED_TABLES,
  imageText,
  insertImages,
  readImages,
  updateToImage,
  type ImagedTable,
  type RowImage,
} from '../../db/row-images';
import { imageOf, type StoredRow } from './history-rows';
import { pause } from '../../common/pause';

/** The rows (as "transaction 12") whose present state is not the side an undo or redo starts from. */
export async function changedSince(
  tem: EntityManager,
  userId: number,
  rows: readonly StoredRow[],
  expected: 'before' | 'after',
): Promise<string[]> {
  const changed: string[] = [];
  for (const table of IMAGED_TABLES) {
    const ofTable = rows.filter((row) => row.table === table);
    if (ofTable.length === 0) continue;
    const now = await readImages(
      tem,
      userId,
      table,
      ofTable.map((row) => row.id),
    );
    for (const row of ofTable) {
      // Tens of thousands of rows to compare: other requests get turns between them.
      await pause();
      if (imageText(now.get(row.id)) !== row[expected]) changed.push(`${table} ${row.id}`);
    }
  }
  return changed;
}

/** Imaged tables no row of another table refers to. */
const UNREFERENCED_TABLES: readonly ImagedTable[] = ['schedule_occurrence', 'transfer_candidate'];

const isPart = (image: RowImage): boolean => image.parent_id !== null && image.parent_id !== undefined;

/**
 * Puts every row as the given side of its history says: inserts and updates first (a row's references before it),
 * then deletes (a row's dependants before it), so no row is still pointing at one being deleted, which a cascade
 * would take with it. Something it refers to that is gone refuses the whole.
 */
export async function applySide(
  tem: EntityManager,
  userId: number,
  rows: readonly StoredRow[],
  side: 'before' | 'after',
): Promise<void> {
  const other = side === 'before' ? 'after' : 'before';
  const goneOf = (table: ImagedTable) =>
    rows.filter((row) => row.table === table && row[side] === null && row[other] !== null).map((row) => row.id);
  // Rows nothing refers to go first: an edit that replaced such rows by others of the same unique key (a schedule's
  // open occurrences remade) is undone by deleting the new ones before the old ones come back.
  for (const table of UNREFERENCED_TABLES) await deleteRows(tem, userId, table, goneOf(table));
  // The rows being written when a reference fails: the refusal names them.
  let writing: string[] = [];
  await refusingMissingReferences(
    () => writing,
    async () => {
      for (const table of IMAGED_TABLES) {
        const ofTable = rows.filter((row) => row.table === table && row[side] !== null);
        const added = ofTable.filter((r) => r[other] === null);
        writing = added.map((row) => `${table} ${row.id}`);
        const images = added.map((r) => imageOf(r[side]));
        await insertImages(
          tem,
          table,
          images.filter((image) => !isPart(image)),
        );
        await insertImages(tem, table, images.filter(isPart));
        for (const row of ofTable.filter((r) => r[other] !== null)) {
          writing = [`${table} ${row.id}`];
          // On SQLite each update runs at once: without a pause the whole entry would be one stretch of work.
          await pause();
          await updateToImage(tem, table, imageOf(row[side]));
        }
      }
    },
  );
  for (const table of [...IMAGED_TABLES].reverse()) {
    if (UNREFERENCED_TABLES.includes(table)) continue;
    const gone = rows.filter((row) => row.table === table && row[side] === null && row[other] !== null);
    // Split parts before their parents.
    const ordered = [...gone].sort((a, b) => Number(!isPart(imageOf(a[other]))) - Number(!isPart(imageOf(b[other]))));
    await deleteRows(
      tem,
      userId,
      table,
      ordered.map((row) => row.id),
    );
  }
}

/**
 * Runs `work`, which puts rows back; a row it refers to that is gone (an account, a category, a split parent)
 * refuses it with 409 naming the rows it was writing (`named()`, as "transaction 12").
 */
export async function refusingMissingReferences(named: () => readonly string[], work: () => Promise<void>) {
  try {
    await work();
  } catch (error) {
    if (!isMissingReference(error)) throw error;
    const names = named();
    const listed = names.slice(0, 10).join(', ');
    const more = names.length > 10 ? ` and ${names.length - 10} more` : '';
    throw new AppError(
      'CONFLICT',
      `These rows cannot be put back: ${listed}${more}. Something they refer to (an account, a category or a split parent) was deleted since`,
      { rows: names.slice(0, 100) },
    );
  }
}

function isMissingReference(error: unknown): boolean {
  if (error instanceof ForeignKeyConstraintViolationException) return true;
  const code = (error as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
