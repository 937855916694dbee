import { Button, Stack, Typography } from '@mui/material';
import { useCallback, useEffect, useRef, useState } from 'react';
import { isReservedCategoryName, reservedCategoryOnTransactionMessage } from '../../../shared/categories';
import { formatAmountInput, formatMoney } from '../../../shared/money';
import type { SplitDetails, TransactionDto } from '../../../shared/schemas/transactions';
import {
  autoFillRemainder,
  canSubmitSplit,
  lastPartAdjustment,
  splitRemainder,
  type LastPartAdjustment,
} from '../../../shared/splits';
import { fieldDigits } from '../../lib/amountField';
import { browserLocale } from '../../lib/locale';
import { serverMessage, trpc } from '../../lib/trpc';
import { FormDialog } from '../FormDialog';
import { blankRow, initialRows, magnitudesOf, splitRequest, type SplitDraftRow } from './splitDraft';
import { SplitRowFields } from './SplitRowFields';

interface SplitDialogProps {
  /** The transaction to split; the dialog is open while it is set. */
  parent: TransactionDto | null;
  /** Prefilled rows when editing an existing split; two blank rows otherwise. */
  initial?: SplitDraftRow[] | null;
  categoryNames: readonly string[];
  onClose: () => void;
  onSplit: (details: SplitDetails) => void;
}

/**
 * Splits one transaction into parts that sum to it. Save Split stays
 * disabled until the parts sum to the original exactly (the server refuses anything else); a
 * leftover can be put into the last part with one click.
 */
export function SplitDialog({ parent, initial, categoryNames, onClose, onSplit }: SplitDialogProps) {
  const locale = browserLocale();
  const { rows, magnitudes, error, setError, edit, update, remove, setAmounts } = useSplitDraft(
    parent,
    initial,
    locale,
  );
  const split = trpc.transactions.split.useMutation();
  const utils = trpc.useUtils();
  const { partsRef, focusAfterFill } = useFocusAfterAutoFill(rows);

  const parentAmount = parent?.amount ?? 0;
  const currency = parent?.currency ?? null;
  const remainder = splitRemainder(parentAmount, magnitudes);
  const saving = split.isPending;
  const reserved = rows.some((row) => isReservedCategoryName(row.category));
  const canSubmit = canSubmitSplit(parentAmount, magnitudes, saving) && !reserved;
  const canAutoFill = remainder > 0 && magnitudes.some((m) => m === null);
  const adjustment = lastPartAdjustment(parentAmount, magnitudes, currency);

  async function submit() {
    if (!parent) return;
    setError('');
    const request = splitRequest(rows, parentAmount, locale, currency);
    if (!request.ok) {
      setError(request.message);
      return;
    }
    try {
      const details = await split.mutateAsync({ id: parent.id, splits: request.splits });
      void utils.categories.list.invalidate();
      void utils.transactions.splits.invalidate({ id: parent.id });
      onSplit(details);
      onClose();
    } catch (failure) {
      setError(serverMessage(failure, 'Failed to split transaction'));
    }
  }

  return (
    <FormDialog
      open={Boolean(parent)}
      title="Split Transaction"
      error={error}
      mutation={split}
      onSubmit={submit}
      onClose={onClose}
      submitLabel="Save Split"
      canSubmit={canSubmit}
      maxWidth="lg"
      fullScreenOnPhone
    >
      {parent && <ParentLine parent={parent} />}
      <div ref={partsRef}>
        <SplitRows
          rows={rows}
          categoryNames={categoryNames}
          parentDescription={parent?.description ?? ''}
          currency={currency}
          onChange={update}
          onRemove={remove}
        />
      </div>
      <SplitTools
        currency={currency}
        parentAmount={parentAmount}
        magnitudes={magnitudes}
        remainder={remainder}
        canAutoFill={canAutoFill}
        adjustment={adjustment}
        onAdd={() => edit((current) => [...current, blankRow()])}
        onAutoFill={() => {
          setAmounts(autoFillRemainder(parentAmount, magnitudes));
          focusAfterFill(magnitudes.findIndex((m) => m === null));
        }}
        onAdjust={() =>
          adjustment && setAmounts(magnitudes.map((m, i) => (i === adjustment.index ? adjustment.magnitude : m)))
        }
      />
    </FormDialog>
  );
}

/** The parts being drafted and the last refusal; opening the dialog for a transaction starts a fresh draft. */
function useSplitDraft(parent: TransactionDto | null, initial: SplitDraftRow[] | null | undefined, locale: string) {
  const [rows, setRows] = useState<SplitDraftRow[]>(initialRows);
  const [error, setError] = useState('');
  // The parts are in the parent's currency: its decimals (none for yen) read and write them.
  const currency = parent?.currency ?? null;
  const magnitudes = magnitudesOf(rows, locale, currency);

  useEffect(() => {
    if (parent) {
      // eslint-disable-next-line react-hooks/set-state-in-effect -- opening the dialog for a transaction starts a fresh draft of its parts
      setRows(initial && initial.length > 0 ? initial : initialRows());
      setError('');
    }
  }, [parent, initial]);

  /** Any edit clears the last refusal: it described rows that no longer exist. */
  const edit = useCallback((change: (current: SplitDraftRow[]) => SplitDraftRow[]) => {
    setError('');
    setRows(change);
  }, []);
  const update = useCallback(
    (key: number, patch: Partial<SplitDraftRow>) =>
      edit((current) => current.map((row) => (row.key === key ? { ...row, ...patch } : row))),
    [edit],
  );
  const remove = useCallback((key: number) => edit((current) => current.filter((r) => r.key !== key)), [edit]);

  /** Writes the amounts that changed (null keeps a part as typed). */
  function setAmounts(next: readonly (number | null)[]) {
    edit((current) =>
      current.map((row, i) => {
        const amount = next[i];
        return amount !== magnitudes[i] && amount !== null && amount !== undefined
          ? { ...row, amount: formatAmountInput(amount, locale, fieldDigits(currency)) }
          : row;
      }),
    );
  }
  return { rows, magnitudes, error, setError, edit, update, remove, setAmounts };
}

