import { Box, Button, MenuItem, TextField } from '@mui/material';
import { useState, type KeyboardEvent } from 'react';
import type { RegisterRow } from '../../../shared/schemas/register';
import type { UpdateTransactionPatch } from '../../../shared/schemas/transactions';
import { formatAmountInput } from '../../../shared/money';
import { MoneyField } from '../../components/MoneyField';
import { Amount } from '../../components/transactions/Amount';
import { useCategoryNames } from '../../components/transactions/hooks';
import { fieldDigits, readAmountField } from '../../lib/amountField';
import { browserLocale } from '../../lib/locale';

interface RegisterEditRowProps {
  row: RegisterRow;
  /** The register's grid (columns and areas), so the fields sit where the row's cells were. */
  grid: Record<string, unknown>;
  height: number;
  /** Tells the list this row's height (its fields may need more than a row's). */
  measure: (element: HTMLElement | null) => void;
  start: number;
  index: number;
  onSave: (patch: UpdateTransactionPatch) => void;
  onCancel: () => void;
}

/** The fields a person changed, read from the drafts; an amount that is no amount is an error. */
function patchOf(row: RegisterRow, draft: Record<'postDate' | 'description' | 'category' | 'memo' | 'amount', string>) {
  const patch: UpdateTransactionPatch = {};
  if (draft.postDate !== row.postDate) patch.postDate = draft.postDate;
  if (draft.description.trim() !== row.description) patch.description = draft.description.trim();
  if (draft.category !== (row.category ?? '')) patch.category = draft.category || null;
  if (draft.memo !== (row.memo ?? '')) patch.memo = draft.memo || null;
  const amount = readAmountField(draft.amount, browserLocale(), { required: true, currency: row.currency });
  if (!amount.ok) return { error: amount.message };
  if (amount.cents !== null && amount.cents !== row.amount) patch.amount = amount.cents;
  return { patch };
}

/** A register row being edited in place: Enter saves, Escape puts it back. */
export function RegisterEditRow({ row, grid, height, measure, start, index, onSave, onCancel }: RegisterEditRowProps) {
  const { draft, set, error, save, keys } = useRowDraft(row, onSave, onCancel);
  const small = { size: 'small', fullWidth: true } as const;
  return (
    <Box
      ref={measure}
      data-index={index}
      role="row"
      aria-rowindex={index + 2}
      aria-label={`Editing ${row.description}`}
      onKeyDown={keys}
      sx={{
        display: 'grid',
        ...grid,
        alignItems: 'center',
        gap: 0.5,
        position: 'absolute',
        top: 0,
        left: 0,
        right: 0,
        minHeight: height,
        transform: `translateY(${start}px)`,
        bgcolor: 'action.selected',
        zIndex: 1,
      }}
    >
      <Box role="cell">
        <TextField
          {...small}
          type="date"
          label="Date"
          value={draft.postDate}
          onChange={(e) => set({ postDate: e.target.value })}
        />
      </Box>
      <Box role="cell">
        <TextField
          {...small}
          label="Description"
          value={draft.description}
          // eslint-disable-next-line jsx-a11y/no-autofocus -- Edit turns the row into fields: typing continues in its first one
          autoFocus
          onChange={(e) => set({ description: e.target.value })}
        />
      </Box>
      <Box role="cell">
        <CategorySelect current={row.category} value={draft.category} onChange={(category) => set({ category })} />
      </Box>
      <Box role="cell">
        <MoneyField
          {...small}
          label="Amount"
          value={draft.amount}
          onChange={(amount) => set({ amount })}
          error={error}
          currency={row.currency}
        />
      </Box>
      <Box role="cell" sx={{ px: 1, textAlign: 'right' }}>
        <Amount cents={row.runningBalance} currency={row.currency} />
      </Box>
      <Box role="cell">
        <TextField {...small} label="Memo" value={draft.memo} onChange={(e) => set({ memo: e.target.value })} />
      </Box>
      <Box role="cell" sx={{ display: 'flex', gap: 0.5 }}>
        <Button size="small" variant="contained" onClick={save}>
          Save
        </Button>
        <Button size="small" onClick={onCancel}>
          Cancel
        </Button>
      </Box>
    </Box>
  );
}

/** The row's draft (every field as text), and saving it: Enter saves what changed, Escape puts the row back. */
function useRowDraft(row: RegisterRow, onSave: (patch: UpdateTransactionPatch) => void, onCancel: () => void) {
  const [draft, setDraft] = useState({
    postDate: row.postDate,
    description: row.description,
    category: row.category ?? '',
    memo: row.memo ?? '',
    amount: formatAmountInput(row.amount, browserLocale(), fieldDigits(row.currency)),
  });
  const [error, setError] = useState<string | undefined>();
  const set = (change: Partial<typeof draft>) => setDraft((d) => ({ ...d, ...change }));
  function save() {
    const read = patchOf(row, draft);
    if ('error' in read) {
      setError(read.error);
      return;
    }
    if (Object.keys(read.patch).length === 0) {
      onCancel();
      return;
    }
    onSave(read.patch);
  }
  function keys(event: KeyboardEvent) {
    if (event.key === 'Escape') {
      event.preventDefault();
      onCancel();
    } else if (event.key === 'Enter' && !(event.target as HTMLElement).closest('[role="listbox"]')) {
      event.preventDefault();
      save();
    }
  }
  return { draft, set, error, save, keys };
}

/** The category, among the user's categories (and the row's own, should it be hidden). */
function CategorySelect(props: { current: string | null; value: string; onChange: (category: string) => void }) {
  const { names } = useCategoryNames();
  return (
    <TextField
      size="small"
      fullWidth
      select
      label="Category"
      value={props.value}
      onChange={(e) => props.onChange(e.target.value)}
    >
      <MenuItem value="">Uncategorized</MenuItem>
      {[...new Set([...names, ...(props.current ? [props.current] : [])])].map((name) => (
        <MenuItem key={name} value={name}>
          {name}
        </MenuItem>
      ))}
    </TextField>
  );
}
