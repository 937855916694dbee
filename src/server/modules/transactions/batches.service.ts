import type { EntityManager } from '@mikro-orm/better-sqlite';
import type { BatchDto, TransactionDto } from '../../../shared/schemas/transactions';
import { Batch } from './batch.entity';
import { selectRows, selectTransactionsPage, type Page, type PageRequest, type SqlCount } from './transactions.query';
import { findOwned } from '../../db/find-owned';

interface BatchRow {
  id: string;
  upload_date: string;
  file_name: string | null;
  account_name: string | null;
  live_count: SqlCount;
}

/** The user's uploads, newest first; the count is of the batch's transactions now (split parts not counted). */
export async function listBatches(em: EntityManager, userId: number): Promise<BatchDto[]> {
  const rows = await selectRows<BatchRow>(
    em,
    `select b.id, b.upload_date, b.file_name, a.name as account_name,
        (select count(*) from \`transaction\` t where t.batch_id = b.id and t.parent_id is null) as live_count
       from batch b left join account a on a.id = b.account_id
      where b.user_id = ?
      order by b.upload_date desc, b.rowid desc`,
    [userId],
  );
  return rows.map((row) => ({
    batchId: row.id,
    transactionCount: Number(row.live_count),
    uploadDate: row.upload_date,
    account: row.account_name,
    fileName: row.file_name,
  }));
}

async function ownBatch(em: EntityManager, userId: number, batchId: string): Promise<Batch> {
  return findOwned(em, Batch, userId, batchId);
}

/** A batch's transactions (over 100,000 only page by page). */
export async function batchTransactions(em: EntityManager, userId: number, batchId: string, page: PageRequest = {}): Promise<Page<TransactionDto>> {
  await ownBatch(em, userId, batchId);
  return selectTransactionsPage(em, userId, 't.batch_id = ?', [batchId], page, 'page with limit and offset');
}

/** Deletes an upload and all its transactions (split parts included) in one transaction. */
export async function deleteBatch(em: EntityManager, userId: number, batchId: string): Promise<{ message: string; deleted: number }> {
  return em.transactional(async (tem) => {
    const batch = await ownBatch(tem, userId, batchId);
    const ids = await selectRows<{ n: SqlCount }>(tem, 'select count(*) as n from `transaction` where batch_id = ? and user_id = ?', [batchId, userId]);
    const deleted = Number(ids[0]?.n ?? 0);
    // Parts first, then the rest: the foreign keys would cascade, but explicit is clearer.
    await tem.getConnection().execute(
      'delete from `transaction` where user_id = ? and parent_id in (select id from `transaction` where batch_id = ? and user_id = ?)',
      [userId, batchId, userId],
      'run',
      tem.getTransactionContext(),
    );
    await tem.getConnection().execute('delete from `transaction` where user_id = ? and batch_id = ?', [userId, batchId], 'run', tem.getTransactionContext());
    tem.remove(batch);
    await tem.flush();
    return { message: `Batch ${batchId} deleted with ${deleted} transaction${deleted === 1 ? '' : 's'}`, deleted };
  });
}
