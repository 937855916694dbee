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
import { readsOf } from '../../db/transaction-reads';
import { User } from '../users/user.entity';

/** The rows a report sums: its dates, and the account it names (404 when the user has none of that name). */
async function reportRows(
  em: EntityManager,
  userId: number,
  input: { startDate: string; endDate: string; account?: string },
): Promise<{ startDate: string; endDate: string; accountId?: number }> {
  const { startDate, endDate } = input;
  return input.account
    ? { startDate, endDate, accountId: (await findAccountByName(em, userId, input.account)).id }
    : { startDate, endDate };
}

/** Income, expenses, net and per-category sums for every month of the range (src/shared/reports/monthly.ts). */
export async function monthlyReport(
  em: EntityManager,
  userId: number,
  input: MonthlyReportInput,
): Promise<MonthlyReportRow[]> {
  const aggregates = await readsOf(em).monthlySums(userId, await reportRows(em, userId, input));
  const currency = (await em.findOneOrFail(User, { id: userId })).homeCurrency;
  const noRate = new Map<string, number>();
  for (const group of aggregates) noRate.set(group.month, (noRate.get(group.month) ?? 0) + (group.missing ?? 0));
  return buildMonthlyReport(input.startDate, input.endDate, aggregates).map((row) => ({
    ...row,
    currency,
    noRate: noRate.get(row.month) ?? 0,
  }));
}

/** The payees with the largest totals (by magnitude) in the range (src/shared/reports/payees.ts). */
export async function payeeReport(em: EntityManager, userId: number, input: PayeeReportInput): Promise<PayeeTotal[]> {
  const groups = await readsOf(em).descriptionSums(userId, await reportRows(em, userId, input));
  const currency = (await em.findOneOrFail(User, { id: userId })).homeCurrency;
  const ranked = rankPayees(
    groups.map(({ description, count, total, missing }) => {
      const name = payeeName(description);
      return { name, key: payeeKey(name), count, total, missing };
    }),
    input.limit,
  );
  return ranked.map((payee) => ({ ...payee, currency, noRate: payee.noRate ?? 0 }));
}
