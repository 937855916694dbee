import { accountRoutes } from '../modules/accounts/accounts.rest';
import { budgetRoutes } from '../modules/budgets/budgets.rest';
import { categoryRoutes } from '../modules/categories/categories.rest';
import { envelopeRoutes } from '../modules/envelopes/envelopes.rest';
import { historyRoutes } from '../modules/history/history.rest';
import { importProfileRoutes } from '../modules/import/import-profile.rest';
import { reportRoutes } from '../modules/reports/reports.rest';
import { rateRoutes } from '../modules/rates/rates.rest';
import { ruleRoutes } from '../modules/rules/rules.rest';
import { scheduleRoutes } from '../modules/schedules/schedules.rest';
import { userDataRoutes } from '../modules/user-data/user-data.rest';
import { transactionRoutes } from '../modules/transactions/transactions.rest';
import { transferRoutes } from '../modules/transfers/transfers.rest';
import { settingsRoutes } from '../modules/users/settings.rest';
import { planRoutes } from '../modules/plan/plan.rest';
import type { RestRoute } from './rest-route';

/** Every REST adapter of a signed-in user's data, in one list (registered, documented, isolation-tested). */
export const domainRoutes: readonly RestRoute[] = [
  ...transactionRoutes,
  ...categoryRoutes,
  ...accountRoutes,
  ...budgetRoutes,
  ...envelopeRoutes,
  ...importProfileRoutes,
  ...reportRoutes,
  ...userDataRoutes,
  ...ruleRoutes,
  ...scheduleRoutes,
  ...historyRoutes,
  ...transferRoutes,
  ...settingsRoutes,
  ...rateRoutes,
  ...planRoutes,
];
