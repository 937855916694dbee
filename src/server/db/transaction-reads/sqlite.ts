import type { EntityManager } from '@mikro-orm/knex';
import { MAX_LIST_ROWS } from '../../../shared/limits';
import { payeeKey } from '../../../shared/reports/payees';
import { readerOf } from '../read-worker/pool';
import { answerSides, reportedRowSql, selectRows } from '../sql';
import type { JsonKind } from './fields';
import { TRANSACTION_FROM, TRANSACTION_SELECT } from './fields';
import type { JsonPage, OverviewRead, ReadOptions } from './index';
import { NEWEST_FIRST, SqlTransactionReads, tooManyRows, type Paging } from './reads';
import { selectionWhere, type Selection, type Where } from './selection';

function sqliteJson(kind: JsonKind, expression: string): string {
  if (kind === 'integer') return `coalesce(cast(${expression} as text), 'null')`;
  if (kind === 'boolean') return `case when ${expression} then 'true' else 'false' end`;
  return `json_quote(${expression})`;
}

/** better-sqlite3 binds no booleans: SQLite stores them as 1 and 0. */
function bindable(params: readonly unknown[]): unknown[] {
  return params.map((value) => (typeof value === 'boolean' ? Number(value) : value));
}

/**
 * SQLite: the database writes each row's JSON and joins them into one text, returned as a blob
 * (its UTF-8 bytes, never a JavaScript string); a search that needs none of the app's SQL
 * functions is read on a worker thread (read-worker/).
 */
export class SqliteTransactionReads extends SqlTransactionReads {
  protected readonly json = sqliteJson;

  protected containsSql(haystack: string, needle: string): string {
    return `instr(${haystack}, ${needle}) > 0`;
  }

  protected payeeWhere(_em: EntityManager, _userId: number, selection: Selection): Promise<Where | null> {
    if (selection.payee === undefined) return Promise.resolve(null);
    return Promise.resolve({ sql: 'payee_key(t.description) = ?', params: [payeeKey(selection.payee)] });
  }

  /** One statement answering one blob: the rows' JSON array (SQLite aggregates rows in the subquery's order). */
  private jsonArraySql(select: Where, rowJson: string, order: string, paging: Paging | null): string {
    return `select cast('[' || coalesce(group_concat(s.json, ','), '') || ']' as blob) as json
      from (select ${rowJson} as json from (${select.sql}) s order by ${order}${paging ? ' limit ? offset ?' : ''}) s`;
  }

  protected async jsonArray(select: Where, rowJson: string, order: string, paging: Paging | null): Promise<Buffer> {
    const [row] = await selectRows<{ json: Buffer }>(
      this.em,
      this.jsonArraySql(select, rowJson, order, paging),
      bindable([...select.params, ...(paging ? [paging.limit, paging.offset] : [])]),
    );
    return row?.json ?? Buffer.from('[]');
  }

  override async pageJson(userId: number, selection: Selection, options: ReadOptions = {}): Promise<JsonPage> {
    // The worker's connection has none of the app's SQL functions (fold(), payee_key()), and
    // reads outside any transaction on this connection.
    const plain = selection.description === undefined && selection.payee === undefined && options.order !== 'written';
    const reader = plain && this.em.getTransactionContext() === undefined ? readerOf(this.em) : null;
    if (!reader) return super.pageJson(userId, selection, options);
    const where = selectionWhere({ containsSql: (h, n) => this.containsSql(h, n) }, userId, selection, null);
    const paged = options.limit !== undefined || options.offset !== undefined;
    const paging = paged
      ? { limit: Math.min(options.limit ?? MAX_LIST_ROWS, MAX_LIST_ROWS), offset: options.offset ?? 0 }
      : null;
    const select = {
      sql: `select ${TRANSACTION_SELECT} from ${TRANSACTION_FROM} where ${where.sql}`,
      params: where.params,
    };
    const answer = await reader.countedJson({
      count: { sql: `select count(*) from ${TRANSACTION_FROM} where ${where.sql}`, params: bindable(where.params) },
      rows: {
        sql: this.jsonArraySql(select, this.rowJson(), NEWEST_FIRST, paging),
        params: bindable([...where.params, ...(paging ? [paging.limit, paging.offset] : [])]),
      },
      max: options.limit === undefined ? MAX_LIST_ROWS : Number.MAX_SAFE_INTEGER,
    });
    if (answer.json === null) throw tooManyRows(answer.total, options.narrow);
    return { json: answer.json, total: answer.total };
  }

  /** The rows' JSON and the counted rows (`id:categoryId`) in one pass over the range's rows in list order. */
  protected async overviewRows(
    userId: number,
    range: { startDate: string; endDate: string },
    categoryKey: (categoryId: number | null) => string,
  ): Promise<Omit<OverviewRead, 'groups'>> {
    const counted = `case when ${reportedRowSql('s', '"isSplit"', answerSides('s'))} then s.id || ':' || coalesce(s.category_id, '') end`;
    const [row] = await selectRows<{ json: Buffer; counted_rows: string | null }>(
      this.em,
      `select cast('[' || coalesce(group_concat(s.json, ','), '') || ']' as blob) as json, group_concat(s.counted, ',') as counted_rows
        from (select ${this.rowJson()} as json, ${counted} as counted
          from (select ${TRANSACTION_SELECT}, t.category_id from ${TRANSACTION_FROM}
            where t.user_id = ? and t.post_date >= ? and t.post_date <= ?) s
          order by ${NEWEST_FIRST}) s`,
      [userId, range.startDate, range.endDate],
    );
    const countedRows = (row?.counted_rows ? row.counted_rows.split(',') : []).map((entry) => {
      const [id, category] = entry.split(':');
      return { id: Number(id), categoryKey: categoryKey(category ? Number(category) : null) };
    });
    return { json: row?.json ?? Buffer.from('[]'), countedRows };
  }
}
