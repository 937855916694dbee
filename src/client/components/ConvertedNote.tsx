import { Alert, Typography } from '@mui/material';
import { useHomeCurrency } from '../lib/currency';
import { trpc } from '../lib/trpc';
import { TextLink } from './RouterLinks';

/** True when some account is in another currency than the home currency: combined figures are converted. */
export function useSeveralCurrencies(): boolean {
  const home = useHomeCurrency();
  const accounts = trpc.accounts.list.useQuery();
  return (accounts.data ?? []).some((account) => account.currency !== home);
}

/**
 * What a figure that combines accounts is: in the home currency, converted at each transaction's own
 * date's rate; and, when some transactions had no rate within 7 days, how many were left out (never
 * counted one to one) with a link to the Rates screen.
 */
export function ConvertedNote({ currency, noRate }: { currency?: string | null; noRate?: number | null }) {
  const home = useHomeCurrency();
  const several = useSeveralCurrencies();
  const code = currency ?? home;
  const missing = noRate ?? 0;
  return (
    <>
      {several && (
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }} data-testid="converted-note">
          {`Amounts in ${code}: other currencies converted at the rate of each transaction’s date.`}
        </Typography>
      )}
      {missing > 0 && (
        <Alert severity="warning" sx={{ mb: 2 }} data-testid="no-rate-note">
          {`${missing} transaction${missing === 1 ? '' : 's'} left out: no rate`}
          {` within 7 days of ${missing === 1 ? 'its' : 'their'} date converts ${missing === 1 ? 'it' : 'them'} into ${code}. `}
          <TextLink to="/rates">Add or import rates</TextLink>
        </Alert>
      )}
    </>
  );
}
