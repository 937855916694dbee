import type { EntityManager } from '@mikro-orm/knex';
import { imageText, readImages, type ImagedTable, type RowImage } from '../../db/row-images';
import { selectRows, TRANSACTION_TABLE } from '../../db/sql';
import type { HistoryKind } from '../../../shared/schemas/history';
import { HistoryEntry } from './history.entity';
import { insertHistoryRows, type StoredRow } from './history-rows';
import { trashDeletedRows } from './trash';
import { User } from '../users/user.entity';

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
    const family = await withSplitFamilies(this.tem, this.userId, ids);
    const links = await linksOf(this.tem, this.userId, family);
    await this.touch('transfer', links.transferIds);
    await this.touch('transaction', [...family, ...links.sides]);
  }

  created(table: ImagedTable, ids: readonly (number | string)[]): void {
    for (const id of ids.map(String))
      if (!this.tracked.has(`${table}:${id}`)) this.tracked.set(`${table}:${id}`, { table, id, before: null });
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
        const before = imageText(t.before);
        const now = imageText(after.get(t.id));
        if (before !== now) rows.push({ table, id: t.id, before, after: now });
      }
    }
    if (rows.length === 0) return null;
    const entry = this.tem.create(HistoryEntry, {
      user: this.tem.getReference(User, this.userId),
      kind,
      summary,
      state: 'done',
      rowCount: rows.length,
      batchId: null,
      createdAt: new Date().toISOString(),
    });
    await this.tem.flush();
    await insertHistoryRows(this.tem, this.userId, entry.id, rows);
    await trashDeletedRows(this.tem, this.userId, entry.id);
    return entry.id;
  }
}

/** Records an import: its batch, not an image of every row (undo moves the batch's rows out). */
export async function recordImport(
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

/** The transfer links these transactions are in, and every side of them. */
async function linksOf(
  tem: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<{ transferIds: number[]; sides: number[] }> {
  const transferIds = new Set<number>();
  const sides = new Set<number>();
  for (let i = 0; i < ids.length; i += 400) {
    const chunk = ids.slice(i, i + 400);
    const rows = await selectRows<{ id: number; transfer_id: number }>(
      tem,
      `select t.id, t.transfer_id from ${TRANSACTION_TABLE} t
        where t.user_id = ? and t.transfer_id in (select s.transfer_id from ${TRANSACTION_TABLE} s
          where s.user_id = ? and s.transfer_id is not null and s.id in (${chunk.map(() => '?').join(', ')}))`,
      [userId, userId, ...chunk],
    );
    for (const row of rows) {
      transferIds.add(row.transfer_id);
      sides.add(row.id);
    }
  }
  return { transferIds: [...transferIds], sides: [...sides] };
}

/** The ids with the whole split family of each (a part's parent and siblings, a parent's parts). */
export async function withSplitFamilies(tem: EntityManager, userId: number, ids: readonly number[]): Promise<number[]> {
  const out = new Set(ids);
  for (let i = 0; i < ids.length; i += 400) {
    const chunk = ids.slice(i, i + 400);
    const marks = chunk.map(() => '?').join(', ');
    const rows = await selectRows<{ id: number }>(
      tem,
      `select t.id from ${TRANSACTION_TABLE} t
        where t.user_id = ? and (t.parent_id in (${marks})
           or t.parent_id in (select p.parent_id from ${TRANSACTION_TABLE} p where p.user_id = ? and p.id in (${marks}))
           or t.id in (select p.parent_id from ${TRANSACTION_TABLE} p where p.user_id = ? and p.id in (${marks})))`,
      [userId, ...chunk, userId, ...chunk, userId, ...chunk],
    );
    for (const row of rows) out.add(row.id);
  }
  return [...out];
}
