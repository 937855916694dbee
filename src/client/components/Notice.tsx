import { Alert, Snackbar, type AlertColor } from '@mui/material';
import { useCallback, useState } from 'react';

/** Notices auto-dismiss after 3000 ms: successes and information only. */
export const NOTICE_AUTO_DISMISS_MS = 3000;

/** Errors and warnings explain what to do: they stay until dismissed (Close or Escape). */
export function autoDismissMs(severity: AlertColor): number | null {
  return severity === 'success' || severity === 'info' ? NOTICE_AUTO_DISMISS_MS : null;
}

export interface NoticeMessage {
  text: string;
  severity: AlertColor;
  /** Distinguishes repeated notices so each one gets its full 3000 ms. */
  id: number;
}

interface NoticeProps {
  notice: NoticeMessage | null;
  onClose: () => void;
}

/** A message at the bottom of the screen, read out by screen readers; successes vanish after 3 s. */
export function Notice({ notice, onClose }: NoticeProps) {
  return (
    <Snackbar
      key={notice?.id}
      open={Boolean(notice)}
      autoHideDuration={notice ? autoDismissMs(notice.severity) : null}
      onClose={(_event, reason) => {
        if (reason !== 'clickaway') onClose();
      }}
      anchorOrigin={{ vertical: 'bottom', horizontal: 'center' }}
    >
      {notice ? (
        <Alert
          severity={notice.severity}
          onClose={onClose}
          variant="filled"
          role={notice.severity === 'error' ? 'alert' : 'status'}
        >
          {notice.text}
        </Alert>
      ) : undefined}
    </Snackbar>
  );
}

/** `const [notice, show, clear] = useNotice()`, then `<Notice notice={notice} onClose={clear} />`. */
export function useNotice(): [NoticeMessage | null, (text: string, severity?: AlertColor) => void, () => void] {
  const [notice, setNotice] = useState<NoticeMessage | null>(null);
  const show = useCallback(
    (text: string, severity: AlertColor = 'success') => setNotice({ text, severity, id: Date.now() + Math.random() }),
    [],
  );
  const clear = useCallback(() => setNotice(null), []);
  return [notice, show, clear];
}
