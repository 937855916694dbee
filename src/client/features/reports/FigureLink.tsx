import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { TextLink } from '../../components/RouterLinks';
import { transactionSearchOf } from '../transactions/searchParams';
import { figure } from './format';

/** A figure of a report's table that opens the Transactions screen on exactly its rows. */
export function FigureLink({ cents, filters, label }: { cents: number; filters: TransactionFilters; label?: string }) {
  return (
    <TextLink
      to="/transactions"
      search={transactionSearchOf(filters)}
      underline="hover"
      aria-label={label}
      sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
    >
      {figure(cents)}
    </TextLink>
  );
}
