import { formatMoney } from '../../../shared/money';
import { ROW_CLASS } from './rowStyles';

/**
 * An amount with its currency's symbol; money out is red with a minus sign ("−$4.50"). The red is
 * the theme's darker error shade in light mode (readable on a selected row) and the
 * lighter one in dark mode (rowStyles.tsx). A plain span: it is in every row of the table.
 */
export function Amount({
  cents,
  currency,
  text,
}: {
  cents: number;
  /** The amount's ISO 4217 code (its account's); the default currency when absent. */
  currency?: string | null;
  /** formatMoney(cents), when the caller has it already. */ text?: string;
}) {
  return (
    <span className={cents < 0 ? `${ROW_CLASS.amount} ${ROW_CLASS.negative}` : ROW_CLASS.amount}>
      {text ?? formatMoney(cents, { currency })}
    </span>
  );
}

/** "Paid €50.12": what a row in another currency was paid in (a card payment abroad), or null without one. */
export function originalAmountText(tx: {
  originalAmount: number | null;
  originalCurrency: string | null;
}): string | null {
  if (tx.originalAmount === null || tx.originalCurrency === null) return null;
  return `Paid ${formatMoney(tx.originalAmount, { currency: tx.originalCurrency })}`;
}

/** The original amount under a row's amount, small and muted; nothing for a row without one. */
export function OriginalAmount({ tx }: { tx: { originalAmount: number | null; originalCurrency: string | null } }) {
  const text = originalAmountText(tx);
  if (text === null) return null;
  return (
    <span className={ROW_CLASS.muted} style={{ display: 'block', lineHeight: 1.2 }}>
      {text}
    </span>
  );
}
