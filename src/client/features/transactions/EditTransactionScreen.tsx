import { Alert, Autocomplete, Box, Button, MenuItem, Paper, Stack, TextField, Typography } from '@mui/material';
import { useRouter, useRouterState } from '@tanstack/react-router';
import { useState, type FormEvent } from 'react';
import { centsToDecimalString, parseDecimalToCents } from '../../../shared/money';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { Notice, useNotice } from '../../components/Notice';
import { sharedLoadError, useAccountNames, useCategoryNames } from '../../components/transactions/hooks';
import { trpc } from '../../lib/trpc';

declare module '@tanstack/react-router' {
  interface HistoryState {
    /** The transaction to edit on /create-transaction (set by the transaction table's Edit action). */
    transaction?: TransactionDto;
  }
}

interface FormErrors {
  postDate?: string;
  description?: string;
  amount?: string;
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
  const [editing, setEditing] = useState<TransactionDto | null>(initial);
  const [postDate, setPostDate] = useState(initial?.postDate ?? '');
  const [description, setDescription] = useState(initial?.description ?? '');
  const [amount, setAmount] = useState(initial ? centsToDecimalString(initial.amount) : '');
  const [category, setCategory] = useState(initial?.category ?? '');
  const [account, setAccount] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const [notice, showNotice, clearNotice] = useNotice();
  const categories = useCategoryNames();
  const accounts = useAccountNames();
  // Editing never changes the account, so only a new transaction needs the account list.
  const loadError = sharedLoadError(categories.error, editing ? null : accounts.error);
  const utils = trpc.useUtils();
  const create = trpc.transactions.create.useMutation();
  const update = trpc.transactions.update.useMutation();
  const saving = create.isPending || update.isPending;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const cents = parseDecimalToCents(amount);
    const found: FormErrors = {};
    if (!postDate) found.postDate = 'Date is required';
    if (!description.trim()) found.description = 'Description is required';
    if (!amount.trim()) found.amount = 'Amount is required';
    else if (cents === null) found.amount = 'Enter an amount such as -12.34 (negative for money out)';
    setErrors(found);
    if (Object.keys(found).length > 0 || cents === null) return;
    const fields = { postDate, description: description.trim(), amount: cents, category: category.trim() || null };
    try {
      if (editing) {
        const saved = await update.mutateAsync({ id: editing.id, data: fields });
        setEditing(saved);
      } else {
        await create.mutateAsync({ ...fields, ...(account ? { account } : {}) });
        setDescription('');
        setAmount('');
        setCategory('');
      }
      if (fields.category) void utils.categories.list.invalidate();
      void utils.transactions.list.invalidate();
      showNotice('Transaction updated successfully');
    } catch (failure) {
      console.error('Saving the transaction failed', failure);
      showNotice('Failed to update transaction', 'error');
    }
  }

  return (
    <Box sx={{ maxWidth: 640 }}>
      <Typography variant="h1" gutterBottom>
        {editing ? 'Edit Transaction' : 'Create Transaction'}
      </Typography>
      <Paper component="form" onSubmit={submit} sx={{ p: { xs: 2, sm: 3 } }} noValidate>
        <Stack spacing={2.5}>
          {editing && (editing.isSplit || editing.parentTransactionId !== null) && (
            <Alert severity="info">This transaction is part of a split: its amount can only be changed by editing the split.</Alert>
          )}
          <TextField
            label="Date"
            type="date"
            required
            value={postDate}
            onChange={(e) => setPostDate(e.target.value)}
            error={Boolean(errors.postDate)}
            helperText={errors.postDate}
            slotProps={{ inputLabel: { shrink: true } }}
          />
          <TextField
            label="Description"
            required
            value={description}
            onChange={(e) => setDescription(e.target.value)}
            error={Boolean(errors.description)}
            helperText={errors.description}
          />
          <TextField
            label="Amount"
            type="number"
            required
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={Boolean(errors.amount)}
            helperText={errors.amount ?? 'Negative for money out'}
            slotProps={{ htmlInput: { step: 0.01, inputMode: 'decimal' } }}
          />
          <Autocomplete
            freeSolo
            options={categories.names}
            inputValue={category}
            onInputChange={(_e, value) => setCategory(value)}
            renderInput={(params) => <TextField {...params} label="Category" />}
          />
          {!editing && (
            <TextField select label="Account" value={account} onChange={(e) => setAccount(e.target.value)}>
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
      <Notice notice={notice} onClose={clearNotice} />
    </Box>
  );
}
