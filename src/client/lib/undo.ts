import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { HistoryEntryDto } from '../../shared/schemas/history';
import { refusalMessage, trpc } from './trpc';

/** How recent a change must be for a success message to offer undoing it. */
const UNDO_OFFER_MS = 15_000;

/** The newest change that can still be undone, and the oldest undone one after it (what redo applies). */
export function undoRedoTargets(entries: readonly HistoryEntryDto[]): {
  undo: HistoryEntryDto | null;
  redo: HistoryEntryDto | null;
} {
  const newestDone = entries.findIndex((entry) => entry.state === 'done');
  const undo = newestDone >= 0 && entries[newestDone]?.undoable ? (entries[newestDone] ?? null) : null;
  const undoneAfter = (newestDone >= 0 ? entries.slice(0, newestDone) : entries).filter(
    (entry) => entry.state === 'undone' && entry.undoable,
  );
  return { undo, redo: undoneAfter.at(-1) ?? null };
}

/** A change made at or after `since` (ms) that can be undone: what a success message offers to undo. */
export function recentUndoable(entries: readonly HistoryEntryDto[], since: number): HistoryEntryDto | null {
  const { undo } = undoRedoTargets(entries);
  return undo && Date.parse(undo.createdAt) >= since - UNDO_OFFER_MS ? undo : null;
}

/**
 * Undo and redo of the latest changes, as Ctrl+Z and the success messages offer them: each answers the message
 * to show. Every screen's data is fetched again afterwards (a change may touch any of them).
 */
export function useUndoRedo() {
  const utils = trpc.useUtils();
  const queryClient = useQueryClient();
  const undo = trpc.history.undo.useMutation();
  const redo = trpc.history.redo.useMutation();
  const [busy, setBusy] = useState(false);

  const run = useCallback(
    async (pick: 'undo' | 'redo', entry?: HistoryEntryDto): Promise<{ text: string; ok: boolean }> => {
      setBusy(true);
      try {
        const target =
          entry ?? undoRedoTargets((await utils.history.list.fetch({ limit: 50, offset: 0 })).entries)[pick];
        if (!target) return { text: pick === 'undo' ? 'Nothing to undo' : 'Nothing to redo', ok: false };
        const result = await (pick === 'undo' ? undo : redo).mutateAsync({ id: target.id });
        await queryClient.invalidateQueries();
        return { text: result.message, ok: true };
      } catch (error) {
        return { text: refusalMessage(error, pick === 'undo' ? 'Could not undo' : 'Could not redo'), ok: false };
      } finally {
        setBusy(false);
      }
    },
    [utils, queryClient, undo, redo],
  );
  return { run, busy };
}
