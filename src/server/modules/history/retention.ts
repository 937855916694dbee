import type { EntityManager } from '@mikro-orm/knex';
import { runSql, selectRows, sqlTx, withUserScope } from '../../db/sql';

/** How long the history and the trash keep what they hold (settings). */
export interface Retention {
  historyDays: number;
  trashDays: number;
}

/** Lock space of a user's undo, redo and purge, so two of them never interleave (PostgreSQL; SQLite has one writer). */
export const HISTORY_LOCK = 0x48495354;

const DAY_MS = 86_400_000;
/** Entries one slice of the purge looks at. */
const SLICE_ENTRIES = 100;
/** History rows one statement of the purge deletes: one deleted import may hold 100,000 row images. */
const SLICE_ROWS = 2000;

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** Runs one slice of the purge in its own transaction. */
export type InSlice = <T>(work: (tem: EntityManager) => Promise<T>) => Promise<T>;

export interface Purged {
  /** Trashed transactions deleted for good. */
  trashed: number;
  /** History entries dropped. */
  entries: number;
}

/**
 * Deletes for good what has outlived its retention: the trash first (transactions deleted longer ago than the
 * trash's period, with their row images: the changes that deleted them can no longer be undone), then the history
 * entries older than the history's period, except those whose deleted rows still wait in the trash. Everything
 * goes in bounded slices, each its own transaction (`inSlice`), with a turn of the event loop after each, so a
 * large purge never holds the database or the event loop for long.
 */
export async function purgeExpired(
  em: EntityManager,
  userId: number,
  retention: Retention,
  inSlice: InSlice = (work) => em.transactional(work),
  now = Date.now(),
): Promise<Purged> {
  const trashed = await purgeTrash(userId, new Date(now - retention.trashDays * DAY_MS).toISOString(), inSlice);
  const entries = await purgeHistory(userId, new Date(now - retention.historyDays * DAY_MS).toISOString(), inSlice);
  return { trashed, entries };
}

/** Each slice under the user's history lock: an undo or redo of an entry never meets it half purged. */
function locked(userId: number, inSlice: InSlice): InSlice {
  return (work) =>
    inSlice(async (tem) => {
      await (await sqlTx(tem)).lock(HISTORY_LOCK, userId);
      return work(tem);
    });
}

async function purgeTrash(userId: number, before: string, inSlice: InSlice): Promise<number> {
  const slice = locked(userId, inSlice);
  let deleted = 0;
  for (;;) {
    // The trash and the entries' state in one transaction: from then on nothing can bring these rows back.
    const emptied = await slice(async (tem) => {
      const entries = (
        await selectRows<{ entry_id: number }>(
          tem,
          'select distinct entry_id from trashed_transaction where user_id = ? and deleted_at < ? limit ?',
          [userId, before, SLICE_ENTRIES],
        )
      ).map((row) => row.entry_id);
      if (entries.length > 0) deleted += await markEmptied(tem, userId, entries);
      return entries;
    });
    if (emptied.length === 0) return deleted;
    await turn();
    await deleteImagesOf(userId, emptied, slice);
  }
}

async function purgeHistory(userId: number, before: string, inSlice: InSlice): Promise<number> {
  const slice = locked(userId, inSlice);
  let dropped = 0;
  let after = 0;
  for (;;) {
    // Entries are written in time order: the expired ones are the oldest, and the first young one ends the search
    // (a history of a million young entries costs one short read).
    const oldest = await inSlice((tem) =>
      selectRows<{ id: number; created_at: string }>(
        tem,
        'select id, created_at from history_entry where user_id = ? and id > ? order by id limit ?',
        [userId, after, SLICE_ENTRIES],
      ),
    );
    const young = oldest.findIndex((entry) => entry.created_at >= before);
    const expired = young === -1 ? oldest : oldest.slice(0, young);
    const last = expired.at(-1);
    if (!last) return dropped;
    after = last.id;
    const ids = expired.map((entry) => entry.id);
    const held = await inSlice((tem) =>
      selectRows<{ entry_id: number }>(
        tem,
        `select distinct entry_id from trashed_transaction where user_id = ? and entry_id in (${marks(ids.length)})`,
        [userId, ...ids],
      ),
    );
    // An entry whose deleted rows are still in the trash stays until the trash lets them go (its images are theirs).
    const holding = new Set(held.map((row) => row.entry_id));
    const dropping = ids.filter((id) => !holding.has(id));
    if (dropping.length > 0) {
      await deleteRowsOf(userId, dropping, slice, '');
      dropped += await slice((tem) =>
        runSql(tem, `delete from history_entry where user_id = ? and id in (${marks(dropping.length)})`, [
          userId,
          ...dropping,
        ]),
      );
    }
    await turn();
    if (young !== -1) return dropped;
  }
}

