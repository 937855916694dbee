/**
 * Search bounds on amounts are magnitudes (min and max compare the amount's size), so
 * "-150" and "150" are the same bound, and Min -150 with Max -50 means sizes 50 to 150.
 */
export interface AmountBounds {
  minAmount?: number;
  maxAmount?: number;
}

/** Both bounds as magnitudes in cents, swapped when the lower one is the larger. */
export function magnitudeBounds(bounds: AmountBounds): AmountBounds {
  const min = bounds.minAmount === undefined ? undefined : Math.abs(bounds.minAmount);
  const max = bounds.maxAmount === undefined ? undefined : Math.abs(bounds.maxAmount);
  if (min !== undefined && max !== undefined && min > max) return { minAmount: max, maxAmount: min };
  const out: AmountBounds = {};
  if (min !== undefined) out.minAmount = min;
  if (max !== undefined) out.maxAmount = max;
  return out;
}
