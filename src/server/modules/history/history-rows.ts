import type { EntityManager } from '@mikro-orm/knex';
import { runSql, selectRows, sqlTx, valuesSql } from '../../db/sql';
import type { ImagedTable, RowImage } from '../../db/row-images';
import { pause } from '../../common/pause';

/**
 * A touched row: images as JSON text, null where the row did not exist. Stored, an after image may be written as
 * the columns an action set (`{"$set":{...}}`, see setText) on top of the before image; read back, it is whole.
 */
export interface StoredRow {
  table: ImagedTable;
  id: string;
  before: string | null;
  after: string | null;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

const SET = '{"$set":';

/**
 * An after image stored as the columns an action set, for a row it changed in nothing else: a bulk edit of a
 * column or two then stores one whole image a row instead of two. Column names never start with `$`.
 */
export function setText(set: RowImage): string {
  return `${SET}${JSON.stringify(set)}}`;
}

/** The whole after image of a stored row (its before image with the columns set, when stored that way). */
export function wholeAfter(before: string | null, after: string | null): string | null {
  if (after === null || !after.startsWith(SET)) return after;
  const set = (JSON.parse(after) as { $set: RowImage }).$set;
  return JSON.stringify({ ...imageOf(before), ...set });
}

/** Stores an entry's rows, a few hundred a statement, letting other requests in between. */
export async function insertHistoryRows(
  tem: EntityManager,
  userId: number,
  entryId: number,
  rows: readonly StoredRow[],
): Promise<void> {
  // Bound parameters: the ORM's execute would write every image into the SQL text.
  const tx = await sqlTx(tem);
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    await tx.run(
      `insert into history_row (user_id, entry_id, table_name, row_id, "before", "after") values ${valuesSql('(?, ?, ?, ?, ?, ?)', chunk.length)}`,
      chunk.flatMap((row) => [userId, entryId, row.table, row.id, row.before, row.after]),
    );
    if (i + 200 < rows.length) await turn();
  }
}

export async function deleteHistoryRows(tem: EntityManager, userId: number, entryId: number): Promise<void> {
  await runSql(tem, 'delete from history_row where user_id = ? and entry_id = ?', [userId, entryId]);
}

/** Rows of an entry read a statement, with a turn of the event loop between statements. */
const ENTRY_PAGE = 2000;

export async function entryRows(tem: EntityManager, userId: number, entryId: number): Promise<StoredRow[]> {
  const out: StoredRow[] = [];
  let after = 0;
  for (;;) {
    const rows = await selectRows<{
      id: number;
      table_name: ImagedTable;
      row_id: string;
      before: string | null;
      after: string | null;
    }>(
      tem,
      `select id, table_name, row_id, "before", "after" from history_row
        where user_id = ? and entry_id = ? and id > ? order by id limit ${ENTRY_PAGE}`,
      [userId, entryId, after],
    );
    for (const row of rows) {
      const after = wholeAfter(row.before, row.after);
      // Rebuilding an after image is a parse and a write: other requests get turns between rows.
      if (after !== row.after) await pause();
      out.push({ table: row.table_name, id: row.row_id, before: row.before, after });
    }
    const last = rows.at(-1);
    if (rows.length < ENTRY_PAGE || !last) return out;
    after = last.id;
    await turn();
  }
}

export function parseImage(text: string | null): RowImage | null {
  return text === null ? null : (JSON.parse(text) as RowImage);
}

/** The image of a side known to exist (a deleted row's before, a created row's after). */
export function imageOf(text: string | null): RowImage {
  if (text === null) throw new Error('Invariant broken: a history row holds an image on this side');
  return JSON.parse(text) as RowImage;
}
