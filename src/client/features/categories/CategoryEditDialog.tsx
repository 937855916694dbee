import { Checkbox, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import { useState } from 'react';
import type { CategoryDto } from '../../../shared/schemas/categories';
import { FormDialog } from '../../components/FormDialog';
import { MoneyField } from '../../components/MoneyField';
import { useHomeCurrency } from '../../lib/currency';
import { browserLocale } from '../../lib/locale';
import { serverMessage, trpc } from '../../lib/trpc';
import { readCategoryDraft, toCategoryDraft, type CategoryDraft } from './categoryForm';

interface CategoryEditDialogProps {
  category: CategoryDto;
  thisMonth: string;
  onClose: () => void;
  onSaved: (category: CategoryDto) => void;
}

/** Rename a category, set its kind, hide it, let overspending roll over, give it a target. */
export function CategoryEditDialog({ category, thisMonth, onClose, onSaved }: CategoryEditDialogProps) {
  const locale = browserLocale();
  const currency = useHomeCurrency();
  const [draft, setDraft] = useState<CategoryDraft>(() => toCategoryDraft(category, thisMonth, locale, currency));
  const [problem, setProblem] = useState<{ field: string; message: string } | null>(null);
  const utils = trpc.useUtils();
  const update = trpc.categories.update.useMutation();
  const set = (change: Partial<CategoryDraft>) => setDraft((d) => ({ ...d, ...change }));
  const fieldError = (field: string) => (problem?.field === field ? problem.message : undefined);

  async function save() {
    setProblem(null);
    const reading = readCategoryDraft(draft, locale, currency);
    if (!reading.ok) {
      setProblem(reading);
      return;
    }
    try {
      const saved = await update.mutateAsync({ id: category.id, data: reading.input });
      await utils.categories.list.invalidate();
      onSaved(saved);
    } catch (failure) {
      setProblem({ field: 'form', message: serverMessage(failure, 'Failed to save the category') });
    }
  }

  return (
    <FormDialog
      title={`Edit '${category.name}'`}
      error={problem?.field === 'form' ? problem.message : null}
      mutation={update}
      onSubmit={() => void save()}
      onClose={onClose}
      maxWidth="sm"
    >
      <Stack spacing={2} sx={{ pt: 1 }}>
        <TextField
          label="Name"
          value={draft.name}
          onChange={(e) => set({ name: e.target.value })}
          error={Boolean(fieldError('name'))}
          helperText={fieldError('name') ?? 'Rules, budgets and envelopes follow a new name'}
          autoComplete="off"
        />
        <TextField
          select
          label="Kind"
          value={draft.kind}
          onChange={(e) => set({ kind: e.target.value as CategoryDraft['kind'] })}
        >
          <MenuItem value="expense">Expense</MenuItem>
          <MenuItem value="income">Income</MenuItem>
        </TextField>
        <FormControlLabel
          control={<Checkbox checked={draft.hidden} onChange={(e) => set({ hidden: e.target.checked })} />}
          label="Hidden (kept out of pickers and the plan; its history stays)"
        />
        <FormControlLabel
          control={<Checkbox checked={draft.rolls} onChange={(e) => set({ rolls: e.target.checked })} />}
          label={`Roll overspending over to the next month (from ${draft.rollsFrom})`}
        />
        <TargetFields draft={draft} set={set} fieldError={fieldError} currency={currency} />
      </Stack>
    </FormDialog>
  );
}

interface TargetFieldsProps {
  draft: CategoryDraft;
  set: (change: Partial<CategoryDraft>) => void;
  fieldError: (field: string) => string | undefined;
  /** The home currency: the plan's, and so its targets'. */
  currency: string;
}

/** The one target a category may have: a monthly amount, "refill up to", or a balance by a date. */
function TargetFields({ draft, set, fieldError, currency }: TargetFieldsProps) {
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1}>
      <TextField
        select
        label="Target"
        value={draft.targetType}
        onChange={(e) => set({ targetType: e.target.value as CategoryDraft['targetType'] })}
        sx={{ minWidth: 180 }}
      >
        <MenuItem value="none">No target</MenuItem>
        <MenuItem value="monthly">Assign each month</MenuItem>
        <MenuItem value="refill">Refill up to</MenuItem>
        <MenuItem value="byDate">Save a balance by a date</MenuItem>
      </TextField>
      {draft.targetType !== 'none' && (
        <MoneyField
          label="Target amount"
          value={draft.targetAmount}
          onChange={(text) => set({ targetAmount: text })}
          error={fieldError('targetAmount')}
          currency={currency}
          unsigned
        />
      )}
      {draft.targetType === 'byDate' && (
        <TextField
          label="By"
          type="date"
          value={draft.targetDate}
          onChange={(e) => set({ targetDate: e.target.value })}
          error={Boolean(fieldError('targetDate'))}
          helperText={fieldError('targetDate')}
          slotProps={{ inputLabel: { shrink: true } }}
        />
      )}
    </Stack>
  );
}
