import { useCallback, useState } from 'react';
import type { SplitDetails, TransactionDto, TransactionType } from '../../../shared/schemas/transactions';
import { useTransactionCache } from '../../lib/transactionCache';
import { isSplitMember } from '../../lib/transactions';
import { refusalMessage, trpc } from '../../lib/trpc';

/** Shows a refused change to the person (the server's reason included). */
export type FailureReporter = (message: string) => void;

/**
 * The table's writes, all through the TanStack Query cache (every list showing a row shows the
 * change): inline category/type edits are optimistic and rolled back when refused (the server's
 * message is shown); rows answered by bulk edit and split replace the cached ones; deleted rows
 * leave every list. Where more changed than the answer says (split parts, a split family's type,
 * totals), the lists are fetched again.
 */
export function useTableActions() {
  const cache = useTransactionCache();
  const update = trpc.transactions.update.useMutation();
  const deleteMany = trpc.transactions.deleteMany.useMutation();
  const [deleting, setDeleting] = useState(false);
  const { mutateAsync: updateRow } = update;
  const { mutateAsync: deleteIds } = deleteMany;

  const changeInline = useCallback(
    (tx: TransactionDto, data: { category?: string | null; type?: TransactionType }, onFail?: FailureReporter) => {
      const before = cache.snapshot();
      cache.put([{ ...tx, ...data }]);
      updateRow({ id: tx.id, data })
        .then((row) => {
          cache.put([row]);
          // Type is shared by a split family: the other rows changed on the server too.
          if (data.type !== undefined && isSplitMember(tx)) void cache.refetch();
          else void cache.refreshTotals();
        })
        .catch((error: unknown) => {
          console.error(`Failed to update transaction ${tx.id}`, error);
          cache.restore(before);
          onFail?.(refusalMessage(error, 'Failed to update transaction'));
        });
    },
    [cache, updateRow],
  );

  const changeCategory = useCallback(
    (tx: TransactionDto, category: string | null, onFail?: FailureReporter) => changeInline(tx, { category }, onFail),
    [changeInline],
  );
  const changeType = useCallback(
    (tx: TransactionDto, type: TransactionType, onFail?: FailureReporter) => changeInline(tx, { type }, onFail),
    [changeInline],
  );

  const bulkUpdated = useCallback(
    (updated: TransactionDto[]) => {
      cache.put(updated);
      if (updated.some(isSplitMember)) void cache.refetch();
      else void cache.refreshTotals();
    },
    [cache],
  );

  const splitSaved = useCallback(
    (details: SplitDetails) => {
      cache.put([details.parentTransaction]);
      // The parts are new rows: every list is fetched again.
      void cache.refetch();
    },
    [cache],
  );

  /**
   * Deletes the rows (and the other sides of their transfers when `withCounterpart`); answers null,
   * or the message to show when the delete failed.
   */
  const deleteRows = useCallback(
    async (selected: TransactionDto[], withCounterpart = false): Promise<string | null> => {
      const ids = selected.map((tx) => tx.id);
      setDeleting(true);
      try {
        await deleteIds({ ids, withCounterpart });
        cache.remove(ids);
        // The other sides changed too (deleted, or unlinked): every list is fetched again.
        if (selected.some((tx) => isSplitMember(tx) || tx.transferId !== null)) void cache.refetch();
        else void cache.refreshTotals();
        return null;
      } catch (error) {
        console.error('Failed to delete transactions', error);
        return refusalMessage(error, 'Failed to delete some transactions. Please try again.');
      } finally {
        setDeleting(false);
      }
    },
    [cache, deleteIds],
  );

  return { changeCategory, changeType, bulkUpdated, splitSaved, deleteRows, deleting };
}
