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
  try {
    for (const table of IMAGED_TABLES) {
      const ofTable = rows.filter((row) => row.table === table && row[side] !== null);
      const added = ofTable.filter((r) => r[other] === null).map((r) => imageOf(r[side]));
      await insertImages(
        tem,
        table,
        added.filter((image) => !isPart(image)),
      );
      await insertImages(tem, table, added.filter(isPart));
      for (const row of ofTable.filter((r) => r[other] !== null)) {
        // On SQLite each update runs at once: without a pause the whole entry would be one stretch of work.
        await pause();
        await updateToImage(tem, table, imageOf(row[side]));
      }
    }
  } catch (error) {
    if (isMissingReference(error))
      throw new AppError(
        'CONFLICT',
        'These rows cannot be put back: something they refer to (an account, a category or a split parent) was deleted since',
      );
    throw error;
  }
  for (const table of [...IMAGED_TABLES].reverse()) {
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

function isMissingReference(error: unknown): boolean {
  if (error instanceof ForeignKeyConstraintViolationException) return true;
  const code = (error as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
