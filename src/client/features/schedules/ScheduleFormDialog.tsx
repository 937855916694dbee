import { MenuItem, Stack, TextField, Typography } from '@mui/material';
import { useState } from 'react';
import type { ScheduleDto, ScheduleMode, WeekendRule } from '../../../shared/schedules';
import { FormDialog } from '../../components/FormDialog';
import { MoneyField } from '../../components/MoneyField';
import { useAccountNames } from '../../components/transactions/hooks';
import { browserLocale } from '../../lib/locale';
import { serverMessage, trpc } from '../../lib/trpc';
import { RecurrenceFields } from './RecurrenceFields';
import { readDraft, toDraft, type EndKind, type ScheduleDraft } from './scheduleForm';

interface ScheduleFormDialogProps {
  /** The schedule being edited, or null for a new one. */
  schedule: ScheduleDto | null;
  /** A new schedule's first values (a suggestion), if any. */
  start?: Partial<ScheduleDraft>;
  accounts: readonly string[];
  today: string;
  onClose: () => void;
  onSaved: (schedule: ScheduleDto) => void;
}

/** Create or edit a schedule: what it pays, how often, and whether it posts itself or waits for the bank's row. */
export function ScheduleFormDialog({ schedule, start, accounts, today, onClose, onSaved }: ScheduleFormDialogProps) {
  const locale = browserLocale();
  const { currencyOf } = useAccountNames();
  const [draft, setDraft] = useState<ScheduleDraft>(() => ({
    ...toDraft(schedule, { today, account: accounts[0] ?? '', locale, currency: currencyOf(schedule?.account) }),
    ...start,
  }));
  const currency = currencyOf(draft.account);
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);
  const utils = trpc.useUtils();
  const create = trpc.schedules.create.useMutation();
  const update = trpc.schedules.update.useMutation();
  const set = (change: Partial<ScheduleDraft>) => setDraft((d) => ({ ...d, ...change }));
  const fieldError = (field: string) => (problem?.field === field ? problem.message : undefined);

  async function save() {
    setProblem(null);
    const reading = readDraft(draft, locale, currency);
    if (!reading.ok) {
      setProblem(reading);
      return;
    }
    try {
      const saved = schedule
        ? await update.mutateAsync({ id: schedule.id, data: reading.input })
        : await create.mutateAsync(reading.input);
      await utils.schedules.invalidate();
      await utils.categories.list.invalidate();
      onSaved(saved);
    } catch (failure) {
      setProblem({ field: 'form', message: serverMessage(failure, 'Failed to save the schedule') });
    }
  }

  return (
    <FormDialog
      title={schedule ? `Edit '${schedule.name}'` : 'New schedule'}
      error={problem?.field === 'form' ? problem.message : null}
      mutation={[create, update]}
      onSubmit={save}
      onClose={onClose}
      submitLabel="Save schedule"
      maxWidth="md"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <WhatFields draft={draft} set={set} fieldError={fieldError} accounts={accounts} />
        <AmountFields draft={draft} set={set} fieldError={fieldError} currency={currency} />
        <Typography variant="subtitle1" component="h3">
          When
        </Typography>
        <RecurrenceFields draft={draft} onChange={set} />
        <WhenFields draft={draft} set={set} fieldError={fieldError} />
      </Stack>
    </FormDialog>
  );
}

interface FieldsProps {
  draft: ScheduleDraft;
  set: (change: Partial<ScheduleDraft>) => void;
  fieldError: (field: string) => string | undefined;
}

