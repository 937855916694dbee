import { Stack, TextField } from '@mui/material';
import { useState } from 'react';
import { CurrencyField } from '../../components/CurrencyField';
import { FormDialog } from '../../components/FormDialog';
import { serverMessage, trpc } from '../../lib/trpc';
import { readRateForm, type RateDraft, type RateDraftErrors } from './rateForm';

interface RateDialogProps {
  /** The rate to start from: a pair's latest to edit, or a blank one to add. */
  initial: RateDraft;
  editing: boolean;
  onClose: () => void;
  onSaved: (message: string) => void;
}

/** Add or change one rate by hand: one base is `rate` units of quote on the date (a stored one is replaced). */
export function RateDialog({ initial, editing, onClose, onSaved }: RateDialogProps) {
  const [draft, setDraft] = useState<RateDraft>(initial);
  const [errors, setErrors] = useState<RateDraftErrors>({});
  const [error, setError] = useState('');
  const utils = trpc.useUtils();
  const put = trpc.rates.put.useMutation();
  const set = (change: Partial<RateDraft>) => setDraft((d) => ({ ...d, ...change }));

  async function save() {
    setError('');
    const read = readRateForm(draft);
    setErrors(read.ok ? {} : read.errors);
    if (!read.ok) return;
    try {
      const saved = await put.mutateAsync(read.value);
      // Converted figures read the rates: every one of them may change.
      await utils.invalidate();
      onSaved(`Saved: 1 ${saved.base} = ${saved.rate} ${saved.quote} on ${saved.date}`);
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to save the rate'));
    }
  }

  return (
    <FormDialog
      title={editing ? `Edit the ${initial.base} to ${initial.quote} rate` : 'Add a rate'}
      error={error}
      mutation={put}
      onSubmit={save}
      onClose={onClose}
      submitLabel="Save rate"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label="Date"
          type="date"
          required
          value={draft.date}
          onChange={(e) => set({ date: e.target.value })}
          error={Boolean(errors.date)}
          helperText={errors.date ?? 'A rate serves its date and up to 7 days after it'}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
          <CurrencyField label="Base" required value={draft.base} onChange={(base) => set({ base })} fullWidth />
          <CurrencyField
            label="Quote"
            required
            value={draft.quote}
            onChange={(quote) => set({ quote })}
            error={Boolean(errors.quote)}
            helperText={errors.quote}
            fullWidth
          />
        </Stack>
        <TextField
          label="Rate"
          required
          value={draft.rate}
          onChange={(e) => set({ rate: e.target.value })}
          error={Boolean(errors.rate)}
          helperText={errors.rate ?? `Units of ${draft.quote} for one ${draft.base}`}
          autoComplete="off"
          slotProps={{ htmlInput: { inputMode: 'decimal', spellCheck: false } }}
        />
      </Stack>
    </FormDialog>
  );
}
