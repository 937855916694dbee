import { Alert, Button, Snackbar, type AlertColor } from '@mui/material';
import { useCallback, useState } from 'react';
import type { HistoryEntryDto } from '../../shared/schemas/history';
import { trpc } from '../lib/trpc';
import { recentUndoable, useUndoRedo } from '../lib/undo';

/** Notices auto-dismiss after 3000 ms: successes and information only. */
export const NOTICE_AUTO_DISMISS_MS = 3000;

/** A success that offers Undo stays longer, so there is time to reach the button. */
const UNDO_OFFER_DISMISS_MS = 8000;

/** Errors and warnings explain what to do: they stay until dismissed (Close or Escape). */
export function autoDismissMs(severity: AlertColor): number | null {
  return severity === 'success' || severity === 'info' ? NOTICE_AUTO_DISMISS_MS : null;
}

export interface NoticeMessage {
  text: string;
  severity: AlertColor;
  /** When it was shown (ms): distinguishes repeated notices so each one gets its full time. */
  id: number;
  /** False for a success that is not a change of its own (the result of an undo): no Undo button. */
  offerUndo?: boolean;
}

interface NoticeProps {
  notice: NoticeMessage | null;
  onClose: () => void;
}

/**
 * A message at the bottom of the screen, read out by screen readers; successes vanish after 3 s. A success that
 * follows a change offers to undo it.
 */
export function Notice({ notice, onClose }: NoticeProps) {
  const [undone, setUndone] = useState<{ id: number; text: string; ok: boolean } | null>(null);
  const shown = undone?.id === notice?.id ? undone : null;
  const offer = useUndoOffer(
    notice && !shown && notice.severity === 'success' && notice.offerUndo !== false ? notice.id : null,
  );
  const severity = shown ? (shown.ok ? 'success' : 'error') : notice?.severity;
  return (
    <Snackbar
      key={notice?.id}
      open={Boolean(notice)}
      autoHideDuration={severity ? (offer ? UNDO_OFFER_DISMISS_MS : autoDismissMs(severity)) : null}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {notice && severity ? (
        <Alert
          severity={severity}
          onClose={onClose}
          variant="filled"
          role={severity === 'error' ? 'alert' : 'status'}
          action={
            offer ? (
              <UndoButton entry={offer} onDone={(result) => setUndone({ id: notice.id, ...result })} />
            ) : undefined
          }
        >
          {shown ? shown.text : notice.text}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}

/** The change a success message reports, when it is recent and can be undone (shown as an Undo button). */
function useUndoOffer(shownAt: number | null): HistoryEntryDto | null {
  const latest = trpc.history.list.useQuery({ limit: 5, offset: 0 }, { enabled: shownAt !== null, staleTime: 0 });
  if (shownAt === null || !latest.data) return null;
  return recentUndoable(latest.data.entries, shownAt);
}

function UndoButton({
  entry,
  onDone,
}: {
  entry: HistoryEntryDto;
  onDone: (result: { text: string; ok: boolean }) => void;
}) {
  const { run, busy } = useUndoRedo();
  return (
    <Button color="inherit" size="small" disabled={busy} onClick={() => void run('undo', entry).then(onDone)}>
      Undo
    </Button>
  );
}

/** `const [notice, show, clear] = useNotice()`, then `<Notice notice={notice} onClose={clear} />`. */
export function useNotice(): [
  NoticeMessage | null,
  (text: string, severity?: AlertColor, options?: { offerUndo?: boolean }) => void,
  () => void,
] {
  const [notice, setNotice] = useState<NoticeMessage | null>(null);
  const show = useCallback(
    (text: string, severity: AlertColor = 'success', options: { offerUndo?: boolean } = {}) =>
      setNotice({ text, severity, id: Date.now() + Math.random(), ...options }),
    [],
  );
  const clear = useCallback(() => setNotice(null), []);
  return [notice, show, clear];
}
