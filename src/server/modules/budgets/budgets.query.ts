import type { EntityManager } from '@mikro-orm/knex';
import type { OverviewGroup, OverviewRowKey } from '../../../shared/budget';
import { categoryKeyOf } from '../../../shared/envelopes/envelopes';
import { countedRowSql, selectRows, TRANSACTION_TABLE, type SqlCount } from '../../db/sql';

interface GroupRow {
  category_key: string | null;
  type: string;
  counted: number | boolean;
  part: number | boolean;
  n: SqlCount;
  total: number | string | null;
  row_keys: string | null;
}

/** `YYYY-MM-DD:id,...` (string_agg below) as row keys. */
function rowKeys(text: string | null): OverviewRowKey[] {
  if (!text) return [];
  return text.split(',').map((entry) => ({ postDate: entry.slice(0, 10), id: Number(entry.slice(11)) }));
}

/**
 * The user's rows between the dates grouped as overviewFromGroups (src/shared/budget) reads
 * them: one GROUP BY pass, each group's count, signed total and (for counted rows) its row keys
 * newest first, instead of every row as an object. Plain SQL both SQLite and PostgreSQL run.
 */
export async function selectOverviewGroups(em: EntityManager, userId: number, startDate: string, endDate: string): Promise<OverviewGroup[]> {
  const counted = countedRowSql('t');
  const part = 'case when t.parent_id is null then 0 else 1 end';
  const rows = await selectRows<GroupRow>(
    em,
    `select c.name_key as category_key, t.type, case when ${counted} then 1 else 0 end as counted, ${part} as part,
            count(*) as n, sum(t.amount) as total,
            string_agg(case when ${counted} then t.post_date || ':' || cast(t.id as text) end, ',' order by t.post_date desc, t.id desc) as row_keys
       from ${TRANSACTION_TABLE} t left join category c on c.id = t.category_id
      where t.user_id = ? and t.post_date >= ? and t.post_date <= ?
      group by c.name_key, t.type, case when ${counted} then 1 else 0 end, ${part}`,
    [userId, startDate, endDate],
  );
  return rows.map((row) => ({
    categoryKey: categoryKeyOf(row.category_key),
    type: row.type,
    counted: Boolean(Number(row.counted)),
    part: Boolean(Number(row.part)),
    count: Number(row.n),
    total: Number(row.total ?? 0),
    rows: rowKeys(row.row_keys),
  }));
}
