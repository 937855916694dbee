import type { EntityManager } from '@mikro-orm/knex';
import { runSql, selectRows, sqlTx, valuesSql } from '../../db/sql';
import { imageText, type ImagedTable, type RowImage } from '../../db/row-images';
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

/** The row id of a stored row that holds many rows an action set alike (see packRows). */
const PACKED = '*';
/** Most rows one packed row holds. */
const PACK_ROWS = 500;

/** A row an action set and nothing else changed: its before image whole, its after image the `$set` text. */
export interface SetRow {
  table: ImagedTable;
  id: string;
  image: RowImage;
  after: string;
}

/**
 * Rows an action set alike (the same columns to the same values, as a bulk edit does) stored as one row: their
 * before images as one table of values (`{"$columns":[...],"$rows":[[...],...]}`), with the one `$set` after
 * image they share. A bulk edit of hundreds of rows then writes one row of history and its index entries, and
 * each column's name once. No query looks such rows up by their id: that is done for rows created or deleted,
 * which are never packed.
 */
export function packRows(rows: readonly StoredRow[], setRows: readonly SetRow[]): StoredRow[] {
  const out = [...rows];
  // By after text, then table: the rows of one statement share one text, whose hash is kept once computed.
  const packs = new Map<string, Map<ImagedTable, SetRow[]>>();
  for (const row of setRows) {
    let ofText = packs.get(row.after);
    if (!ofText) packs.set(row.after, (ofText = new Map<ImagedTable, SetRow[]>()));
    const pack = ofText.get(row.table);
    if (pack) pack.push(row);
    else ofText.set(row.table, [row]);
  }
  for (const pack of [...packs.values()].flatMap((ofText) => [...ofText.values()]))
    for (let i = 0; i < pack.length; i += PACK_ROWS) {
      const part = pack.slice(i, i + PACK_ROWS);
      const first = part[0];
      if (!first) continue;
      if (part.length === 1)
        out.push({ table: first.table, id: first.id, before: imageText(first.image), after: first.after });
      else {
        out.push({ table: first.table, id: PACKED, before: packedText(part), after: first.after });
      }
    }
  return out;
}

/**
 * The before images of a pack as one table: every column named once (`$columns`, in the images' order), the values
 * every row has alike once (`$same`: the user, the batch, the account...), and each row's other values (`$rows`).
 */
function packedText(part: readonly SetRow[]): string | null {
  const first = part[0]?.image ?? {};
  const columns = Object.keys(first);
  // Each row's values read by name once, into an array the comparisons below index: the driver's rows are
  // dictionary objects, whose keyed reads are cheap but whose Object.keys and Object.values are not.
  const rows = part.map((row) => columns.map((column) => row.image[column]));
  const firstValues = rows[0] ?? [];
  const isVarying = columns.map(() => false);
  for (const values of rows)
    for (let j = 0; j < columns.length; j += 1) if (values[j] !== firstValues[j]) isVarying[j] = true;
  const varying = columns.flatMap((_, j) => (isVarying[j] ? [j] : []));
  const same = Object.fromEntries(columns.flatMap((c, j) => (isVarying[j] ? [] : [[c, firstValues[j]]])));
  const values = rows.map((row) => varying.map((j) => row[j]));
  return imageText({ $columns: columns, $same: same, $rows: values });
}

interface PackedImages {
  $columns: string[];
  $same?: RowImage;
  $rows: unknown[][];
}

/** The whole before images of a packed row (or the list of images the first packed rows were written as). */
function packedImages(held: PackedImages | RowImage[]): RowImage[] {
  if (Array.isArray(held)) return held;
  const same = held.$same ?? {};
  const varying = held.$columns.filter((column) => !Object.hasOwn(same, column));
  return held.$rows.map((row) => {
    const image: RowImage = {};
    let i = 0;
    for (const column of held.$columns) image[column] = Object.hasOwn(same, column) ? same[column] : row[i++];
    if (i !== varying.length) throw new Error('Invariant broken: a packed row has a value for each varying column');
    return image;
  });
}

/** The rows a stored row holds: itself, or each row of a packed one, with their whole images. */
export function unpackRow(table: ImagedTable, id: string, before: string | null, after: string | null): StoredRow[] {
  if (id !== PACKED) return [{ table, id, before, after: wholeAfter(before, after) }];
  const set = (imageOf(after) as { $set?: RowImage }).$set;
  return packedImages(imageOf(before) as unknown as PackedImages | RowImage[]).map((image) => ({
    table,
    id: String(image.id),
    before: JSON.stringify(image),
    after: JSON.stringify({ ...image, ...set }),
  }));
}

/** Stores an entry's rows, a few hundred a statement, letting other requests in between. */
export async function insertHistoryRows(
  tem: EntityManager,
  userId: number,
  entryId: number,
  touched: readonly StoredRow[],
  setRows: readonly SetRow[] = [],
): Promise<void> {
  const rows = packRows(touched, setRows);
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
      const held = unpackRow(row.table_name, row.row_id, row.before, row.after);
      // Rebuilding after images is a parse and a write a row: other requests get turns between rows.
      if (held.length > 1 || held[0]?.after !== row.after) await pause();
      out.push(...held);
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
