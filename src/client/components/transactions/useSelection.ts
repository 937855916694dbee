import { useCallback, useEffect, useRef, useState } from 'react';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { recallFromEntry, rememberInEntry } from '../../lib/entryMemory';
import { isTableMemory, restorableSelection } from './tableState';

/** The table's selected row ids, with the operations the table and its selection bar need. */
export function useRowSelection(rows: readonly TransactionDto[]) {
  const [selection, setSelection] = useState<ReadonlySet<number>>(() => new Set());
  const latestRows = useRef(rows);
  // eslint-disable-next-line react-hooks/refs -- latest-value ref read by stable callbacks; written before any of them can run
  latestRows.current = rows;

  const toggle = useCallback((id: number) => {
    setSelection((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  }, []);
  const toggleAll = useCallback(() => {
    setSelection((current) => {
      const all = latestRows.current;
      const every = all.length > 0 && all.every((tx) => current.has(tx.id));
      return every ? new Set() : new Set(all.map((tx) => tx.id));
    });
  }, []);
  const clear = useCallback(() => setSelection(new Set()), []);
  return { selection, setSelection, toggle, toggleAll, clear };
}

/** A request to move focus to a row (it may first need scrolling into view); `nonce` repeats it. */
export interface FocusRequest {
  id: number;
  nonce: number;
}

/**
 * Back from Edit Transaction returns to the row that was edited with the selection kept: before
 * leaving, `remember` stores both in this history entry under `key`; when the table is shown
 * again (same entry) and the rows are back, the selection is restored and focus requested.
 */
export function useTableMemory(key: string, rows: readonly TransactionDto[], restore: (ids: Set<number>) => void) {
  const storageKey = `table.${key}`;
  const [pending, setPending] = useState(() => {
    const memory = recallFromEntry<unknown>(storageKey);
    return isTableMemory(memory) ? memory : null;
  });
  const [focusRequest, setFocusRequest] = useState<FocusRequest | null>(null);

  useEffect(() => {
    if (!pending || rows.length === 0) return;
    const ids = restorableSelection(pending, rows);
    if (!ids) return;
    // eslint-disable-next-line react-hooks/set-state-in-effect -- a selection to restore waits for the rows it names; once they load it is applied once
    setPending(null);
    restore(ids);
    if (pending.focusId !== null && rows.some((row) => row.id === pending.focusId)) {
      setFocusRequest({ id: pending.focusId, nonce: Date.now() });
    }
  }, [pending, rows, restore]);

  const remember = useCallback(
    (selected: Iterable<number>, focusId: number | null) =>
      rememberInEntry(storageKey, { selected: [...selected], focusId }),
    [storageKey],
  );
  const requestFocus = useCallback((id: number) => setFocusRequest({ id, nonce: Date.now() + Math.random() }), []);
  return { remember, focusRequest, requestFocus };
}
