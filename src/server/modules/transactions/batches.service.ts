import { matchSchedulesAfterWrite } from '../schedules/schedule-runs';
import type { EntityManager } from '@mikro-orm/knex';
import { withCheckpointAfter } from '../../db/wal-checkpoint';
import type { BatchDto, TransactionDto } from '../../../shared/schemas/transactions';
import { findOwned } from '../../db/find-owned';
import { Batch } from './batch.entity';
import { readsOf, type Page } from '../../db/transaction-reads';
import { batchRowIds, deleteBatchRows, selectBatchList } from '../../db/transaction-writes';
import { ChangeRecorder } from '../history/recorder';
import { unlinkBatch } from '../transfers/transfer-links';

/** The user's uploads, newest first; the count is of the batch's transactions now (split parts not counted). */
export async function listBatches(em: EntityManager, userId: number): Promise<BatchDto[]> {
  const rows = await selectBatchList(em, userId);
  return rows.map((row) => ({
    batchId: row.id,
    transactionCount: row.live_count,
    uploadDate: row.upload_date,
    account: row.account_name,
    fileName: row.file_name,
  }));
}

async function ownBatch(em: EntityManager, userId: number, batchId: string): Promise<Batch> {
  return findOwned(em, Batch, userId, batchId);
}

/** A batch's transactions (over 100,000 only page by page). */
export async function batchTransactions(
  em: EntityManager,
  userId: number,
  batchId: string,
  page: { limit?: number; offset?: number } = {},
): Promise<Page<TransactionDto>> {
  await ownBatch(em, userId, batchId);
  return readsOf(em).page(userId, { batchId }, { ...page, narrow: 'page with limit and offset' });
}

/**
 * Deletes an upload and all its transactions (split parts included) in one transaction; the other
 * sides of its rows' transfers stay, unlinked.
 */
export async function deleteBatch(
  em: EntityManager,
  userId: number,
  batchId: string,
  today: string,
): Promise<{ message: string; deleted: number }> {
  // A batch may hold a hundred thousand rows: see withCheckpointAfter.
  const result = await withCheckpointAfter(em, () =>
    em.transactional(async (tem) => {
      const batch = await ownBatch(tem, userId, batchId);
      const recorder = new ChangeRecorder(tem, userId);
      await recorder.touch('batch', [batchId]);
      await recorder.touchDeleteCascades(await recorder.touchTransactions(await batchRowIds(tem, userId, batchId)));
      await unlinkBatch(tem, userId, batchId);
      const deleted = await deleteBatchRows(tem, userId, batchId);
      tem.remove(batch);
      await tem.flush();
      const what = batch.fileName ? `the import of ${batch.fileName}` : 'an import';
      await recorder.finish('batch-delete', `Deleted ${what} with ${deleted} transaction${deleted === 1 ? '' : 's'}`);
      return { message: `Batch ${batchId} deleted with ${deleted} transaction${deleted === 1 ? '' : 's'}`, deleted };
    }),
  );
  await matchSchedulesAfterWrite(em, userId, today);
  return result;
}
