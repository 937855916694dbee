import type { EntityManager } from '@mikro-orm/knex';
import type { MonthlyAggregate } from '../../../shared/reports';
import { selectRows } from '../transactions/transactions.query';
import { countedRowSql, monthSql, TRANSACTION_TABLE } from '../../db/sql';

/**
 * Report figures aggregated in SQL over counted rows (countedRowSql), never loaded row by
 * row. Plain SQL both SQLite and PostgreSQL run. The monthly sums group by day and category first, which the (user, date, category,
 * split, amount, account) index delivers already in order, then fold the days into months:
 * far cheaper than sorting every row by month.
 */
export async function selectMonthlyAggregates(
  em: EntityManager,
  userId: number,
  startDate: string,
  endDate: string,
  accountId: number | null,
): Promise<MonthlyAggregate[]> {
  const rows = await selectRows<{ month: string; category: string | null; money_in: number; money_out: number }>(
    em,
    `select m.month, c.name as category, m.money_in, m.money_out
       from (select ${monthSql('d.post_date')} as month, d.category_id, sum(d.money_in) as money_in, sum(d.money_out) as money_out
               from (select t.post_date, t.category_id,
                            sum(case when t.amount > 0 then t.amount else 0 end) as money_in,
                            sum(case when t.amount < 0 then -t.amount else 0 end) as money_out
                       from ${TRANSACTION_TABLE} t
                      where t.user_id = ? and t.post_date >= ? and t.post_date <= ? and ${countedRowSql('t')}${accountId === null ? '' : ' and t.account_id = ?'}
                      group by t.post_date, t.category_id) d
              group by ${monthSql('d.post_date')}, d.category_id) m
       left join category c on c.id = m.category_id`,
    accountId === null ? [userId, startDate, endDate] : [userId, startDate, endDate, accountId],
  );
  return rows.map((row) => ({
    month: row.month,
    category: row.category,
    moneyIn: row.money_in,
    moneyOut: row.money_out,
  }));
}

/**
 * Counted rows grouped by their exact description (plain SQL, no per-row function); the
 * service folds descriptions into payees, which are far fewer than rows.
 */
export async function selectDescriptionGroups(
  em: EntityManager,
  userId: number,
  startDate: string,
  endDate: string,
  accountId: number | null,
): Promise<{ description: string; count: number; total: number }[]> {
  return selectRows(
    em,
    `select t.description, count(*) as count, sum(t.amount) as total
       from ${TRANSACTION_TABLE} t
      where t.user_id = ? and t.post_date >= ? and t.post_date <= ? and ${countedRowSql('t')}${accountId === null ? '' : ' and t.account_id = ?'}
      group by t.description`,
    accountId === null ? [userId, startDate, endDate] : [userId, startDate, endDate, accountId],
  );
}
