import { formatMoney } from '../../../shared/money';
import { ROW_CLASS } from './rowStyles';

/**
 * Cents as value/100 with two decimals; money out is red with a minus sign. The red is
 * the theme's darker error shade in light mode (readable on a selected row) and the
 * lighter one in dark mode (rowStyles.tsx). A plain span: it is in every row of the table.
 */
export function Amount({
  cents,
  text,
}: {
  cents: number;
  /** formatMoney(cents), when the caller has it already. */ text?: string;
}) {
  return (
    <span className={cents < 0 ? `${ROW_CLASS.amount} ${ROW_CLASS.negative}` : ROW_CLASS.amount}>
      {text ?? formatMoney(cents)}
    </span>
  );
}