/** Deletes the trashed rows of these entries and marks the entries purged (they can no longer be undone). */
async function markEmptied(tem: EntityManager, userId: number, entryIds: readonly number[]): Promise<number> {
  const deleted = await runSql(
    tem,
    `delete from trashed_transaction where user_id = ? and entry_id in (${marks(entryIds.length)})`,
    [userId, ...entryIds],
  );
  await runSql(
    tem,
    `update history_entry set state = 'purged' where user_id = ? and id in (${marks(entryIds.length)})`,
    [userId, ...entryIds],
  );
  return deleted;
}

/** The row images of deleted transactions these entries held. */
function deleteImagesOf(userId: number, entryIds: readonly number[], slice: InSlice): Promise<void> {
  return deleteRowsOf(userId, entryIds, slice, ` and table_name = 'transaction' and "after" is null`);
}

/** Deletes the history rows of these entries (those `where` keeps), SLICE_ROWS a statement, a turn between. */
async function deleteRowsOf(userId: number, entryIds: readonly number[], slice: InSlice, where: string): Promise<void> {
  for (;;) {
    const deleted = await slice((tem) =>
      runSql(
        tem,
        `delete from history_row where id in (select id from history_row
          where user_id = ? and entry_id in (${marks(entryIds.length)})${where} limit ?)`,
        [userId, ...entryIds, SLICE_ROWS],
      ),
    );
    if (deleted < SLICE_ROWS) return;
    await turn();
  }
}

interface RetentionColumns {
  history_retention_days: number | null;
  trash_retention_days: number | null;
}

/** A user's own periods where they set them, else the server's. */
function periodsOf(row: RetentionColumns | undefined, server: Retention): Retention {
  return {
    historyDays: row?.history_retention_days ?? server.historyDays,
    trashDays: row?.trash_retention_days ?? server.trashDays,
  };
}

/** The periods that apply to this user: their own settings, or the server's (`server`). */
export async function userRetention(em: EntityManager, userId: number, server: Retention): Promise<Retention> {
  const [row] = await selectRows<RetentionColumns>(
    em,
    'select history_retention_days, trash_retention_days from "user" where id = ?',
    [userId],
  );
  return periodsOf(row, server);
}

/**
 * Purges every user's expired history and trash (the hourly job), by each user's own periods or the server's,
 * each user's slices in transactions scoped to that user. A user whose purge fails is reported and the others go
 * on. Answers what was deleted in all.
 */
export async function purgeAllExpired(
  em: EntityManager,
  server: Retention,
  onError: (userId: number, error: unknown) => void,
): Promise<Purged> {
  const users = await selectRows<RetentionColumns & { id: number }>(
    em,
    'select id, history_retention_days, trash_retention_days from "user" order by id',
  );
  const total: Purged = { trashed: 0, entries: 0 };
  for (const user of users) {
    const { id } = user;
    try {
      const inSlice: InSlice = (work) => withUserScope(em.fork(), id, (sem) => sem.transactional(work));
      const purged = await purgeExpired(em, id, periodsOf(user, server), inSlice);
      total.trashed += purged.trashed;
      total.entries += purged.entries;
    } catch (error) {
      onError(id, error);
    }
    await turn();
  }
  return total;
}

/**
 * Deletes the trashed rows of these entries for good: their images go too, and the entries can no longer be
 * undone (what they deleted cannot come back).
 */
export async function emptyTrashOf(em: EntityManager, userId: number, entryIds: readonly number[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < entryIds.length; i += 400) {
    const chunk = entryIds.slice(i, i + 400);
    deleted += await markEmptied(em, userId, chunk);
    await runSql(
      em,
      `delete from history_row where user_id = ? and entry_id in (${marks(chunk.length)}) and table_name = 'transaction' and "after" is null`,
      [userId, ...chunk],
    );
  }
  return deleted;
}

function marks(n: number): string {
  return Array.from({ length: n }, () => '?').join(', ');
}
