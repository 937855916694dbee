/** A user's transfers and offered pairs in the export document, and back in on restore. */
import type { EntityManager } from '@mikro-orm/knex';
import type { CandidateStatus, TransferOrigin } from '../../../shared/schemas/transfers';
import type { UserDataDocument } from '../../../shared/schemas/user-data';
import { must } from '../../../shared/must';
import { selectRows, TRANSACTION_TABLE, valuesSql, type SqlTx } from '../../db/sql';
import { pause } from '../../common/pause';
import type { RowSpool } from '../user-data/row-spool';

type Sections = Required<Pick<UserDataDocument, 'transfers' | 'transferCandidates'>>;
type Transfer = Sections['transfers'][number];
type Candidate = Sections['transferCandidates'][number];

export async function exportTransfers(em: EntityManager, userId: number): Promise<Sections> {
  const sides = await selectRows<{ transfer_id: number; id: number; origin: string; created_at: string }>(
    em,
    `select t.transfer_id, t.id, tr.origin, tr.created_at from ${TRANSACTION_TABLE} t join transfer tr on tr.id = t.transfer_id
      where t.user_id = ? and t.transfer_id is not null order by t.transfer_id, t.id`,
    [userId],
  );
  const transfers: Sections['transfers'] = [];
  for (let i = 0; i + 1 < sides.length; i += 2) {
    const a = must(sides[i], 'i < length');
    const b = must(sides[i + 1], 'i + 1 < length');
    transfers.push({
      id: a.transfer_id,
      transactionIds: [a.id, b.id],
      origin: a.origin as TransferOrigin,
      createdAt: a.created_at,
    });
  }
  const candidates = await selectRows<{
    first_id: number;
    second_id: number;
    score: number;
    reason: string;
    status: string;
    created_at: string;
  }>(
    em,
    'select first_id, second_id, score, reason, status, created_at from transfer_candidate where user_id = ? order by id',
    [userId],
  );
  return {
    transfers,
    transferCandidates: candidates.map((c) => ({
      transactionIds: [c.first_id, c.second_id],
      score: c.score,
      reason: c.reason,
      status: c.status as CandidateStatus,
      createdAt: c.created_at,
    })),
  };
}

/** Rows read back from a spool at a time; offered pairs are written a statement for as many. */
const ROWS_A_STATEMENT = 500;

/**
 * Restores the links and offers (the transactions are in by now, under new ids), read back from the restore's
 * spools in the document's order.
 */
export async function restoreTransfers(
  db: SqlTx,
  userId: number,
  spools: { transfers: RowSpool; transferCandidates: RowSpool },
  transactionIds: ReadonlyMap<number, number>,
  now: string,
): Promise<void> {
  const newId = (id: number) => must(transactionIds.get(id), 'a transfer names a transaction of the document');
  for await (const slice of spools.transfers.slices<Transfer>(ROWS_A_STATEMENT)) {
    for (const transfer of slice) {
      await pause();
      const id = await db.insertId('insert into transfer (user_id, origin, created_at) values (?, ?, ?)', [
        userId,
        transfer.origin,
        transfer.createdAt ?? now,
      ]);
      const [a, b] = transfer.transactionIds.map(newId);
      await db.run(`update ${TRANSACTION_TABLE} set transfer_id = ? where user_id = ? and id in (?, ?)`, [
        id,
        userId,
        a,
        b,
      ]);
    }
  }
  // A pair offered twice is one offer: the first is kept.
  for await (const slice of spools.transferCandidates.slices<Candidate>(ROWS_A_STATEMENT)) {
    await pause();
    const params: unknown[] = [];
    for (const candidate of slice) {
      const [a, b] = candidate.transactionIds.map(newId).sort((x, y) => x - y) as [number, number];
      params.push(userId, a, b, candidate.score, candidate.reason, candidate.status, candidate.createdAt ?? now);
    }
    await db.run(
      `insert into transfer_candidate (user_id, first_id, second_id, score, reason, status, created_at) values ${valuesSql(
        '(?, ?, ?, ?, ?, ?, ?)',
        slice.length,
      )} on conflict (first_id, second_id) do nothing`,
      params,
    );
  }
}
