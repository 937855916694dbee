import { formatAmountInput, minorUnitsOf } from '../../../shared/money';
import { signedSplitAmounts, validateSplit } from '../../../shared/splits';
import { fieldDigits, readAmountField } from '../../lib/amountField';
import type { TransactionDto } from '../../../shared/schemas/transactions';

/** One editable row of the split dialog; the amount is the magnitude as typed. */
export interface SplitDraftRow {
  key: number;
  amount: string;
  category: string;
  description: string;
  splitNote: string;
}

let nextKey = 1;

export function blankRow(): SplitDraftRow {
  return { key: nextKey++, amount: '', category: '', description: '', splitNote: '' };
}

/** The dialog starts with two blank rows (a split has two parts at least). */
export function initialRows(): SplitDraftRow[] {
  return [blankRow(), blankRow()];
}

/** Rows prefilled from an existing split's parts (editing a split), amounts in the browser's notation. */
export function rowsFromChildren(children: readonly TransactionDto[], locale: string): SplitDraftRow[] {
  const rows = children.map((child) => ({
    key: nextKey++,
    amount: formatAmountInput(Math.abs(child.amount), locale, fieldDigits(child.currency)),
    category: child.category ?? '',
    description: child.description,
    splitNote: child.splitNote ?? '',
  }));
  while (rows.length < 2) rows.push(blankRow());
  return rows;
}

/**
 * A typed magnitude in minor units of `currency` (the parent's): null when blank, NaN when it is not a
 * valid amount of 0 or more.
 */
export function rowMagnitude(row: SplitDraftRow, locale: string, currency: string | null = null): number | null {
  const read = readAmountField(row.amount, locale, { unsigned: true, currency });
  if (!read.ok) return Number.NaN;
  return read.cents;
}

/** Magnitudes for the shared split helpers: blank is null, an invalid amount counts as nothing assigned. */
export function magnitudesOf(
  rows: readonly SplitDraftRow[],
  locale: string,
  currency: string | null = null,
): (number | null)[] {
  return rows.map((row) => {
    const m = rowMagnitude(row, locale, currency);
    return m !== null && Number.isNaN(m) ? 0 : m;
  });
}

/** One part as the server takes it: signed cents (the parent's sign), trimmed text, blank text left out. */
export interface SplitPart {
  amount: number;
  category: string;
  description?: string;
  splitNote?: string;
}

/**
 * The rows -> the parts to send: a row is a part once it has an amount and a category; the parts
 * are checked with the shared split rule (at least two, each non-zero, summing to the parent).
 */
export function splitRequest(
  rows: readonly SplitDraftRow[],
  parentAmount: number,
  locale: string,
  currency: string | null = null,
): { ok: true; splits: SplitPart[] } | { ok: false; message: string } {
  const counted = rows.flatMap((row) => {
    const magnitude = rowMagnitude(row, locale, currency);
    return magnitude !== null && !Number.isNaN(magnitude) && row.category.trim() !== '' ? [{ row, magnitude }] : [];
  });
  const amounts = signedSplitAmounts(
    parentAmount,
    counted.map((c) => c.magnitude),
  );
  const splits = counted.map(({ row }, i): SplitPart => {
    const part: SplitPart = { amount: amounts[i] ?? 0, category: row.category.trim() };
    if (row.description.trim()) part.description = row.description.trim();
    if (row.splitNote.trim()) part.splitNote = row.splitNote.trim();
    return part;
  });
  const check = validateSplit(parentAmount, splits, currency ? minorUnitsOf(currency) : 2);
  return check.ok ? { ok: true, splits } : { ok: false, message: check.message };
}
