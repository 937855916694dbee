import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { TextLink } from '../../components/RouterLinks';
import { transactionSearchOf } from '../transactions/searchParams';
import { figure } from './format';
import { useReportCurrency } from './reportCurrency';

/** A figure of a report's table that opens the Transactions screen on exactly its rows. */
export function FigureLink({ cents, filters, label }: { cents: number; filters: TransactionFilters; label?: string }) {
  const currency = useReportCurrency();
  return (
    <TextLink
      to="/transactions"
      search={transactionSearchOf(filters)}
      underline="hover"
      aria-label={label}
      sx={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
    >
      {figure(cents, currency)}
    </TextLink>
  );
}
