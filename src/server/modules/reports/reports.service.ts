import type { EntityManager } from '@mikro-orm/knex';
import {
  buildMonthlyReport,
  payeeKey,
  payeeName,
  rankPayees,
  type MonthlyReportRow,
  type PayeeTotal,
} from '../../../shared/reports';
import type { MonthlyReportInput, PayeeReportInput } from '../../../shared/schemas/reports';
import { findAccountByName } from '../accounts/accounts.service';
import { selectDescriptionGroups, selectMonthlyAggregates } from './reports.query';

/** The account filter of a report: an account name of the user (404 when there is none). */
async function accountFilter(em: EntityManager, userId: number, name: string | undefined): Promise<number | null> {
  return name ? (await findAccountByName(em, userId, name)).id : null;
}

/** Income, expenses, net and per-category sums for every month of the range (src/shared/reports/monthly.ts). */
export async function monthlyReport(
  em: EntityManager,
  userId: number,
  input: MonthlyReportInput,
): Promise<MonthlyReportRow[]> {
  const accountId = await accountFilter(em, userId, input.account);
  const aggregates = await selectMonthlyAggregates(em, userId, input.startDate, input.endDate, accountId);
  return buildMonthlyReport(input.startDate, input.endDate, aggregates);
}

/** The payees with the largest totals (by magnitude) in the range (src/shared/reports/payees.ts). */
export async function payeeReport(em: EntityManager, userId: number, input: PayeeReportInput): Promise<PayeeTotal[]> {
  const accountId = await accountFilter(em, userId, input.account);
  const groups = await selectDescriptionGroups(em, userId, input.startDate, input.endDate, accountId);
  return rankPayees(
    groups.map(({ description, count, total }) => {
      const name = payeeName(description);
      return { name, key: payeeKey(name), count, total };
    }),
    input.limit,
  );
}
