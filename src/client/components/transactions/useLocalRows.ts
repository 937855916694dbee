import { useCallback, useMemo, useRef, useState } from 'react';
import type { TransactionDto } from '../../../shared/schemas/transactions';

interface Patch {
  /** The row as the owner had it when the patch was made. */
  base: TransactionDto;
  value: TransactionDto;
}

function sameRow(a: TransactionDto, b: TransactionDto): boolean {
  return (
    a === b ||
    (a.id === b.id &&
      a.postDate === b.postDate &&
      a.description === b.description &&
      a.amount === b.amount &&
      a.account === b.account &&
      a.category === b.category &&
      a.type === b.type &&
      a.isSplit === b.isSplit &&
      a.parentTransactionId === b.parentTransactionId &&
      a.splitNote === b.splitNote)
  );
}

/**
 * The rows the table shows: the owner's list with the table's own changes laid over it
 * (optimistic inline edits, rows answered by the server, deleted rows hidden). A patch is
 * dropped as soon as the owner's row changes (the owner merged or refetched), so fresh
 * data from the owner always wins.
 */
export function useLocalRows(transactions: TransactionDto[]) {
  const [patches, setPatches] = useState<ReadonlyMap<number, Patch>>(() => new Map());
  const [hidden, setHidden] = useState<ReadonlySet<number>>(() => new Set());
  const latest = useRef(transactions);
  latest.current = transactions;

  const rows = useMemo(() => {
    if (patches.size === 0 && hidden.size === 0) return transactions;
    const out: TransactionDto[] = [];
    for (const tx of transactions) {
      if (hidden.has(tx.id)) continue;
      const patch = patches.get(tx.id);
      out.push(patch && sameRow(patch.base, tx) ? patch.value : tx);
    }
    return out;
  }, [transactions, patches, hidden]);

  /** Shows `rows` in place of the owner's rows with the same ids. */
  const patch = useCallback((updated: readonly TransactionDto[]) => {
    if (updated.length === 0) return;
    const owner = new Map<number, TransactionDto>();
    const wanted = new Set(updated.map((row) => row.id));
    for (const tx of latest.current) if (wanted.has(tx.id)) owner.set(tx.id, tx);
    setPatches((current) => {
      const next = new Map(current);
      for (const row of updated) {
        const base = owner.get(row.id);
        if (base) next.set(row.id, { base, value: row });
      }
      return next;
    });
  }, []);

  /** Drops the table's change to one row (a failed inline edit shows the owner's row again). */
  const revert = useCallback((id: number) => {
    setPatches((current) => {
      if (!current.has(id)) return current;
      const next = new Map(current);
      next.delete(id);
      return next;
    });
  }, []);

  const hide = useCallback((ids: readonly number[]) => {
    setHidden((current) => new Set([...current, ...ids]));
  }, []);

  return { rows, patch, revert, hide };
}
