import type { EntityManager } from '@mikro-orm/knex';
import { runSql, selectRows, valuesSql } from '../../db/sql';
import type { ImagedTable, RowImage } from '../../db/row-images';

/** A touched row as stored: images as JSON text, null where the row did not exist. */
export interface StoredRow {
  table: ImagedTable;
  id: string;
  before: string | null;
  after: string | null;
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Stores an entry's rows, a few hundred a statement, letting other requests in between. */
export async function insertHistoryRows(
  tem: EntityManager,
  userId: number,
  entryId: number,
  rows: readonly StoredRow[],
): Promise<void> {
  for (let i = 0; i < rows.length; i += 200) {
    const chunk = rows.slice(i, i + 200);
    await runSql(
      tem,
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
    for (const row of rows) out.push({ table: row.table_name, id: row.row_id, before: row.before, after: row.after });
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
