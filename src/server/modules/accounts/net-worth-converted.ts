/**
 * Net worth across currencies: each account's balance at the end of each month, in its own currency,
 * is worth that balance at the rate of the month's end (the latest within 7 days; the current month's
 * at its last day asked for). An account with no rate then is left out of that month and counted.
 * A balance is a holding, not a flow: it is valued when it is held, unlike income and spending, which
 * are converted at each transaction's own date.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { addDays } from '../../../shared/dates/calendar';
import { netWorthByMonth, type NetWorthPoint } from '../../../shared/accounts/net-worth';
import { minorUnitsOf } from '../../../shared/money/currencies';
import { convertAmount, findRate, RATE_WINDOW_DAYS } from '../../../shared/rates/lookup';
import { countedRowSql, selectRows, TRANSACTION_TABLE } from '../../db/sql';
import { ratesBetween } from '../rates/rates.service';

interface AccountRow {
  id: number;
  currency: string;
  opening_balance: number | string;
}

/** Each account's points (its own currency), from its opening balance and its counted rows per month. */
async function pointsByAccount(
  em: EntityManager,
  userId: number,
  accounts: readonly AccountRow[],
  months: readonly string[],
): Promise<Map<number, NetWorthPoint[]>> {
  const totals = await selectRows<{ account_id: number; month: string; total: number | string }>(
    em,
    `select t.account_id, substr(t.post_date, 1, 7) as month, sum(t.amount) as total from ${TRANSACTION_TABLE} t
      where t.user_id = ? and t.account_id is not null and t.post_date <= ? and ${countedRowSql('t')}
      group by t.account_id, substr(t.post_date, 1, 7)`,
    [userId, `${months.at(-1)}-31`],
  );
  const out = new Map<number, NetWorthPoint[]>();
  for (const account of accounts) {
    const own = totals
      .filter((row) => row.account_id === account.id)
      .map((row) => ({ month: row.month, total: Number(row.total) }));
    out.set(account.id, netWorthByMonth(Number(account.opening_balance), own, months));
  }
  return out;
}

/** The user's net worth per month in `home`, each account valued at the rate of the month's end (or `lastDay`). */
export async function convertedNetWorth(
  em: EntityManager,
  userId: number,
  home: string,
  months: readonly string[],
  lastDay: string,
): Promise<NetWorthPoint[]> {
  const accounts = await selectRows<AccountRow>(
    em,
    'select id, currency, opening_balance from account where user_id = ? order by id',
    [userId],
  );
  const points = await pointsByAccount(em, userId, accounts, months);
  const currencies = [...new Set([home, ...accounts.map((a) => a.currency)])];
  const first = months[0] ?? lastDay.slice(0, 7);
  const rates = await ratesBetween(em, currencies, addDays(`${first}-01`, -RATE_WINDOW_DAYS), lastDay);
  const toDigits = minorUnitsOf(home);
  return months.map((month, i) => {
    let netWorth = 0;
    let noRate = 0;
    let endDate = '';
    for (const account of accounts) {
      const point = points.get(account.id)?.[i];
      if (!point) continue;
      endDate = point.endDate;
      if (account.currency === home) {
        netWorth += point.netWorth;
        continue;
      }
      const day = point.endDate < lastDay ? point.endDate : lastDay;
      const found = findRate(rates, account.currency, home, day);
      if (!found) noRate += point.netWorth === 0 ? 0 : 1;
      else netWorth += convertAmount(point.netWorth, found.fraction, minorUnitsOf(account.currency), toDigits);
    }
    return { month, endDate: endDate || `${month}-01`, netWorth: netWorth === 0 ? 0 : netWorth, noRate };
  });
}
