import { Button, Paper, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { SettingsDto } from '../../../shared/schemas/transfers';
import { OutcomeAlert, type Outcome } from '../../components/OutcomeAlert';
import { serverMessage, trpc } from '../../lib/trpc';

/** A field's text as a period: blank is the server's (null), else whole days. */
function periodOf(text: string): number | null {
  return text.trim() === '' ? null : Number(text.trim());
}

/**
 * How long the history keeps changes and the trash deleted transactions, for this user: blank fields take the
 * server's periods, shown as their placeholders. The server checks the values (whole days, 1 to 3650).
 */
export function RetentionSection() {
  const settings = trpc.settings.get.useQuery();
  return (
    <Paper component="section" aria-labelledby="retention-heading" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <Typography id="retention-heading" variant="h2" gutterBottom>
        History and trash
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Days the history keeps your changes (the last 100 can be undone) and deleted transactions wait in the trash
        before they are deleted for good. Leave a field blank for the server’s period.
      </Typography>
      {settings.data ? <RetentionForm settings={settings.data} /> : null}
    </Paper>
  );
}

const daysText = (days: number | null) => (days === null ? '' : String(days));

/** The two fields, starting from the settings as loaded. */
function RetentionForm({ settings }: { settings: SettingsDto }) {
  const save = trpc.settings.update.useMutation();
  const utils = trpc.useUtils();
  const [history, setHistory] = useState(daysText(settings.historyRetentionDays));
  const [trash, setTrash] = useState(daysText(settings.trashRetentionDays));
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function submit() {
    setOutcome(null);
    try {
      const saved = await save.mutateAsync({
        historyRetentionDays: periodOf(history),
        trashRetentionDays: periodOf(trash),
      });
      utils.settings.get.setData(undefined, saved);
      setOutcome({
        severity: 'success',
        text: `The history keeps changes ${saved.historyRetentionDays ?? saved.serverHistoryRetentionDays} days; the trash keeps deleted transactions ${saved.trashRetentionDays ?? saved.serverTrashRetentionDays} days`,
      });
    } catch (failure) {
      setOutcome({ severity: 'error', text: serverMessage(failure, 'Failed to change how long history is kept') });
    }
  }

  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, mt: 2, alignItems: { sm: 'center' } }}>
        <TextField
          label="History (days)"
          value={history}
          onChange={(event) => setHistory(event.target.value)}
          placeholder={String(settings.serverHistoryRetentionDays)}
          slotProps={{ htmlInput: { inputMode: 'numeric' }, inputLabel: { shrink: true } }}
        />
        <TextField
          label="Trash (days)"
          value={trash}
          onChange={(event) => setTrash(event.target.value)}
          placeholder={String(settings.serverTrashRetentionDays)}
          slotProps={{ htmlInput: { inputMode: 'numeric' }, inputLabel: { shrink: true } }}
        />
        <Button variant="outlined" disabled={save.isPending} onClick={() => void submit()}>
          {save.isPending ? 'Saving…' : 'Save periods'}
        </Button>
      </Stack>
      <OutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />
    </>
  );
}
