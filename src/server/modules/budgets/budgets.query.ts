import type { EntityManager } from '@mikro-orm/knex';
import type { OverviewCountedRow, OverviewGroup } from '../../../shared/budget';
import { categoryKeyOf } from '../../../shared/envelopes/envelopes';
import { countedRowSql, dialectOf, selectRows, TRANSACTION_TABLE, type SqlCount, type TextAggregate } from '../../db/sql';
import { countTransactions, selectTransactions, selectTransactionsJsonWith, tooManyRows } from '../transactions/transactions.query';
import { MAX_LIST_ROWS } from '../../../shared/limits';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import { isCountedTransaction } from '../../../shared/transactions/counted';

/** The user's category keys by category id (a row without a category is 'uncategorized'). */
export async function selectCategoryKeys(em: EntityManager, userId: number): Promise<(categoryId: number | null) => string> {
  const rows = await selectRows<{ id: number; name_key: string }>(em, 'select c.id, c.name_key from category c where c.user_id = ?', [userId]);
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

/**
 * An aggregate beside the overview's transactions JSON, one entry per row in list order: id,
 * category id (empty when none), 1 when counted, 1 when a split part, amount and type, joined
 * by U+001F, entries by U+001E (control characters no stored text holds: every text input refuses them).
 */
export const OVERVIEW_ROWS_AGGREGATE = {
  alias: 'overview_rows',
  item: `cast(s.id as text) || char(31) || coalesce(cast(s.category_id as text), '') || char(31) || (case when ${countedRowSql('s')} then '1' else '0' end)
    || char(31) || (case when s.parent_id is null then '0' else '1' end) || char(31) || cast(s.amount as text) || char(31) || s.type`,
  separator: '\u001e',
} as const satisfies TextAggregate;

/** The overview's rows read once: their JSON, their groups and their counted rows. */
export interface OverviewRows {
  json: () => string;
  groups: OverviewGroup[];
  countedRows: OverviewCountedRow[];
  transactions?: TransactionDto[];
}

/**
 * OVERVIEW_ROWS_AGGREGATE's text as overviewFromGroups takes it: the groups selectOverviewGroups
 * would answer, and the counted rows in list order. Groups are null when a running total is not
 * a safe integer (the database's sums are exact: ask it then).
 */
export function overviewRowsFromText(
  text: string | null,
  categoryKey: (categoryId: number | null) => string,
): { groups: OverviewGroup[] | null; countedRows: OverviewCountedRow[] } {
  const countedRows: OverviewCountedRow[] = [];
  if (!text) return { groups: [], countedRows };
  const groups = new Map<string, OverviewGroup>();
  let exact = true;
  for (const entry of text.split('\u001e')) {
    const [id, category, counted, part, amount, ...type] = entry.split('\u001f');
    const key = categoryKey(category ? Number(category) : null);
    const typeText = type.join('\u001f');
    const groupKey = `${key}\u001f${counted}${part}\u001f${typeText}`;
    let group = groups.get(groupKey);
    if (group === undefined) {
      group = { categoryKey: key, type: typeText, counted: counted === '1', part: part === '1', count: 0, total: 0 };
      groups.set(groupKey, group);
    }
    group.count += 1;
    group.total += Number(amount);
    if (!Number.isSafeInteger(group.total)) exact = false;
    if (counted === '1') countedRows.push({ id: Number(id), categoryKey: key });
  }
  return { groups: exact ? [...groups.values()] : null, countedRows };
}

/**
 * The overview's transactions between the dates, read once, with the groups overviewFromGroups
 * sums (selectOverviewGroups' answer) and the counted rows in list order; over MAX_LIST_ROWS
 * rows is refused (tooManyRows with `how`) before any row is read. SQLite counts the rows on its
 * covering index, then writes the JSON and lists every row's id, category, flags, amount and
 * type in one pass over rows already sorted; the groups are summed from that list here (the
 * GROUP BY pass cost about half as much as writing the JSON: same-run probe on a year of 25,000
 * rows, 37 ms of CPU beside 82 ms). PostgreSQL writes JSON more slowly than its driver builds
 * rows (see selectTransactionsJson), so there the groups come from the GROUP BY and the rows are
 * read as objects and stringified (same-run probe at 100,000 rows: database JSON 900 ms, rows
 * 640-670 ms).
 */
export async function selectOverviewRows(
  em: EntityManager,
  userId: number,
  startDate: string,
  endDate: string,
  categoryKey: (categoryId: number | null) => string,
  how: string,
): Promise<OverviewRows> {
  const where = 't.post_date >= ? and t.post_date <= ?';
  const empty: OverviewRows = { json: () => '[]', groups: [], countedRows: [], transactions: [] };
  if (dialectOf(em) === 'sqlite') {
    const count = await countTransactions(em, userId, where, [startDate, endDate]);
    if (count > MAX_LIST_ROWS) throw tooManyRows(count, how);
    if (count === 0) return empty;
    const { json, overview_rows } = await selectTransactionsJsonWith(em, userId, where, [startDate, endDate], null, [OVERVIEW_ROWS_AGGREGATE]);
    const { groups, countedRows } = overviewRowsFromText(overview_rows, categoryKey);
    return { json: () => json, groups: groups ?? (await selectOverviewGroups(em, userId, startDate, endDate, categoryKey)), countedRows };
  }
  const groups = await selectOverviewGroups(em, userId, startDate, endDate, categoryKey);
  const count = groups.reduce((sum, group) => sum + group.count, 0);
  if (count > MAX_LIST_ROWS) throw tooManyRows(count, how);
  if (count === 0) return empty;
  const transactions = await selectTransactions(em, userId, where, [startDate, endDate]);
  const counted = transactions.filter(isCountedTransaction).map((tx) => ({ id: tx.id, categoryKey: categoryKeyOf(tx.category) }));
  return { json: () => JSON.stringify(transactions), groups, countedRows: counted, transactions };
}
