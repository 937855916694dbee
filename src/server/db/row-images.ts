/**
 * Whole rows as JSON images, read and written back by table name: what the history keeps of every row an action
 * touched, and what undo, redo and the trash put back. Tables are named from a fixed list, never from input.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { must } from '../../shared/must';
import { runSql, selectRows, sqlTx, valuesSql } from './sql';

export type RowImage = Record<string, unknown>;

/**
 * The tables a history entry may touch, in the order their rows are inserted (a row's references first);
 * deletes run in the reverse order.
 */
export const IMAGED_TABLES = [
  'category',
  'plan_assigned',
  'plan_move',
  'plan_hold',
  'batch',
  'rule',
  'budget',
  'line_item',
  'envelope',
  'schedule',
  'transfer',
  'transaction',
  'schedule_occurrence',
  'transfer_candidate',
] as const;
export type ImagedTable = (typeof IMAGED_TABLES)[number];

const CHUNK = 400;
const quoted = (name: string): string => `"${name.replaceAll('"', '""')}"`;
const marks = (n: number): string => Array.from({ length: n }, () => '?').join(', ');
const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Statements on the running transaction's own connection, with bound parameters (and prepared once on SQLite):
 * the ORM's raw execute writes every value into the SQL text, which a row image's JSON makes long to build and parse.
 */
interface Statements {
  all: <T extends object>(sql: string, params: readonly unknown[]) => Promise<T[]>;
  run: (sql: string, params: readonly unknown[]) => Promise<number>;
}

async function statements(em: EntityManager): Promise<Statements> {
  if (em.getTransactionContext() === undefined)
    return { all: (sql, params) => selectRows(em, sql, params), run: (sql, params) => runSql(em, sql, params) };
  const tx = await sqlTx(em);
  return { all: (sql, params) => tx.all(sql, params), run: (sql, params) => tx.run(sql, params) };
}

/** Rows of one user's table by id (ids that are not there are left out), keyed by their id as text. */
export async function readImages(
  em: EntityManager,
  userId: number,
  table: ImagedTable,
  ids: readonly (number | string)[],
): Promise<Map<string, RowImage>> {
  const images = new Map<string, RowImage>();
  const sql = await statements(em);
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK).map((id) => idValue(table, id));
    const rows = await sql.all<RowImage>(
      `select * from ${quoted(table)} where user_id = ? and id in (${marks(chunk.length)})`,
      [userId, ...chunk],
    );
    for (const row of rows) images.set(String(row.id), row);
    if (ids.length > CHUNK) await turn();
  }
  return images;
}

/** One text for a row image, the same for the same values whichever way they were read. */
export function imageText(image: RowImage | null | undefined): string | null {
  if (!image) return null;
  // A replacer runs for every value; only a bigint needs one (a Date writes its ISO text by itself).
  try {
    return JSON.stringify(image);
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return JSON.stringify(image, (_key, value: unknown) => (typeof value === 'bigint' ? Number(value) : value));
  }
}

export async function deleteRows(
  em: EntityManager,
  userId: number,
  table: ImagedTable,
  ids: readonly string[],
): Promise<void> {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const chunk = ids.slice(i, i + CHUNK).map((id) => idValue(table, id));
    await runSql(em, `delete from ${quoted(table)} where user_id = ? and id in (${marks(chunk.length)})`, [
      userId,
      ...chunk,
    ]);
    if (ids.length > CHUNK) await turn();
  }
}

/** Inserts rows as their images say (every image of a table has the same columns). */
export async function insertImages(em: EntityManager, table: ImagedTable, images: readonly RowImage[]): Promise<void> {
  if (images.length === 0) return;
  const columns = Object.keys(must(images[0], 'there is an image'));
  const perStatement = Math.max(1, Math.floor(900 / columns.length));
  for (let i = 0; i < images.length; i += perStatement) {
    const chunk = images.slice(i, i + perStatement);
    await runSql(
      em,
      `insert into ${quoted(table)} (${columns.map(quoted).join(', ')}) values ${valuesSql(`(${marks(columns.length)})`, chunk.length)}`,
      chunk.flatMap((image) => columns.map((column) => columnValue(image[column]))),
    );
    if (images.length > perStatement) await turn();
  }
}

/** Sets every column of an existing row to its image. */
export async function updateToImage(em: EntityManager, table: ImagedTable, image: RowImage): Promise<void> {
  const columns = Object.keys(image).filter((column) => column !== 'id');
  await runSql(
    em,
    `update ${quoted(table)} set ${columns.map((column) => `${quoted(column)} = ?`).join(', ')} where user_id = ? and id = ?`,
    [...columns.map((column) => columnValue(image[column])), image.user_id, image.id],
  );
}

/** JSON columns come back from PostgreSQL as objects; the drivers take them back as text. */
function columnValue(value: unknown): unknown {
  return value !== null && typeof value === 'object' && !(value instanceof Date) ? JSON.stringify(value) : value;
}

/** Batches are keyed by a UUID; every other imaged table by an integer. */
function idValue(table: ImagedTable, id: number | string): string | number {
  return table === 'batch' ? String(id) : Number(id);
}
