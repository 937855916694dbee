import { Alert, Autocomplete, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { formatAmountInput } from '../../../shared/money';
import { TRANSACTION_TYPES, type TransactionDto, type TransactionType } from '../../../shared/schemas/transactions';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { MoneyField } from '../../components/MoneyField';
import { Notice, useNotice } from '../../components/Notice';
import { sharedLoadError, useAccountNames, useCategoryNames } from '../../components/transactions/hooks';
import { browserLocale } from '../../lib/locale';
import { refusalMessage, serverFieldErrors, trpc } from '../../lib/trpc';
import {
  amountLocked,
  amountLockedText,
  DRAFT_FIELDS,
  draftOf,
  readDraft,
  signChange,
  signChangeQuestion,
  type DraftErrors,
  type ReadDraft,
  type TransactionDraft,
} from './transactionForm';

declare module '@tanstack/react-router' {
  interface HistoryState {
    /** The transaction to edit on /create-transaction (set by the transaction table's Edit action). */
    transaction?: TransactionDto;
  }
}

/**
 * Edit Transaction (/create-transaction): date, description, amount, category and Save.
 * Edits the transaction passed in the navigation state, or creates a new one (with an
 * optional account).
 */
export function EditTransactionScreen() {
  const passed = useRouterState({ select: (state) => state.location.state.transaction });
  // A new navigation with another transaction starts a fresh form.
  return <TransactionForm key={passed?.id ?? 'new'} initial={passed ?? null} />;
}

function TransactionForm({ initial }: { initial: TransactionDto | null }) {
  const router = useRouter();
  const locale = browserLocale();
  const [editing, setEditing] = useState<TransactionDto | null>(initial);
  const [draft, setDraft] = useState<TransactionDraft>(() => draftOf(initial, locale));
  const [errors, setErrors] = useState<DraftErrors>({});
  const [question, setQuestion] = useState<{ text: string; value: ReadDraft } | null>(null);
  const [notice, showNotice, clearNotice] = useNotice();
  const categories = useCategoryNames();
  const accounts = useAccountNames();
  // Editing never changes the account, so only a new transaction needs the account list.
  const loadError = sharedLoadError(categories.error, editing ? null : accounts.error);
  const utils = trpc.useUtils();
  const create = trpc.transactions.create.useMutation();
  const update = trpc.transactions.update.useMutation();
  const saving = create.isPending || update.isPending;
  const locked = amountLocked(editing);

  const set = (patch: Partial<TransactionDraft>) => {
    setDraft((current) => ({ ...current, ...patch }));
    setErrors((current) => {
      const next = { ...current };
      for (const key of Object.keys(patch) as (keyof DraftErrors)[]) delete next[key];
      return next;
    });
  };

  function submit(event: FormEvent) {
    event.preventDefault();
    const read = readDraft(locked && editing ? { ...draft, amount: formatAmountInput(editing.amount, locale) } : draft, locale);
    setErrors(read.ok ? {} : read.errors);
    if (!read.ok) return;
    const change = editing ? signChange(editing.amount, read.value.amount) : null;
    if (editing && change) {
      const text = signChangeQuestion(change, formatAmountInput(editing.amount, locale), formatAmountInput(read.value.amount, locale), draft.type);
      setQuestion({ text, value: read.value }); return;
    }
    void save(read.value);
  }

  async function save(value: ReadDraft) {
    setQuestion(null);
    try {
      if (editing) {
        const data = { ...value, ...(locked ? { amount: undefined } : {}), ...(draft.type !== editing.type ? { type: draft.type } : {}) };
        const saved = await update.mutateAsync({ id: editing.id, data });
        setEditing(saved);
        setDraft((current) => ({ ...current, amount: formatAmountInput(saved.amount, locale), type: saved.type }));
        showNotice('Transaction updated successfully');
      } else {
        await create.mutateAsync({ ...value, ...(draft.account ? { account: draft.account } : {}) });
        setDraft((current) => ({ ...current, description: '', amount: '', category: '' }));
        showNotice('Transaction created successfully');
      }
      if (value.category) void utils.categories.list.invalidate();
      void utils.transactions.list.invalidate();
    } catch (failure) {
      console.error('Saving the transaction failed', failure);
      const byField = serverFieldErrors(failure, DRAFT_FIELDS);
      setErrors(byField.fields);
      const fallback = editing ? 'Failed to update transaction' : 'Failed to create transaction';
      showNotice(byField.rest || Object.keys(byField.fields).length === 0 ? refusalMessage(failure, fallback) : fallback, 'error');
    }
  }

  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h1" gutterBottom>
        {editing ? 'Edit Transaction' : 'Create Transaction'}
      </Typography>
      <Paper component="form" onSubmit={submit} sx={{ p: { xs: 2, sm: 3 } }} noValidate>
        <Stack spacing={2.5}>
          <TextField
            label="Date"
            type="date"
            required
            value={draft.postDate}
            onChange={(e) => set({ postDate: e.target.value })}
            error={Boolean(errors.postDate)}
            helperText={errors.postDate}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Description"
            required
            value={draft.description}
            onChange={(e) => set({ description: e.target.value })}
            error={Boolean(errors.description)}
            helperText={errors.description}
          />
          <MoneyField
            label="Amount"
            required
            value={locked && editing ? formatAmountInput(editing.amount, locale) : draft.amount}
            onChange={(amount) => set({ amount })}
            disabled={locked}
            // The reason must stay readable while the field is disabled.
            slotProps={{ formHelperText: { sx: { '&.Mui-disabled': { color: 'text.secondary' } } } }}
            error={errors.amount}
            helperText={locked && editing ? amountLockedText(editing) : 'Negative for money out, e.g. -12.50'}
          />
          <Autocomplete
            freeSolo
            options={categories.names}
            inputValue={draft.category}
            onInputChange={(_e, category) => set({ category })}
            renderInput={(params) => (
              <TextField
                {...params}
                label="Category"
                error={Boolean(errors.category)}
                helperText={errors.category ?? 'Leave empty for no category'}
              />
            )}
          />
          {editing ? (
            <TextField select label="Type" value={draft.type} onChange={(e) => set({ type: e.target.value as TransactionType })}>
              {TRANSACTION_TYPES.map((type) => (
                <MenuItem key={type} value={type}>
                  {type}
                </MenuItem>
              ))}
            </TextField>
          ) : (
            <TextField select label="Account" value={draft.account} onChange={(e) => set({ account: e.target.value })}>
              <MenuItem value="">
                <em>No account</em>
              </MenuItem>
              {accounts.names.map((name) => (
                <MenuItem key={name} value={name}>
                  {name}
                </MenuItem>
              ))}
            </TextField>
          )}
          {loadError && <Alert severity="warning">{loadError}</Alert>}
          <Stack direction="row" spacing={1}>
            <Button type="submit" variant="contained" disabled={saving}>
              {saving ? 'Saving...' : 'Save'}
            </Button>
            {initial && (
              <Button onClick={() => router.history.back()} disabled={saving}>
                Back
              </Button>
            )}
          </Stack>
        </Stack>
      </Paper>
      <ConfirmDialog
        open={question !== null}
        title="Change the sign?"
        message={question?.text ?? ''}
        confirmLabel="Save"
        cancelLabel="Cancel"
        busy={saving}
        onConfirm={() => question && void save(question.value)}
        onCancel={() => setQuestion(null)}
      />
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}
