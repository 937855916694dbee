import type { EntityManager } from '@mikro-orm/knex';
import { imageText, readImages, type ImagedTable, type RowImage } from '../../db/row-images';
import { selectRows, sqlTx, TRANSACTION_TABLE } from '../../db/sql';
import type { HistoryKind } from '../../../shared/schemas/history';
import { HistoryEntry } from './history.entity';
import { insertHistoryRows, type StoredRow } from './history-rows';
import { trashDeletedRows } from './trash';
import { User } from '../users/user.entity';
import { pause } from '../../common/pause';

interface Tracked {
  table: ImagedTable;
  id: string;
  before: RowImage | null;
}

/**
 * Records one action of a user as a history entry, inside the action's own transaction: `touch` the rows the
 * action may change before it runs (their images now), `created` the rows it added, then `finish` reads every
 * tracked row again and keeps those that changed. Deleted transactions go to the trash.
 */
export class ChangeRecorder {
  private readonly tracked = new Map<string, Tracked>();

  constructor(
    private readonly tem: EntityManager,
    private readonly userId: number,
  ) {}

  async touch(table: ImagedTable, ids: readonly (number | string)[]): Promise<void> {
    const fresh = [...new Set(ids.map(String))].filter((id) => !this.tracked.has(`${table}:${id}`));
    const images = await readImages(this.tem, this.userId, table, fresh);
    for (const id of fresh) this.tracked.set(`${table}:${id}`, { table, id, before: images.get(id) ?? null });
  }

  /**
   * Transactions with everything a change to them may reach: their split families, the transfer links they are
   * in, and the other side of each link.
   */
  async touchTransactions(ids: readonly number[]): Promise<void> {
    const reach = await familiesAndLinks(this.tem, this.userId, ids);
    await this.touch('transfer', reach.transfers);
    await this.touch('transaction', reach.transactions);
  }

  created(table: ImagedTable, ids: readonly (number | string)[]): void {
    for (const id of ids.map(String))
      if (!this.tracked.has(`${table}:${id}`)) this.tracked.set(`${table}:${id}`, { table, id, before: null });
  }

  /** Records an import: its batch, not an image of every row (undo moves the batch's rows out). */
  static async recordImport(
    tem: EntityManager,
    userId: number,
    batchId: string,
    rowCount: number,
    summary: string,
  ): Promise<void> {
    tem.create(HistoryEntry, {
      user: tem.getReference(User, userId),
      kind: 'import',
      summary,
      state: 'done',
      rowCount,
      batchId,
      createdAt: new Date().toISOString(),
    });
    await tem.flush();
  }

  /** Saves the entry when anything changed; answers its id (null when nothing did). */
  async finish(kind: HistoryKind, summary: string): Promise<number | null> {
    const rows: StoredRow[] = [];
    for (const table of new Set([...this.tracked.values()].map((t) => t.table))) {
      const ofTable = [...this.tracked.values()].filter((t) => t.table === table);
      const after = await readImages(
        this.tem,
        this.userId,
        table,
        ofTable.map((t) => t.id),
      );
      for (const t of ofTable) {
        // Two JSON texts a row: tens of thousands of rows take a while, so other requests get turns between them.
        await pause();
        const before = imageText(t.before);
        const now = imageText(after.get(t.id));
        if (before !== now) rows.push({ table, id: t.id, before, after: now });
      }
    }
    if (rows.length === 0) return null;
    const entryId = await (
      await sqlTx(this.tem)
    ).insertId(
      "insert into history_entry (created_at, user_id, kind, summary, state, row_count) values (?, ?, ?, ?, 'done', ?)",
      [new Date().toISOString(), this.userId, kind, summary, rows.length],
    );
    await insertHistoryRows(this.tem, this.userId, entryId, rows);
    await trashDeletedRows(this.tem, this.userId, entryId, rows);
    return entryId;
  }
}

/**
 * Runs `work` in one database transaction recorded as one history entry of `kind` (none when nothing changed):
 * `work` touches the rows it may change and names those it creates; `summary` describes what it did.
 */
export async function recorded<T>(
  em: EntityManager,
  userId: number,
  kind: HistoryKind,
  work: (tem: EntityManager, recorder: ChangeRecorder) => Promise<T>,
  summary: (result: T) => string,
): Promise<T> {
  return em.transactional(async (tem) => {
    const recorder = new ChangeRecorder(tem, userId);
    const result = await work(tem, recorder);
    await recorder.finish(kind, summary(result));
    return result;
  });
}

interface FamilyRow {
  id: number;
  parent_id: number | null;
  is_split: boolean | number;
  transfer_id: number | null;
}

/** Rows by id (primary key lookups), a few hundred a statement. */
async function rowsById(
  tem: EntityManager,
  userId: number,
  column: 'id' | 'parent_id' | 'transfer_id',
  ids: readonly number[],
) {
  const out: FamilyRow[] = [];
  for (let i = 0; i < ids.length; i += 400) {
    const chunk = ids.slice(i, i + 400);
    out.push(
      ...(await selectRows<FamilyRow>(
        tem,
        `select id, parent_id, is_split, transfer_id from ${TRANSACTION_TABLE}
          where user_id = ? and ${column} in (${chunk.map(() => '?').join(', ')})`,
        [userId, ...chunk],
      )),
    );
  }
  return out;
}

/**
 * The ids with the whole split family of each (a part's parent and siblings, a parent's parts), and with the
 * transfer links they are in and every side of those.
 */
async function familiesAndLinks(
  tem: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<{ transactions: number[]; transfers: number[] }> {
  const rows = await rowsById(tem, userId, 'id', ids);
  const parents = new Set<number>();
  for (const row of rows) {
    if (row.parent_id !== null) parents.add(row.parent_id);
    else if (row.is_split) parents.add(row.id);
  }
  const family = [...rows, ...(await rowsById(tem, userId, 'id', [...parents]))];
  family.push(...(await rowsById(tem, userId, 'parent_id', [...parents])));
  const transfers = [...new Set(family.flatMap((row) => (row.transfer_id === null ? [] : [row.transfer_id])))];
  const sides = await rowsById(tem, userId, 'transfer_id', transfers);
  return {
    transactions: [...new Set([...ids, ...family.map((row) => row.id), ...sides.map((row) => row.id)])],
    transfers,
  };
}

/** The ids with the whole split family of each (a part's parent and siblings, a parent's parts). */
export async function withSplitFamilies(tem: EntityManager, userId: number, ids: readonly number[]): Promise<number[]> {
  const rows = await rowsById(tem, userId, 'id', ids);
  const parents = new Set<number>();
  for (const row of rows) {
    if (row.parent_id !== null) parents.add(row.parent_id);
    else if (row.is_split) parents.add(row.id);
  }
  const parts = await rowsById(tem, userId, 'parent_id', [...parents]);
  return [...new Set([...ids, ...parents, ...parts.map((row) => row.id)])];
}
