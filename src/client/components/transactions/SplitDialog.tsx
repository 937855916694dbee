import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { centsToDecimalString, formatCents } from '../../../shared/money';
import type { SplitDetails, TransactionDto } from '../../../shared/schemas/transactions';
import { autoFillRemainder, canSubmitSplit, signedSplitAmounts, splitRemainder, validateSplit } from '../../../shared/splits';
import { serverMessage, trpc } from '../../lib/trpc';
import { blankRow, initialRows, magnitudesOf, rowMagnitude, type SplitDraftRow } from './splitDraft';

interface SplitDialogProps {
  /** The transaction to split; the dialog is open while it is set. */
  parent: TransactionDto | null;
  /** Prefilled rows when editing an existing split; two blank rows otherwise. */
  initial?: SplitDraftRow[] | null;
  categoryNames: readonly string[];
  onClose(): void;
  onSplit(details: SplitDetails): void;
}

/** Splits one transaction into parts that sum to it (SPEC section 5, Split). */
export function SplitDialog({ parent, initial, categoryNames, onClose, onSplit }: SplitDialogProps) {
  const titleId = useId();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const [rows, setRows] = useState<SplitDraftRow[]>(initialRows);
  const [error, setError] = useState('');
  const split = trpc.transactions.split.useMutation();
  const utils = trpc.useUtils();

  useEffect(() => {
    if (parent) {
      setRows(initial && initial.length > 0 ? initial : initialRows());
      setError('');
    }
  }, [parent, initial]);

  const parentAmount = parent?.amount ?? 0;
  const magnitudes = magnitudesOf(rows);
  const remainder = splitRemainder(parentAmount, magnitudes);
  const saving = split.isPending;
  const canSubmit = canSubmitSplit(parentAmount, magnitudes, saving);
  const canAutoFill = remainder > 0 && magnitudes.some((m) => m === null);

  /** Any edit clears the last refusal: it described rows that no longer exist. */
  function edit(change: (current: SplitDraftRow[]) => SplitDraftRow[]) {
    setError('');
    setRows(change);
  }

  function update(key: number, patch: Partial<SplitDraftRow>) {
    edit((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row)));
  }

  function autoFill() {
    const filled = autoFillRemainder(parentAmount, magnitudes);
    edit((current) =>
      current.map((row, i) => (magnitudes[i] === null && filled[i] !== null ? { ...row, amount: centsToDecimalString(filled[i] as number) } : row)),
    );
  }

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!parent || !canSubmit) return;
    setError('');
    const counted = rows
      .map((row) => ({ row, magnitude: rowMagnitude(row) }))
      .filter(({ row, magnitude }) => magnitude !== null && !Number.isNaN(magnitude) && row.category.trim() !== '');
    const amounts = signedSplitAmounts(parentAmount, counted.map((c) => c.magnitude as number));
    const entries = counted.map(({ row }, i) => ({ amount: amounts[i], category: row.category.trim() }));
    const check = validateSplit(parentAmount, entries);
    if (!check.ok) return setError(check.message);
    try {
      const details = await split.mutateAsync({
        id: parent.id,
        splits: counted.map(({ row }, i) => ({
          amount: amounts[i],
          category: row.category.trim(),
          ...(row.description.trim() ? { description: row.description.trim() } : {}),
          ...(row.splitNote.trim() ? { splitNote: row.splitNote.trim() } : {}),
        })),
      });
      void utils.categories.list.invalidate();
      void utils.transactions.splits.invalidate({ id: parent.id });
      onSplit(details);
      onClose();
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to split transaction'));
    }
  }

  const balanced = Math.abs(remainder) <= 1;
  return (
    <Dialog
      open={Boolean(parent)}
      onClose={saving ? undefined : onClose}
      aria-labelledby={titleId}
      maxWidth="lg"
      fullWidth
      fullScreen={fullScreen}
    >
      <form onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>Split Transaction</DialogTitle>
        <DialogContent>
          {parent && (
            <Typography variant="body2" sx={{ mb: 2 }}>
              {parent.postDate} · {parent.description} · <strong>{formatCents(parent.amount)}</strong>
            </Typography>
          )}
          <Stack spacing={2} sx={{ pt: 1 }}>
            {rows.map((row, index) => {
              const magnitude = rowMagnitude(row);
              const invalid = magnitude !== null && Number.isNaN(magnitude);
              return (
                <Box
                  key={row.key}
                  role="group"
                  aria-label={`Split ${index + 1}`}
                  sx={{
                    display: 'grid',
                    gap: 1,
                    gridTemplateColumns: { xs: '1fr', md: '140px minmax(160px, 1fr) minmax(160px, 1fr) minmax(140px, 1fr) auto' },
                    alignItems: 'start',
                    pb: { xs: 2, md: 0 },
                    borderBottom: { xs: 1, md: 0 },
                    borderColor: 'divider',
                  }}
                >
                  <TextField
                    label="Amount"
                    type="number"
                    value={row.amount}
                    onChange={(e) => update(row.key, { amount: e.target.value })}
                    error={invalid}
                    helperText={invalid ? 'Enter an amount of 0 or more' : undefined}
                    slotProps={{ htmlInput: { min: 0, step: 0.01, inputMode: 'decimal' } }}
                  />
                  <Autocomplete
                    freeSolo
                    options={categoryNames as string[]}
                    inputValue={row.category}
                    onInputChange={(_e, value) => update(row.key, { category: value })}
                    renderInput={(params) => <TextField {...params} label="Category" />}
                  />
                  <TextField
                    label="Description"
                    value={row.description}
                    placeholder={parent?.description}
                    onChange={(e) => update(row.key, { description: e.target.value })}
                  />
                  <TextField label="Split Note" value={row.splitNote} onChange={(e) => update(row.key, { splitNote: e.target.value })} />
                  <Box sx={{ minWidth: 80 }}>
                    {rows.length > 2 && (
                      <Button
                        color="error"
                        onClick={() => edit((current) => current.filter((r) => r.key !== row.key))}
                        aria-label={`Remove split ${index + 1}`}
                      >
                        Remove
                      </Button>
                    )}
                  </Box>
                </Box>
              );
            })}
          </Stack>
          <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
            <Button variant="outlined" onClick={() => edit((current) => [...current, blankRow()])}>
              Add Split
            </Button>
            <Button variant="outlined" onClick={autoFill} disabled={!canAutoFill}>
              Auto-fill remaining
            </Button>
            <Typography
              role="status"
              aria-live="polite"
              sx={{ ml: { sm: 'auto' }, fontWeight: 600, color: balanced ? 'success.main' : 'error.main' }}
            >
              Remaining: {formatCents(remainder)} of {formatCents(Math.abs(parentAmount))}
            </Typography>
          </Stack>
          {error && (
            <Alert severity="error" role="alert" sx={{ mt: 2 }}>
              {error}
            </Alert>
          )}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={saving}>
            Cancel
          </Button>
          <Button type="submit" variant="contained" disabled={!canSubmit}>
            {saving ? 'Saving...' : 'Save Split'}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
