import { formatAmountInput } from '../../../shared/money';
import { readAmountField } from '../../lib/amountField';
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

/** SPEC: the dialog starts with two blank rows. */
export function initialRows(): SplitDraftRow[] {
  return [blankRow(), blankRow()];
}

/** Rows prefilled from an existing split's parts (editing a split), amounts in the browser's notation. */
export function rowsFromChildren(children: readonly TransactionDto[], locale: string): SplitDraftRow[] {
  const rows = children.map((child) => ({
    key: nextKey++,
    amount: formatAmountInput(Math.abs(child.amount), locale),
    category: child.category ?? '',
    description: child.description,
    splitNote: child.splitNote ?? '',
  }));
  while (rows.length < 2) rows.push(blankRow());
  return rows;
}

/** A typed magnitude in cents: null when blank, NaN when it is not a valid amount of 0 or more. */
export function rowMagnitude(row: SplitDraftRow, locale: string): number | null {
  const read = readAmountField(row.amount, locale, { unsigned: true });
  if (!read.ok) return Number.NaN;
  return read.cents;
}

/** Magnitudes for the shared split helpers: blank is null, an invalid amount counts as nothing assigned. */
export function magnitudesOf(rows: readonly SplitDraftRow[], locale: string): (number | null)[] {
  return rows.map((row) => {
    const m = rowMagnitude(row, locale);
    return m !== null && Number.isNaN(m) ? 0 : m;
  });
}
