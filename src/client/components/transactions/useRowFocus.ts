import { useEffect, type RefObject } from 'react';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import type { FocusRequest } from './useSelection';

/** The element a row is focused by: its checkbox (the row's one Tab stop). */
export const ROW_PRIMARY = 'data-row-primary';

/**
 * Moves focus to a requested row: scrolls the (virtualised) list to it, then focuses its
 * checkbox once the row is rendered (within about a second of frames).
 */
export function useRowFocus(
  request: FocusRequest | null,
  rows: readonly TransactionDto[],
  scrollToIndex: (index: number) => void,
  container: RefObject<HTMLElement | null>,
) {
  useEffect(() => {
    if (!request) return;
    const index = rows.findIndex((row) => row.id === request.id);
    if (index < 0) return;
    scrollToIndex(index);
    let frames = 0;
    let handle = 0;
    const attempt = () => {
      const target = container.current?.querySelector<HTMLElement>(
        `[data-row-id="${request.id}"] [${ROW_PRIMARY}] input, [data-row-id="${request.id}"] input[${ROW_PRIMARY}]`,
      );
      if (target) {
        target.focus();
        return;
      }
      frames += 1;
      if (frames < 60) handle = requestAnimationFrame(attempt);
    };
    handle = requestAnimationFrame(attempt);
    return () => cancelAnimationFrame(handle);
    // Only a new request moves focus; later row changes must not pull it back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [request]);
}
