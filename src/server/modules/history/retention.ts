import type { EntityManager } from '@mikro-orm/knex';
import { runSql, selectRows } from '../../db/sql';

/** How long the history and the trash keep what they hold (settings). */
export interface Retention {
  historyDays: number;
  trashDays: number;
}

const DAY_MS = 86_400_000;

/** Deletes for good what has outlived its retention: trashed rows first, then old history entries. */
export async function purgeExpired(em: EntityManager, userId: number, retention: Retention): Promise<void> {
  const now = Date.now();
  const trashBefore = new Date(now - retention.trashDays * DAY_MS).toISOString();
  const expired = await selectRows<{ entry_id: number }>(
    em,
    'select distinct entry_id from trashed_transaction where user_id = ? and deleted_at < ?',
    [userId, trashBefore],
  );
  if (expired.length > 0)
    await emptyTrashOf(
      em,
      userId,
      expired.map((row) => row.entry_id),
    );
  const historyBefore = new Date(now - retention.historyDays * DAY_MS).toISOString();
  // Entries are written in time order: when the oldest is recent enough, none is due.
  const [oldest] = await selectRows<{ created_at: string }>(
    em,
    'select created_at from history_entry where user_id = ? order by id limit 1',
    [userId],
  );
  if (!oldest || oldest.created_at >= historyBefore) return;
  await runSql(
    em,
    'delete from history_row where user_id = ? and entry_id in (select id from history_entry where user_id = ? and created_at < ?)',
    [userId, userId, historyBefore],
  );
  await runSql(em, 'delete from history_entry where user_id = ? and created_at < ?', [userId, historyBefore]);
}

/**
 * Deletes the trashed rows of these entries for good: their images go too, and the entries can no longer be
 * undone (what they deleted cannot come back).
 */
export async function emptyTrashOf(em: EntityManager, userId: number, entryIds: readonly number[]): Promise<number> {
  let deleted = 0;
  for (let i = 0; i < entryIds.length; i += 400) {
    const chunk = entryIds.slice(i, i + 400);
    const marks = chunk.map(() => '?').join(', ');
    deleted += await runSql(em, `delete from trashed_transaction where user_id = ? and entry_id in (${marks})`, [
      userId,
      ...chunk,
    ]);
    await runSql(
      em,
      `delete from history_row where user_id = ? and entry_id in (${marks}) and table_name = 'transaction' and "after" is null`,
      [userId, ...chunk],
    );
    await runSql(em, `update history_entry set state = 'purged' where user_id = ? and id in (${marks})`, [
      userId,
      ...chunk,
    ]);
  }
  return deleted;
}
