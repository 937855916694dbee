import { useState } from 'react';
import type { RegisterRow } from '../../../shared/schemas/register';
import type { UpdateTransactionPatch } from '../../../shared/schemas/transactions';
import { refusalMessage, trpc } from '../../lib/trpc';

/** A change to one row, waiting for the person to confirm it (a reconciled row's amount or date). */
export interface PendingEdit {
  row: RegisterRow;
  patch: UpdateTransactionPatch;
}

/** The register page the edits write into: its query input. */
interface RegisterInput {
  id: number;
  startDate?: string;
  endDate?: string;
}

/**
 * Edits from the register: shown at once (the cached page changes first), sent, and put back
 * with the server's reason when it refuses. A reconciled row's amount or date waits for a yes.
 */
export function useRegisterEdits(input: RegisterInput) {
  const utils = trpc.useUtils();
  const update = trpc.transactions.update.useMutation();
  const [message, setMessage] = useState<string | null>(null);
  const [pending, setPending] = useState<PendingEdit | null>(null);

  async function send(row: RegisterRow, patch: UpdateTransactionPatch, confirmReconciled: boolean) {
    const before = utils.accounts.register.getData(input);
    utils.accounts.register.setData(input, (rows) => rows?.map((r) => (r.id === row.id ? { ...r, ...patch } : r)));
    setMessage(null);
    try {
      await update.mutateAsync({ id: row.id, data: patch, confirmReconciled });
      await Promise.all([utils.accounts.register.invalidate(), utils.accounts.list.invalidate()]);
      return true;
    } catch (error) {
      utils.accounts.register.setData(input, before);
      setMessage(refusalMessage(error, 'The change was not saved'));
      return false;
    }
  }

  /** Saves, or asks first when the row is reconciled and its amount or date would move. */
  function save(row: RegisterRow, patch: UpdateTransactionPatch): Promise<boolean> {
    const moves =
      (patch.amount !== undefined && patch.amount !== row.amount) ||
      (patch.postDate !== undefined && patch.postDate !== row.postDate);
    if (row.cleared === 'reconciled' && moves) {
      setPending({ row, patch });
      return Promise.resolve(true);
    }
    return send(row, patch, false);
  }

  return {
    save,
    message,
    clearMessage: () => setMessage(null),
    pending,
    confirm: async () => {
      if (!pending) return;
      setPending(null);
      await send(pending.row, pending.patch, true);
    },
    cancel: () => setPending(null),
  };
}

export type RegisterEdits = ReturnType<typeof useRegisterEdits>;
