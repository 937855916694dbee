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
