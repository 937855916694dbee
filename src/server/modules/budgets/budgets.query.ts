import type { EntityManager } from '@mikro-orm/knex';
import type { OverviewCountedRow, OverviewGroup } from '../../../shared/budget';
import { categoryKeyOf } from '../../../shared/envelopes/envelopes';
import {
  countedRowSql,
  dialectOf,
  joinJsonRowBytes,
  selectRows,
  TRANSACTION_TABLE,
  type SqlCount,
  type TextAggregate,
} from '../../db/sql';
import { NEWEST_FIRST, selectTransactionsJsonBytesWith, transactionJsonSql } from '../transactions/transactions.query';
import { TRANSACTION_COLUMNS, TRANSACTION_FROM } from '../transactions/transaction.dto';
import { RawJsonBytes } from '../../http/raw-json';

/** The user's category keys by category id (a row without a category is 'uncategorized'). */
export async function selectCategoryKeys(
  em: EntityManager,
  userId: number,
): Promise<(categoryId: number | null) => string> {
  const rows = await selectRows<{ id: number; name_key: string }>(
    em,
    'select c.id, c.name_key from category c where c.user_id = ?',
    [userId],
  );
  const keys = new Map(rows.map((row) => [row.id, categoryKeyOf(row.name_key)]));
  return (categoryId) => (categoryId === null ? categoryKeyOf(null) : (keys.get(categoryId) ?? categoryKeyOf(null)));
}

interface GroupRow {
  category_id: number | null;
  type: string;
  counted: SqlCount;
  part: SqlCount;
  n: SqlCount;
  total: number | string | null;
}

/**
 * The user's rows between the dates summed as overviewFromGroups (src/shared/budget) reads
 * them: one GROUP BY pass over the transaction table alone (count and signed total per
 * category, type, split parent or not, split part or not), never a row as an object. Plain SQL
 * both SQLite and PostgreSQL run. A sum too large to be exact in JavaScript is a RangeError.
 */
export async function selectOverviewGroups(
  em: EntityManager,
  userId: number,
  startDate: string,
  endDate: string,
  categoryKey: (categoryId: number | null) => string,
): Promise<OverviewGroup[]> {
  const counted = `case when ${countedRowSql('t')} then 1 else 0 end`;
  const part = 'case when t.parent_id is null then 0 else 1 end';
  const rows = await selectRows<GroupRow>(
    em,
    `select t.category_id, t.type, ${counted} as counted, ${part} as part, count(*) as n, sum(t.amount) as total
       from ${TRANSACTION_TABLE} t
      where t.user_id = ? and t.post_date >= ? and t.post_date <= ?
      group by t.category_id, t.type, ${counted}, ${part}`,
    [userId, startDate, endDate],
  );
  return rows.map((row) => {
    const total = Number(row.total ?? 0);
    if (!Number.isSafeInteger(total)) throw new RangeError('A sum is too large to be exact');
    return {
      categoryKey: categoryKey(row.category_id),
      type: row.type,
      counted: Number(row.counted) === 1,
      part: Number(row.part) === 1,
      count: Number(row.n),
      total,
    };
  });
}

/** An aggregate beside the overview's transactions JSON: each counted row as `id:categoryId` (categoryId empty when none), in list order. */
export const COUNTED_ROWS_AGGREGATE = {
  alias: 'counted_rows',
  item: `case when ${countedRowSql('s')} then cast(s.id as text) || ':' || coalesce(cast(s.category_id as text), '') end`,
  separator: ',',
} as const satisfies TextAggregate;

/**
 * The overview's transactions between the dates as JSON bytes (RawJsonBytes: the REST answer
 * sends them as they are, and tRPC's in place of a placeholder; megabytes for a year),
 * and its counted rows in the same list order. SQLite writes the JSON and lists the counted rows
 * in one pass over rows already sorted, and hands the JSON over as a blob, never decoded into a
 * string. PostgreSQL writes each row's JSON with the search's expression (transactionJsonSql:
 * to_json for free text only, cheaper for the database than row_to_json), beside the few columns the counted rows need, and the server joins the texts.
 */
export async function selectOverviewRows(
  em: EntityManager,
  userId: number,
  startDate: string,
  endDate: string,
  categoryKey: (categoryId: number | null) => string,
): Promise<{ json: RawJsonBytes; countedRows: OverviewCountedRow[] }> {
  const where = 't.post_date >= ? and t.post_date <= ?';
  if (dialectOf(em) === 'sqlite') {
    const { json, counted_rows } = await selectTransactionsJsonBytesWith(
      em,
      userId,
      where,
      [startDate, endDate],
      [COUNTED_ROWS_AGGREGATE],
    );
    return { json: new RawJsonBytes(json), countedRows: countedRows(counted_rows, categoryKey) };
  }
  const rows = await selectRows<{
    json: string;
    id: number | string;
    counted: boolean;
    category_id: number | string | null;
  }>(
    em,
    `select ${transactionJsonSql('postgresql')} as json, s.id, ${countedRowSql('s')} as counted, s.category_id
       from (select ${TRANSACTION_COLUMNS}, t.category_id from ${TRANSACTION_FROM} where t.user_id = ? and (${where}) order by ${NEWEST_FIRST}) s`,
    [userId, startDate, endDate],
  );
  const counted: OverviewCountedRow[] = [];
  for (const row of rows) {
    if (row.counted)
      counted.push({
        id: Number(row.id),
        categoryKey: categoryKey(row.category_id === null ? null : Number(row.category_id)),
      });
  }
  return { json: new RawJsonBytes([joinJsonRowBytes(rows)]), countedRows: counted };
}

/**
 * COUNTED_ROWS_AGGREGATE's text as the rows overviewFromGroups takes, read digit by digit (a
 * year holds tens of thousands of entries: no string is made for any of them).
 */
export function countedRows(
  text: string | null,
  categoryKey: (categoryId: number | null) => string,
): OverviewCountedRow[] {
  const rows: OverviewCountedRow[] = [];
  if (!text) return rows;
  const COMMA = 44;
  const COLON = 58;
  const ZERO = 48;
  let i = 0;
  while (i < text.length) {
    let id = 0;
    for (let c = text.charCodeAt(i); c !== COLON; c = text.charCodeAt(++i)) id = id * 10 + (c - ZERO);
    i += 1;
    let category: number | null = null;
    for (let c = text.charCodeAt(i); i < text.length && c !== COMMA; c = text.charCodeAt(++i))
      category = (category ?? 0) * 10 + (c - ZERO);
    i += 1;
    rows.push({ id, categoryKey: categoryKey(category) });
  }
  return rows;
}
