import { accountsRouter } from '../modules/accounts/accounts.router';
import { authRouter } from '../modules/auth/auth.router';
import { budgetsRouter } from '../modules/budgets/budgets.router';
import { categoriesRouter } from '../modules/categories/categories.router';
import { envelopesRouter } from '../modules/envelopes/envelopes.router';
import { historyRouter } from '../modules/history/history.router';
import { planRouter } from '../modules/plan/plan.router';
import { reportsRouter } from '../modules/reports/reports.router';
import { rulesRouter } from '../modules/rules/rules.router';
import { ratesRouter } from '../modules/rates/rates.router';
import { schedulesRouter } from '../modules/schedules/schedules.router';
import { transactionsRouter } from '../modules/transactions/transactions.router';
import { transfersRouter } from '../modules/transfers/transfers.router';
import { settingsRouter } from '../modules/users/settings.router';
import { router } from './init';

export const appRouter = router({
  auth: authRouter,
  transactions: transactionsRouter,
  categories: categoriesRouter,
  accounts: accountsRouter,
  budgets: budgetsRouter,
  envelopes: envelopesRouter,
  reports: reportsRouter,
  rules: rulesRouter,
  schedules: schedulesRouter,
  history: historyRouter,
  transfers: transfersRouter,
  rates: ratesRouter,
  settings: settingsRouter,
  plan: planRouter,
});

export type AppRouter = typeof appRouter;
