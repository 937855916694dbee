import { Alert } from '@mui/material';

/** What a section's last action came to: shown under it until closed or replaced. */
export type Outcome = { severity: 'success' | 'error'; text: string } | null;

/** A section's outcome: an error is announced at once (alert), a success politely (status). */
export function OutcomeAlert({ outcome, onClose }: { outcome: Outcome; onClose: () => void }) {
  if (!outcome) return null;
  return (
    <Alert
      severity={outcome.severity}
      role={outcome.severity === 'error' ? 'alert' : 'status'}
      onClose={onClose}
      sx={{ mt: 2 }}
    >
      {outcome.text}
    </Alert>
  );
}
