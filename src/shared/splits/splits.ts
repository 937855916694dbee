/**
 * Split rules shared by the split dialog and the server (SPEC section 5). Amounts are
 * integer cents. In the dialog people type magnitudes; the server receives amounts
 * carrying the original transaction's sign.
 */
import { formatCents } from '../money';

export const MIN_SPLITS = 2;
/** The dialog enables submit while the remainder is within one cent (0.01). */
export const SPLIT_TOLERANCE_CENTS = 1;

export interface SplitEntryLike {
  amount: number | null | undefined;
  category: string | null | undefined;
}

export type SplitCheck =
  | { ok: true; entries: { amount: number; category: string }[] }
  | { ok: false; code: 'TOO_FEW_SPLITS' | 'SIGN_MISMATCH' | 'SUM_MISMATCH' | 'ZERO_AMOUNT'; message: string };

/** "Split amounts must sum to 45.67" (the magnitude of the original). */
export function sumMismatchMessage(parentAmount: number): string {
  return `Split amounts must sum to ${formatCents(Math.abs(parentAmount))}`;
}

/**
 * Only entries with both an amount and a category count; at least two must; each must be
 * non-zero with the parent's sign; together they must equal the parent exactly.
 */
export function validateSplit(parentAmount: number, entries: readonly SplitEntryLike[]): SplitCheck {
  const counted = entries
    .filter((e) => e.amount !== null && e.amount !== undefined && Number.isFinite(e.amount) && (e.category ?? '').trim() !== '')
    .map((e) => ({ amount: e.amount as number, category: (e.category as string).trim() }));
  if (counted.length < MIN_SPLITS) return { ok: false, code: 'TOO_FEW_SPLITS', message: 'At least 2 splits are required' };
  if (parentAmount === 0) return { ok: false, code: 'ZERO_AMOUNT', message: 'A transaction of 0.00 cannot be split' };
  if (counted.some((e) => e.amount === 0)) return { ok: false, code: 'ZERO_AMOUNT', message: 'Every split needs an amount other than 0.00' };
  const negative = parentAmount < 0;
  if (counted.some((e) => e.amount < 0 !== negative)) {
    return {
      ok: false,
      code: 'SIGN_MISMATCH',
      message: `Split amounts must be ${negative ? 'negative' : 'positive'} like the original transaction`,
    };
  }
  let sum = 0;
  for (const e of counted) sum += e.amount;
  if (sum !== parentAmount) return { ok: false, code: 'SUM_MISMATCH', message: sumMismatchMessage(parentAmount) };
  return { ok: true, entries: counted };
}

/** |parent| - sum of the typed magnitudes (positive: still to assign). */
export function splitRemainder(parentAmount: number, magnitudes: readonly (number | null)[]): number {
  let assigned = 0;
  for (const m of magnitudes) if (m !== null && Number.isFinite(m)) assigned += m;
  return Math.abs(parentAmount) - assigned;
}

export function canSubmitSplit(parentAmount: number, magnitudes: readonly (number | null)[], saving: boolean): boolean {
  if (saving) return false;
  return Math.abs(splitRemainder(parentAmount, magnitudes)) <= SPLIT_TOLERANCE_CENTS;
}

/** Puts the remainder into the first empty amount slot (when something is left to assign). */
export function autoFillRemainder(parentAmount: number, magnitudes: readonly (number | null)[]): (number | null)[] {
  const remainder = splitRemainder(parentAmount, magnitudes);
  const out = [...magnitudes];
  if (remainder <= 0) return out;
  const index = out.findIndex((m) => m === null);
  if (index >= 0) out[index] = remainder;
  return out;
}

/** Magnitudes as sent to the server: negative if the original was negative, else positive. */
export function signedSplitAmounts(parentAmount: number, magnitudes: readonly number[]): number[] {
  return magnitudes.map((m) => (parentAmount < 0 ? -Math.abs(m) : Math.abs(m)));
}
