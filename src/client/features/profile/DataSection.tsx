import { Button, Paper, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { FileChooserButton } from '../../components/FileChooserButton';
import { OutcomeAlert, type Outcome } from '../../components/OutcomeAlert';
import { useAuth } from '../../lib/auth';
import { authFetch } from '../../lib/authFetch';
import { downloadWithSession } from '../../lib/download';
import { trpc } from '../../lib/trpc';

/** The server's text of a refused call: `error` or `message` of its JSON body. */
async function answerText(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: unknown; message?: unknown };
    if (typeof body.message === 'string' && body.message && res.ok) return body.message;
    if (typeof body.error === 'string' && body.error) return body.error;
    if (typeof body.message === 'string') return body.message;
  } catch {
    // Not JSON: fall through to the generic text.
  }
  return '';
}

/**
 * "Download all my data" (GET /api/export as a file) and "Restore from a file" (POST /api/import,
 * into an account that has no data yet; the server's reason is shown when it refuses).
 */
export function DataSection() {
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [restoring, setRestoring] = useState(false);
  const utils = trpc.useUtils();
  const { updateUser } = useAuth();

  async function restore(file: File) {
    setOutcome(null);
    setRestoring(true);
    try {
      const res = await authFetch('/api/import', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: await file.text(),
      });
      const text = await answerText(res);
      if (res.ok) {
        setOutcome({ severity: 'success', text: text || 'Your data was restored' });
        await utils.invalidate();
        // A restore brings the document's home currency with it.
        updateUser(await utils.auth.me.fetch());
      } else {
        setOutcome({ severity: 'error', text: text ? `Failed to restore: ${text}` : 'Failed to restore' });
      }
    } catch {
      setOutcome({ severity: 'error', text: 'Failed to restore: the server could not be reached' });
    } finally {
      setRestoring(false);
    }
  }

  return (
    <Paper component="section" aria-labelledby="data-heading" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <Typography id="data-heading" variant="h2" gutterBottom>
        Your data
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Download everything (accounts, categories, transactions with splits, budgets, envelopes) as one JSON file. A
        file can be restored into an account that has no data yet.
      </Typography>
      <Stack direction="row" sx={{ gap: 1, flexWrap: 'wrap', mt: 2 }}>
        <Button variant="outlined" onClick={() => void downloadWithSession('/api/export')}>
          Download all my data
        </Button>
        <FileChooserButton
          label="Restore from a file"
          busyLabel="Restoring..."
          busy={restoring}
          accept="application/json,.json"
          inputLabel="Restore file"
          onFile={(file) => void restore(file)}
        />
      </Stack>
      <OutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />
    </Paper>
  );
}
