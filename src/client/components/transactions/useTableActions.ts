import { useCallback, useRef, useState } from 'react';
import type { SplitDetails, TransactionDto, TransactionType } from '../../../shared/schemas/transactions';
import { isSplitMember } from '../../lib/transactions';
import { refusalMessage, trpc } from '../../lib/trpc';
import { useLocalRows } from './useLocalRows';

export interface TableCallbacks {
  onTransactionsUpdated?: (updated: TransactionDto[]) => void;
  onTransactionsDeleted?: (ids: number[]) => void;
  onSplitChanged?: () => void;
}

/** Shows a refused change to the person (the server's reason included). */
export type FailureReporter = (message: string) => void;

/**
 * The table's writes: inline category/type edits (optimistic; a refusal shows the server's
 * message and the row its stored value again), rows answered by bulk edit and split, and
 * deleting the selected rows. Every change is shown at once and reported to the owner so it
 * can merge by id.
 */
export function useTableActions(transactions: TransactionDto[], callbacks: TableCallbacks) {
  const { rows, patch, revert, hide } = useLocalRows(transactions);
  const utils = trpc.useUtils();
  const latest = useRef(callbacks);
  latest.current = callbacks;
  const [deleting, setDeleting] = useState(false);

  const applyUpdates = useCallback(
    (updated: TransactionDto[]) => {
      patch(updated);
      latest.current.onTransactionsUpdated?.(updated);
    },
    [patch],
  );

  const changeInline = useCallback(
    (tx: TransactionDto, data: { category?: string | null; type?: TransactionType }, onFail?: FailureReporter) => {
      patch([{ ...tx, ...data }]);
      utils.client.transactions.update
        .mutate({ id: tx.id, data })
        .then((row) => {
          applyUpdates([row]);
          // Type is shared by a split family: the other rows changed on the server too.
          if (data.type !== undefined && isSplitMember(tx)) latest.current.onSplitChanged?.();
        })
        .catch((error: unknown) => {
          console.error(`Failed to update transaction ${tx.id}`, error);
          revert(tx.id);
          onFail?.(refusalMessage(error, 'Failed to update transaction'));
        });
    },
    [patch, revert, applyUpdates, utils],
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
      applyUpdates(updated);
      if (updated.some(isSplitMember)) latest.current.onSplitChanged?.();
    },
    [applyUpdates],
  );

  const splitSaved = useCallback(
    (details: SplitDetails) => {
      applyUpdates([details.parentTransaction]);
      latest.current.onSplitChanged?.();
    },
    [applyUpdates],
  );

  /** Deletes the rows; answers null, or the message to show when the delete failed. */
  const deleteRows = useCallback(
    async (selected: TransactionDto[]): Promise<string | null> => {
      const ids = selected.map((tx) => tx.id);
      setDeleting(true);
      try {
        await utils.client.transactions.deleteMany.mutate({ ids });
        hide(ids);
        latest.current.onTransactionsDeleted?.(ids);
        if (selected.some(isSplitMember)) latest.current.onSplitChanged?.();
        return null;
      } catch (error) {
        console.error('Failed to delete transactions', error);
        return refusalMessage(error, 'Failed to delete some transactions. Please try again.');
      } finally {
        setDeleting(false);
      }
    },
    [hide, utils],
  );

  return { rows, changeCategory, changeType, bulkUpdated, splitSaved, deleteRows, deleting };
}
