import { DEFAULT_CURRENCY } from '../../shared/money/currencies';
import { useAuth } from './auth';

/**
 * The signed-in user's home currency: figures that combine accounts are converted into it by the
 * server, and budgets are planned in it. The server's answers name their currency where they have one;
 * this is for what the client shows before or beside them (a budget's planned amounts, a new account).
 */
export function useHomeCurrency(): string {
  return useAuth().user?.homeCurrency ?? DEFAULT_CURRENCY;
}
