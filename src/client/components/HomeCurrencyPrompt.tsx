import { Alert } from '@mui/material';
import { useRouterState } from '@tanstack/react-router';
import { useAuth } from '../lib/auth';
import { ButtonLink } from './RouterLinks';

/**
 * Someone whose accounts predate currencies has a home currency nobody chose (the default): until they
 * choose one on Profile, every screen but Profile asks them once, above its content.
 */
export function HomeCurrencyPrompt() {
  const { user } = useAuth();
  const path = useRouterState({ select: (state) => state.location.pathname });
  if (!user || user.homeCurrencyChosen || path === '/profile') return null;
  return (
    <Alert
      severity="info"
      role="status"
      sx={{ mb: 2 }}
      action={
        <ButtonLink to="/profile" hash="home-currency-heading" color="inherit" size="small">
          Choose
        </ButtonLink>
      }
    >
      Choose your home currency: the one reports, budgets and totals are shown in. Your accounts are in{' '}
      {user.homeCurrency} until you do.
    </Alert>
  );
}
