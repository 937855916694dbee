/**
 * Split rules shared by the split dialog and the server. Amounts are
 * integer cents. In the dialog people type magnitudes (inputs are min 0, step 0.01); the server
 * receives amounts carrying the original transaction's sign (`signedSplitAmounts`).
 *
 * The parts must sum to the parent exactly, so a split never creates or loses a cent: the
 * dialog keeps Submit disabled until the remainder is 0.00 (any tolerance would let people
 * press Save for a split the server then refuses), and offers to put a leftover into
 * the last part (`lastPartAdjustment`). `validateSplit`, run by the client before sending and
 * by the server, checks the same.
 */
import { centsToDecimalString, formatAmountInput, formatCents, minorUnitsOf, sumCents } from '../money';

export const MIN_SPLITS = 2;
/** The remainder Submit allows: none (the parts must sum to the original exactly). */
export const SPLIT_TOLERANCE_CENTS = 0;

export interface SplitEntryLike {
  amount: number | null | undefined;
  category: string | null | undefined;
}

export type SplitErrorCode = 'TOO_FEW_SPLITS' | 'SIGN_MISMATCH' | 'SUM_MISMATCH' | 'ZERO_AMOUNT';

export type SplitCheck =
  { ok: true; entries: { amount: number; category: string }[] } | { ok: false; code: SplitErrorCode; message: string };

export const TOO_FEW_SPLITS_MESSAGE = 'At least 2 splits are required';

/** "Split amounts must sum to 45.67": the original's magnitude in its currency's decimals, no grouping. */
export function sumMismatchMessage(parentAmount: number, digits = 2): string {
  return `Split amounts must sum to ${centsToDecimalString(Math.abs(parentAmount), digits)}`;
}

function isPresentAmount(amount: number | null | undefined): amount is number {
  return typeof amount === 'number' && Number.isFinite(amount);
}

/**
 * Checks split entries against the parent, in this order:
 * 1. only entries with both an amount and a non-blank category count; fewer than MIN_SPLITS
 *    -> TOO_FEW_SPLITS 'At least 2 splits are required';
 * 2. a parent of 0 cannot be split -> ZERO_AMOUNT;
 * 3. every counted amount must be non-zero -> ZERO_AMOUNT;
 * 4. every counted amount (signed cents, as sent to the server) must carry the parent's sign
 *    -> SIGN_MISMATCH;
 * 5. the amounts must sum to the parent exactly -> SUM_MISMATCH 'Split amounts must sum to 45.67'.
 * On success returns the counted entries with trimmed categories, in their original order.
 * Entries are assumed to hold integer cents (the zod schemas guarantee it at the edge).
 */
export function validateSplit(parentAmount: number, entries: readonly SplitEntryLike[], digits = 2): SplitCheck {
  const counted: { amount: number; category: string }[] = [];
  for (const entry of entries) {
    const category = (entry.category ?? '').trim();
    if (isPresentAmount(entry.amount) && category !== '') counted.push({ amount: entry.amount, category });
  }
  if (counted.length < MIN_SPLITS) return { ok: false, code: 'TOO_FEW_SPLITS', message: TOO_FEW_SPLITS_MESSAGE };
  const zero = centsToDecimalString(0, digits);
  if (parentAmount === 0)
    return { ok: false, code: 'ZERO_AMOUNT', message: `A transaction of ${zero} cannot be split` };
  if (counted.some((e) => e.amount === 0)) {
    return { ok: false, code: 'ZERO_AMOUNT', message: `Every split needs an amount other than ${zero}` };
  }
  const negative = parentAmount < 0;
  if (counted.some((e) => e.amount < 0 !== negative)) {
    return {
      ok: false,
      code: 'SIGN_MISMATCH',
      message: `Split amounts must be ${negative ? 'negative' : 'positive'} like the original transaction`,
    };
  }
  let sum: number | null;
  try {
    sum = sumCents(counted.map((e) => e.amount));
  } catch {
    sum = null; // out of the safe range (or not integer cents): cannot equal the parent
  }
  if (sum !== parentAmount)
    return { ok: false, code: 'SUM_MISMATCH', message: sumMismatchMessage(parentAmount, digits) };
  return { ok: true, entries: counted };
}

/** |parent| - Σ typed magnitudes, in cents (positive: still to assign; negative: over-assigned). Empty slots count as 0. */
export function splitRemainder(parentAmount: number, magnitudes: readonly (number | null)[]): number {
  let assigned = 0;
  for (const m of magnitudes) if (isPresentAmount(m)) assigned += m;
  return Math.abs(parentAmount) - assigned;
}

/** Submit is enabled unless saving or something is left to assign (or over-assigned). */
export function canSubmitSplit(parentAmount: number, magnitudes: readonly (number | null)[], saving: boolean): boolean {
  if (saving) return false;
  return Math.abs(splitRemainder(parentAmount, magnitudes)) <= SPLIT_TOLERANCE_CENTS;
}

/**
 * Puts the remainder into the first empty (null) amount slot when something is left to assign
 * (remainder > 0). Returns a new array; unchanged copy when there is no remainder or no empty slot.
 */
export function autoFillRemainder(parentAmount: number, magnitudes: readonly (number | null)[]): (number | null)[] {
  const out = [...magnitudes];
  const remainder = splitRemainder(parentAmount, magnitudes);
  if (remainder <= 0) return out;
  const index = out.findIndex((m) => m === null);
  if (index >= 0) out[index] = remainder;
  return out;
}

/** Magnitudes as sent to the server: negative if the original is negative, else positive (never -0). */
export function signedSplitAmounts(parentAmount: number, magnitudes: readonly number[]): number[] {
  return magnitudes.map((m) => {
    const magnitude = Math.abs(m);
    return parentAmount < 0 && magnitude !== 0 ? -magnitude : magnitude;
  });
}

export interface LastPartAdjustment {
  /** Index of the slot to change: the last one with an amount. */
  index: number;
  /** Its new magnitude in cents. */
  magnitude: number;
  /** "Add the remaining 0.01 to the last part" / "Take the extra 0.01 off the last part". */
  label: string;
}

/**
 * When every slot has an amount but they miss the original by `r`, offers to put `r` into the
 * last part (or take it off, while the part stays above 0). Null when there is nothing to fix,
 * an empty slot can take the remainder (Auto-fill does that), or no part can absorb it.
 */
export function lastPartAdjustment(
  parentAmount: number,
  magnitudes: readonly (number | null)[],
  /** The parent's currency: the remainder is written in its decimals (two without one). */
  currency: string | null = null,
): LastPartAdjustment | null {
  const remainder = splitRemainder(parentAmount, magnitudes);
  if (remainder === 0 || magnitudes.some((m) => m === null)) return null;
  let index = -1;
  for (let i = magnitudes.length - 1; i >= 0; i -= 1) {
    if (isPresentAmount(magnitudes[i])) {
      index = i;
      break;
    }
  }
  if (index < 0) return null;
  const magnitude = (magnitudes[index] as number) + remainder;
  if (magnitude <= 0) return null;
  const size = currency
    ? formatAmountInput(Math.abs(remainder), undefined, minorUnitsOf(currency))
    : formatCents(Math.abs(remainder));
  const label =
    remainder > 0 ? `Add the remaining ${size} to the last part` : `Take the extra ${size} off the last part`;
  return { index, magnitude, label };
}