/** Moves focus on once the rows an auto-fill changed have rendered (focusNextEmptyField). */
function useFocusAfterAutoFill(rows: readonly SplitDraftRow[]) {
  const partsRef = useRef<HTMLDivElement>(null);
  const [filledIndex, setFilledIndex] = useState<number | null>(null);
  useEffect(() => {
    if (filledIndex === null || !partsRef.current) return;
    focusNextEmptyField(partsRef.current, filledIndex);
    setFilledIndex(null);
  }, [filledIndex, rows]);
  return { partsRef, focusAfterFill: setFilledIndex };
}

/**
 * After Auto-fill remaining, focus goes on to what is still to fill: the first empty amount or category from the
 * filled part's category onwards (then from the top), else Save Split. Description and note may stay empty.
 */
function focusNextEmptyField(parts: HTMLElement, filledIndex: number) {
  const groups = Array.from(parts.querySelectorAll<HTMLElement>('[data-split-part]'));
  // Each part's first two inputs are its Amount and its Category; start after the filled amount.
  const fields = groups.flatMap((group) => Array.from(group.querySelectorAll<HTMLInputElement>('input')).slice(0, 2));
  const start = filledIndex * 2 + 1;
  const empty = [...fields.slice(start), ...fields.slice(0, start)].find((field) => field.value.trim() === '');
  if (empty) empty.focus();
  else parts.closest('form')?.querySelector<HTMLButtonElement>('button[type="submit"]')?.focus();
}

interface SplitToolsProps {
  currency: string | null;
  parentAmount: number;
  magnitudes: readonly (number | null)[];
  remainder: number;
  canAutoFill: boolean;
  adjustment: LastPartAdjustment | null;
  onAdd: () => void;
  onAutoFill: () => void;
  onAdjust: () => void;
}

/** Add Split, Auto-fill remaining, the one-click fix of a leftover, and what remains to assign. */
function SplitTools({
  currency,
  parentAmount,
  magnitudes,
  remainder,
  canAutoFill,
  adjustment,
  onAdd,
  onAutoFill,
  onAdjust,
}: SplitToolsProps) {
  const balanced = remainder === 0;
  return (
    <>
      <Stack direction="row" sx={{ mt: 2, flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
        <Button variant="outlined" onClick={onAdd}>
          Add Split
        </Button>
        <Button variant="outlined" onClick={onAutoFill} disabled={!canAutoFill}>
          Auto-fill remaining
        </Button>
        {adjustment && (
          <Button variant="outlined" onClick={onAdjust}>
            {adjustment.label}
          </Button>
        )}
        <Typography
          role="status"
          aria-live="polite"
          sx={{ ml: { sm: 'auto' }, fontWeight: 600, color: balanced ? 'success.main' : 'error.main' }}
        >
          Remaining: {formatMoney(remainder, { currency })} of {formatMoney(Math.abs(parentAmount), { currency })}
        </Typography>
      </Stack>
      {!balanced && !canAutoFill && !adjustment && magnitudes.some((m) => m !== null && m > 0) && (
        <Typography variant="body2" color="text.secondary" sx={{ mt: 1 }}>
          The parts must add up to the original exactly before the split can be saved.
        </Typography>
      )}
    </>
  );
}

interface SplitRowsProps {
  rows: SplitDraftRow[];
  categoryNames: readonly string[];
  parentDescription: string;
  currency: string | null;
  onChange: (key: number, patch: Partial<SplitDraftRow>) => void;
  onRemove: (key: number) => void;
}

/** A row of fields per part (two at least); a reserved category name is refused under its field. */
function SplitRows({ rows, categoryNames, parentDescription, currency, onChange, onRemove }: SplitRowsProps) {
  return (
    <Stack spacing={2} sx={{ pt: 1 }}>
      {rows.map((row, index) => (
        <SplitRowFields
          key={row.key}
          row={row}
          index={index}
          categoryNames={categoryNames}
          parentDescription={parentDescription}
          currency={currency}
          canRemove={rows.length > 2}
          categoryError={
            isReservedCategoryName(row.category) ? reservedCategoryOnTransactionMessage(row.category) : undefined
          }
          onChange={onChange}
          onRemove={onRemove}
        />
      ))}
    </Stack>
  );
}

function ParentLine({ parent }: { parent: TransactionDto }) {
  return (
    <Typography variant="body2" sx={{ mb: 2 }}>
      {parent.postDate} · {parent.description} ·{' '}
      <strong>{formatMoney(parent.amount, { currency: parent.currency })}</strong>
    </Typography>
  );
}
