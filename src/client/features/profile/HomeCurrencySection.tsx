import { Button, Paper, Stack, Typography } from '@mui/material';
import { OutcomeAlert, type Outcome } from '../../components/OutcomeAlert';
import { useState } from 'react';
import { currencyOfLocale } from '../../../shared/money/currencies';
import { CurrencyField } from '../../components/CurrencyField';
import { useAuth } from '../../lib/auth';
import { useHomeCurrency } from '../../lib/currency';
import { serverMessage, trpc } from '../../lib/trpc';

/**
 * The home currency: what reports, the budget overview, envelopes and search totals are converted
 * into. Changing it converts those figures again and changes nothing stored, so it asks for no password.
 */
export function HomeCurrencySection() {
  const { user, updateUser } = useAuth();
  const home = useHomeCurrency();
  // Not chosen yet (accounts from before currencies): offered from the browser's language, as at sign-up.
  const [choice, setChoice] = useState<string>(() =>
    user?.homeCurrencyChosen === false ? currencyOfLocale(navigator.language) : home,
  );
  const [outcome, setOutcome] = useState<Outcome>(null);
  const utils = trpc.useUtils();
  const save = trpc.auth.setHomeCurrency.useMutation();

  async function submit() {
    setOutcome(null);
    try {
      const updated = await save.mutateAsync({ homeCurrency: choice });
      updateUser(updated);
      // Every combined figure is converted anew.
      await utils.invalidate();
      setOutcome({
        severity: 'success',
        text: `Figures that combine accounts are now shown in ${updated.homeCurrency}`,
      });
    } catch (failure) {
      setOutcome({ severity: 'error', text: serverMessage(failure, 'Failed to change the home currency') });
    }
  }

  return (
    <Paper component="section" aria-labelledby="home-currency-heading" sx={{ p: { xs: 2, sm: 3 }, mt: 3 }}>
      <Typography id="home-currency-heading" variant="h2" gutterBottom>
        Home currency
      </Typography>
      <Typography variant="body2" color="text.secondary" gutterBottom>
        Reports, budgets, envelopes and search totals convert other currencies into this one at each transaction’s own
        date’s rate. Changing it converts again; nothing stored changes.
        {user && !user.homeCurrencyChosen
          ? ` Your accounts from before currencies are in ${home} until you choose: the first choice relabels them.`
          : ''}
      </Typography>
      <Stack direction={{ xs: 'column', sm: 'row' }} sx={{ gap: 2, mt: 2, alignItems: { sm: 'center' } }}>
        <CurrencyField label="Home currency" value={choice} onChange={setChoice} sx={{ minWidth: 240 }} />
        <Button
          variant="outlined"
          disabled={save.isPending || (choice === home && user?.homeCurrencyChosen !== false)}
          onClick={() => void submit()}
        >
          {save.isPending ? 'Saving…' : 'Save home currency'}
        </Button>
      </Stack>
      <OutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} />
    </Paper>
  );
}
