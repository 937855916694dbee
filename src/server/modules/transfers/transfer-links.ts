/**
 * What the other services do to keep transfers whole: a link has exactly two sides in two
 * accounts with opposite amounts. Deleting a side unlinks the other (or deletes it too when asked),
 * an amount edit follows to the other side, and a change that would put both sides in one account
 * is refused. Imports nothing from the transactions service, which calls these.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import { runSql, selectRows, TRANSACTION_TABLE } from '../../db/sql';

/** Placeholders for a list of values. */
function marks(values: readonly unknown[]): string {
  return values.map(() => '?').join(', ');
}

/** Statements of a few hundred parameters at most, well inside both databases' limits. */
const SLICE = 500;

function slices<T>(values: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < values.length; i += SLICE) out.push(values.slice(i, i + SLICE));
  return out;
}

/** The other side of each linked row among `ids` (rows not linked are left out). */
export async function counterpartsOf(
  em: EntityManager,
  userId: number,
  ids: readonly number[],
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  for (const part of slices(ids)) {
    const rows = await selectRows<{ id: number; other: number }>(
      em,
      `select t.id, o.id as other from ${TRANSACTION_TABLE} t
         join ${TRANSACTION_TABLE} o on o.transfer_id = t.transfer_id and o.id <> t.id
        where t.user_id = ? and t.transfer_id is not null and t.id in (${marks(part)})`,
      [userId, ...part],
    );
    for (const row of rows) out.set(row.id, row.other);
  }
  return out;
}

/** Ends the links of these rows (both sides stay); answers how many links ended. */
export async function unlinkRows(em: EntityManager, userId: number, ids: readonly number[]): Promise<number> {
  let ended = 0;
  for (const part of slices(ids)) {
    const transferIds = await selectRows<{ transfer_id: number }>(
      em,
      `select distinct transfer_id from ${TRANSACTION_TABLE} where user_id = ? and transfer_id is not null and id in (${marks(part)})`,
      [userId, ...part],
    );
    ended += await endTransfers(
      em,
      userId,
      transferIds.map((row) => row.transfer_id),
    );
  }
  return ended;
}

/** Ends these links: both sides are unlinked, the links deleted. */
export async function endTransfers(em: EntityManager, userId: number, transferIds: readonly number[]): Promise<number> {
  let ended = 0;
  for (const part of slices(transferIds)) {
    if (part.length === 0) continue;
    await runSql(
      em,
      `update ${TRANSACTION_TABLE} set transfer_id = null where user_id = ? and transfer_id in (${marks(part)})`,
      [userId, ...part],
    );
    ended += await runSql(em, `delete from transfer where user_id = ? and id in (${marks(part)})`, [userId, ...part]);
  }
  return ended;
}

/** Ends the links of a batch's rows before the batch is deleted: the other sides stay, unlinked. */
export async function unlinkBatch(em: EntityManager, userId: number, batchId: string): Promise<number> {
  const transferIds = await selectRows<{ transfer_id: number }>(
    em,
    `select transfer_id from ${TRANSACTION_TABLE} where user_id = ? and batch_id = ? and transfer_id is not null`,
    [userId, batchId],
  );
  return endTransfers(
    em,
    userId,
    transferIds.map((row) => row.transfer_id),
  );
}

/** Sets the other side of a linked row to the opposite of its new amount (each side keeps its own date). */
export async function followAmount(em: EntityManager, userId: number, id: number, amount: number): Promise<void> {
  // Only a side in the same currency follows: across currencies each side keeps its own amount.
  await runSql(
    em,
    `update ${TRANSACTION_TABLE} set amount = ?
      where user_id = ? and id = (select o.id from ${TRANSACTION_TABLE} t
        join ${TRANSACTION_TABLE} o on o.transfer_id = t.transfer_id and o.id <> t.id
        join account ta on ta.id = t.account_id join account oa on oa.id = o.account_id
       where t.user_id = ? and t.id = ? and ta.currency = oa.currency)`,
    [-amount, userId, userId, id],
  );
}

/**
 * Refuses (409, nothing changed: the caller's transaction rolls back) when a change left a link of
 * these rows with both sides in one account or a side without an account.
 */
export async function refuseBrokenLinks(em: EntityManager, userId: number, ids: readonly number[]): Promise<void> {
  for (const part of slices(ids)) {
    const [broken] = await selectRows<{ id: number; other: number }>(
      em,
      `select t.id, o.id as other from ${TRANSACTION_TABLE} t
         join ${TRANSACTION_TABLE} o on o.transfer_id = t.transfer_id and o.id <> t.id
        where t.user_id = ? and t.transfer_id is not null and t.id in (${marks(part)})
          and (t.account_id is null or o.account_id is null or t.account_id = o.account_id)
        limit 1`,
      [userId, ...part],
    );
    if (broken) {
      throw new AppError(
        'CONFLICT',
        `Transaction ${broken.id} is linked as a transfer to transaction ${broken.other}: both sides must stay in two different accounts; unlink them first`,
        { transactionId: broken.id, counterpartId: broken.other },
      );
    }
  }
}
