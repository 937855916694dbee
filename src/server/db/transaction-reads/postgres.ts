import type { EntityManager } from '@mikro-orm/knex';
import { MAX_LIST_ROWS } from '../../../shared/limits';
import { payeeKey } from '../../../shared/reports/payees';
import {
  answerSides,
  joinJsonRowBytes,
  reportedRowSql,
  selectRows,
  TRANSACTION_TABLE,
  withUserScope,
  type SqlCount,
} from '../sql';
import type { JsonKind } from './fields';
import { TRANSACTION_FROM, TRANSACTION_SELECT } from './fields';
import type { JsonPage, OverviewRead, ReadOptions } from './index';
import { scopedPreparedRows } from './postgres-search';
import { NEWEST_FIRST, SqlTransactionReads, tooManyRows, type Paging } from './reads';
import { selectionWhere, type Selection, type Where } from './selection';

function postgresJson(kind: JsonKind, expression: string): string {
  if (kind === 'integer') return `coalesce(cast(${expression} as text), 'null')`;
  if (kind === 'boolean') return `case when ${expression} then 'true' else 'false' end`;
  // A word never needs escaping: quoted as it is, without to_json's cost per value.
  if (kind === 'word') return `coalesce('"' || ${expression} || '"', 'null')`;
  return `coalesce(to_json(${expression})::text, 'null')`;
}

/**
 * PostgreSQL: the database writes each row's JSON and the server joins the rows' texts into one
 * buffer; it has no payee_key(), so a payee filter becomes the list of the user's descriptions
 * whose payee key matches (computed here, by the same function).
 */
export class PostgresTransactionReads extends SqlTransactionReads {
  protected readonly json = postgresJson;

  protected containsSql(haystack: string, needle: string): string {
    return `strpos(${haystack}, ${needle}) > 0`;
  }

  protected async payeeWhere(em: EntityManager, userId: number, selection: Selection): Promise<Where | null> {
    if (selection.payee === undefined) return null;
    const key = payeeKey(selection.payee);
    const dates = [selection.startDate ?? '0000-01-01', selection.endDate ?? '9999-12-31'];
    const rows = await selectRows<{ description: string }>(
      em,
      `select distinct t.description from ${TRANSACTION_TABLE} t where t.user_id = ? and t.post_date >= ? and t.post_date <= ?`,
      [userId, ...dates],
    );
    const descriptions = rows.map((row) => row.description).filter((description) => payeeKey(description) === key);
    if (descriptions.length === 0) return { sql: '1 = 0', params: [] };
    return { sql: `t.description in (${descriptions.map(() => '?').join(', ')})`, params: descriptions };
  }

  /**
   * Outside a transaction (the REST search): scoped to the user and read in one round trip
   * (postgres-search.ts), the count and the rows in one statement, no row read over the cap.
   */
  override async pageJson(userId: number, selection: Selection, options: ReadOptions = {}): Promise<JsonPage> {
    if (this.em.getTransactionContext() !== undefined) return super.pageJson(userId, selection, options);
    // A payee is resolved to descriptions by a read of its own first: both in one scoped transaction.
    if (selection.payee !== undefined || options.order === 'written')
      return withUserScope(this.em, userId, (tem) =>
        new PostgresTransactionReads(tem).pageJson(userId, selection, options),
      );
    const where = selectionWhere({ containsSql: (h, n) => this.containsSql(h, n) }, userId, selection, null);
    const paging =
      options.limit !== undefined || options.offset !== undefined
        ? { limit: Math.min(options.limit ?? MAX_LIST_ROWS, MAX_LIST_ROWS), offset: options.offset ?? 0 }
        : null;
    // Unpaged, every row is read (or none, over the cap): the count is sent only beside no row.
    const rows = await scopedPreparedRows<{ total: SqlCount | null; json: string | null }>(
      this.em,
      userId,
      `with k as (select count(*) as n from ${TRANSACTION_FROM} where ${where.sql})
       select ${paging ? 'k.n' : 'case when r.json is null then k.n end'} as total, r.json from k left join lateral (
         select ${this.rowJson()} as json from (
           select ${TRANSACTION_SELECT} from ${TRANSACTION_FROM} where (${where.sql}) and k.n <= ?
            order by t.post_date desc, t.id desc${paging ? ' limit ? offset ?' : ''}
         ) s
       ) r on true`,
      [
        ...where.params,
        ...where.params,
        options.limit === undefined ? MAX_LIST_ROWS : Number.MAX_SAFE_INTEGER,
        ...(paging ? [paging.limit, paging.offset] : []),
      ],
    );
    const first = rows[0]?.total;
    const total = first === null || first === undefined ? rows.length : Number(first);
    if (options.limit === undefined && total > MAX_LIST_ROWS) throw tooManyRows(total, options.narrow);
    return { json: joinJsonRowBytes(rows), total };
  }

  protected async jsonArray(select: Where, rowJson: string, order: string, paging: Paging | null): Promise<Buffer> {
    const rows = await selectRows<{ json: string }>(
      this.em,
      `select ${rowJson} as json from (${select.sql}) s order by ${order}${paging ? ' limit ? offset ?' : ''}`,
      [...select.params, ...(paging ? [paging.limit, paging.offset] : [])],
    );
    return joinJsonRowBytes(rows);
  }

  /** Each row's JSON beside the few columns the counted rows need. */
  protected async overviewRows(
    userId: number,
    range: { startDate: string; endDate: string },
    categoryKey: (categoryId: number | null) => string,
  ): Promise<Omit<OverviewRead, 'groups'>> {
    const rows = await selectRows<{ json: string; id: number; counted: boolean; category_id: number | null }>(
      this.em,
      `select ${this.rowJson()} as json, s.id, ${reportedRowSql('s', '"isSplit"', answerSides('s'))} as counted, s.category_id
         from (select ${TRANSACTION_SELECT}, t.category_id from ${TRANSACTION_FROM}
           where t.user_id = ? and t.post_date >= ? and t.post_date <= ?) s
        order by ${NEWEST_FIRST}`,
      [userId, range.startDate, range.endDate],
    );
    const countedRows = rows
      .filter((row) => row.counted)
      .map((row) => ({ id: row.id, categoryKey: categoryKey(row.category_id) }));
    return { json: joinJsonRowBytes(rows), countedRows };
  }
}