function AmountFields({ draft, set, fieldError, currency }: FieldsProps & { currency: string | null }) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
      <MoneyField
        label="Amount"
        required
        currency={currency}
        value={draft.amount}
        onChange={(amount) => set({ amount })}
        error={fieldError('amount')}
        helperText="Negative for money out"
      />
      <TextField
        label="Category"
        value={draft.category}
        onChange={(e) => set({ category: e.target.value })}
        helperText="Optional; created if missing"
        autoComplete="off"
      />
      <TextField
        select
        label="How it is paid"
        value={draft.mode}
        onChange={(e) => set({ mode: e.target.value as ScheduleMode })}
        helperText={draft.mode === 'post' ? 'The transaction is created on its day' : 'Matched to the imported row'}
        sx={{ minWidth: 200 }}
      >
        <MenuItem value="post">Post it for me</MenuItem>
        <MenuItem value="expect">Expect it from the bank</MenuItem>
      </TextField>
    </Stack>
  );
}

function WhenFields({ draft, set, fieldError }: FieldsProps) {
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          label="Start date"
          type="date"
          value={draft.startDate}
          onChange={(e) => set({ startDate: e.target.value })}
          slotProps={{ inputLabel: { shrink: true } }}
        />
        <TextField
          select
          label="On a weekend"
          value={draft.weekendRule}
          onChange={(e) => set({ weekendRule: e.target.value as WeekendRule })}
          sx={{ minWidth: 200 }}
        >
          <MenuItem value="none">Keep the day</MenuItem>
          <MenuItem value="before">Friday before</MenuItem>
          <MenuItem value="after">Monday after</MenuItem>
        </TextField>
        <TextField
          select
          label="Ends"
          value={draft.endKind}
          onChange={(e) => set({ endKind: e.target.value as EndKind })}
          sx={{ minWidth: 160 }}
        >
          <MenuItem value="never">Never</MenuItem>
          <MenuItem value="after">After a number of times</MenuItem>
          <MenuItem value="until">On a date</MenuItem>
        </TextField>
        {draft.endKind === 'after' && (
          <TextField
            label="Times"
            type="number"
            value={draft.endAfter}
            onChange={(e) => set({ endAfter: e.target.value })}
            error={Boolean(fieldError('end'))}
            helperText={fieldError('end')}
            slotProps={{ htmlInput: { min: 1 } }}
            sx={{ width: 120 }}
          />
        )}
        {draft.endKind === 'until' && (
          <TextField
            label="Last date"
            type="date"
            value={draft.endUntil}
            onChange={(e) => set({ endUntil: e.target.value })}
            error={Boolean(fieldError('end'))}
            helperText={fieldError('end')}
            slotProps={{ inputLabel: { shrink: true } }}
          />
        )}
      </Stack>
      {draft.mode === 'expect' && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
          <TextField
            label="Amount may differ by (%)"
            value={draft.tolerance}
            onChange={(e) => set({ tolerance: e.target.value })}
            error={Boolean(fieldError('tolerance'))}
            helperText={fieldError('tolerance') ?? '0 matches the exact amount only'}
            slotProps={{ htmlInput: { inputMode: 'decimal' } }}
          />
          <TextField
            label="Days early or late"
            type="number"
            value={draft.window}
            onChange={(e) => set({ window: e.target.value })}
            helperText="0 to 10"
            slotProps={{ htmlInput: { min: 0, max: 10 } }}
          />
        </Stack>
      )}
    </>
  );
}

/** Name, account and the description the bank writes. */
function WhatFields({ draft, set, fieldError, accounts }: FieldsProps & { accounts: readonly string[] }) {
  return (
    <>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
        <TextField
          label="Name"
          required
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          error={Boolean(fieldError('name'))}
          helperText={fieldError('name') ?? ' '}
          autoComplete="off"
          sx={{ flexGrow: 1 }}
        />
        <TextField
          select
          label="Account"
          value={draft.account}
          onChange={(e) => set({ account: e.target.value })}
          helperText=" "
          sx={{ minWidth: 200 }}
        >
          {accounts.map((name) => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
      </Stack>
      <TextField
        label="Description"
        required
        value={draft.description}
        onChange={(e) => set({ description: e.target.value })}
        error={Boolean(fieldError('description'))}
        helperText={fieldError('description') ?? 'As the bank writes it: an expected row is matched by it too'}
        autoComplete="off"
      />
    </>
  );
}
