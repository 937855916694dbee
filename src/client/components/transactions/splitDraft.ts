import { centsToDecimalString, parseDecimalToCents } from '../../../shared/money';
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

/** Rows prefilled from an existing split's parts (editing a split). */
export function rowsFromChildren(children: readonly TransactionDto[]): SplitDraftRow[] {
  const rows = children.map((child) => ({
    key: nextKey++,
    amount: centsToDecimalString(Math.abs(child.amount)),
    category: child.category ?? '',
    description: child.description,
    splitNote: child.splitNote ?? '',
  }));
  while (rows.length < 2) rows.push(blankRow());
  return rows;
}

/** A typed magnitude in cents: null when blank, NaN when it is not a valid amount of 0 or more. */
export function rowMagnitude(row: SplitDraftRow): number | null {
  if (!row.amount.trim()) return null;
  const cents = parseDecimalToCents(row.amount);
  return cents === null || cents < 0 ? Number.NaN : cents;
}

/** Magnitudes for the shared split helpers: blank is null, an invalid amount counts as nothing assigned. */
export function magnitudesOf(rows: readonly SplitDraftRow[]): (number | null)[] {
  return rows.map((row) => {
    const m = rowMagnitude(row);
    return m !== null && Number.isNaN(m) ? 0 : m;
  });
}
