import type { EntityManager } from '@mikro-orm/knex';
import { runSql, selectRows, valuesSql } from '../../db/sql';
import { entryRows, imageOf, type StoredRow } from './history-rows';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Puts the top-level transactions an entry deleted into the trash (their parts come back with them from the
 * entry's row images). Kept beside them: what the import's duplicate check compares.
 */
export async function trashDeletedRows(
  tem: EntityManager,
  userId: number,
  entryId: number,
  rows?: readonly StoredRow[],
): Promise<void> {
  const deletedAt = new Date().toISOString();
  const trashed = (rows ?? (await entryRows(tem, userId, entryId)))
    .filter((row) => row.table === 'transaction' && row.before !== null && row.after === null)
    .map((row) => imageOf(row.before))
    .filter((image) => image.parent_id === null || image.parent_id === undefined);
  for (let i = 0; i < trashed.length; i += 100) {
    const chunk = trashed.slice(i, i + 100);
    await runSql(
      tem,
      `insert into trashed_transaction (user_id, entry_id, transaction_id, account_id, post_date, amount, description, fitid, deleted_at)
       values ${valuesSql('(?, ?, ?, ?, ?, ?, ?, ?, ?)', chunk.length)}`,
      chunk.flatMap((image) => [
        userId,
        entryId,
        image.id,
        image.account_id ?? null,
        image.post_date,
        image.amount,
        image.bank_description ?? image.description,
        image.fitid ?? null,
        deletedAt,
      ]),
    );
    await turn();
  }
}

/** Takes an entry's rows out of the trash (its undo put them back, or they were restored one by one). */
export async function untrash(
  tem: EntityManager,
  userId: number,
  entryId: number,
  transactionIds?: readonly number[],
): Promise<void> {
  if (!transactionIds) {
    await runSql(tem, 'delete from trashed_transaction where user_id = ? and entry_id = ?', [userId, entryId]);
    return;
  }
  for (let i = 0; i < transactionIds.length; i += 500) {
    const chunk = transactionIds.slice(i, i + 500);
    await runSql(
      tem,
      `delete from trashed_transaction where user_id = ? and entry_id = ? and transaction_id in (${chunk.map(() => '?').join(', ')})`,
      [userId, entryId, ...chunk],
    );
  }
}

/**
 * Undoing a restore from the trash puts the rows back in it, under the change that deleted them (whose images
 * bring them back again); redoing it takes them out.
 */
export async function retrashRestored(tem: EntityManager, userId: number, restoreEntryId: number): Promise<void> {
  const restored = (await entryRows(tem, userId, restoreEntryId)).filter(
    (row) => row.table === 'transaction' && row.before === null,
  );
  const byEntry = new Map<number, Set<string>>();
  for (const row of restored) {
    const [deleting] = await selectRows<{ entry_id: number }>(
      tem,
      `select entry_id from history_row where user_id = ? and table_name = 'transaction' and row_id = ? and "after" is null and entry_id < ? order by entry_id desc limit 1`,
      [userId, row.id, restoreEntryId],
    );
    if (deleting) byEntry.set(deleting.entry_id, (byEntry.get(deleting.entry_id) ?? new Set()).add(row.id));
  }
  for (const [entryId, ids] of byEntry) {
    const rows = (await entryRows(tem, userId, entryId)).filter((row) => ids.has(row.id));
    await trashDeletedRows(tem, userId, entryId, rows);
  }
}

/** Redoing a restore from the trash takes its rows out of the trash again. */
export async function untrashRestored(tem: EntityManager, userId: number, restoreEntryId: number): Promise<void> {
  await runSql(
    tem,
    `delete from trashed_transaction where user_id = ? and transaction_id in
      (select cast(row_id as integer) from history_row where user_id = ? and entry_id = ? and table_name = 'transaction' and "before" is null)`,
    [userId, userId, restoreEntryId],
  );
}
