import type { EntityManager } from '@mikro-orm/knex';
import {
  conversionFor,
  convertedGroupSums,
  convertedSql,
  idList,
  idsOf,
  nearRows,
  fxTable,
  MAX_DATE,
  MIN_DATE,
  type Conversion,
} from '../conversion';
import { AppError } from '../../../shared/errors';
import { MAX_LIST_ROWS } from '../../../shared/limits';
import { groupDigits } from '../../../shared/money';
import type { MonthlyAggregate } from '../../../shared/reports';
import type { OverviewGroup } from '../../../shared/budget';
import type { RegisterRow } from '../../../shared/register/register';
import type { TransactionDto } from '../../../shared/schemas/transactions';
import {
  countedRowSql,
  internalTransferSql,
  reportedRowSql,
  selectRows,
  TRANSACTION_TABLE,
  withUserScope,
  type SqlCount,
} from '../sql';
import {
  selectOf,
  toTransactionDto,
  TRANSACTION_FROM,
  TRANSACTION_SELECT,
  transactionJsonSql,
  type ExtraJsonField,
  type JsonValueSql,
} from './fields';
import type {
  CategorySum,
  PlanMonthSum,
  DescriptionSum,
  ExportRow,
  JsonPage,
  OverviewRead,
  Page,
  ReadOptions,
  RegisterSelection,
  SearchTotalRead,
  SumSelection,
  TransactionReads,
} from './index';
import { selectionWhere, type Selection, type Where } from './selection';

/** A page to read: at most `limit` rows from `offset` on. */
export interface Paging {
  limit: number;
  offset: number;
}

/** The order of every list: newest first; over TRANSACTION_SELECT's columns of a subquery `s`. */
export const NEWEST_FIRST = 's."postDate" desc, s.id desc';
const WRITTEN_ORDER = 's.id asc';
/** Register order (compareRegisterOrder in src/shared/register/register.ts) over the transaction table `t`. */
const REGISTER_ORDER_T =
  't.post_date desc, coalesce(t.parent_id, t.id) desc, case when t.parent_id is null then 0 else 1 end, t.id desc';
/** The same over the columns of registerSelect, in a subquery `p` or `s`. */
const registerOrder = (alias: string) =>
  `${alias}."postDate" desc, ${alias}.family desc, case when ${alias}."parentTransactionId" is null then 0 else 1 end, ${alias}.id desc`;
const REGISTER_ORDER_P = registerOrder('p');
const REGISTER_ORDER_S = registerOrder('s');
const LATEST = '9999-12-31';
/** A row the plan counts, over `t` joined to its account `a`: an on-plan account's income or spending. */
const PLAN_ROW = `${reportedRowSql('t')} and a.on_budget = true`;
const EXPORT_SELECT = selectOf([
  'id',
  'postDate',
  'description',
  'amount',
  'type',
  'isSplit',
  'parentTransactionId',
  'batchId',
  'account',
  'category',
  'currency',
]);

/** The split originals an export names in "Split of" and has not written (yet): ids only, one per split. */
class MissingOriginals {
  private readonly written = new Set<number>();
  private readonly named = new Set<number>();
  note(rows: readonly ExportRow[]) {
    for (const row of rows) {
      if (row.isSplit) this.written.add(row.id);
      if (row.parentTransactionId !== null) this.named.add(row.parentTransactionId);
    }
  }
  ids(): number[] {
    return [...this.named].filter((id) => !this.written.has(id)).sort((a, b) => b - a);
  }
}

/** 422 for a list answer over MAX_LIST_ROWS rows: the caller narrows the selection or pages. */
export function tooManyRows(total: number, narrow = 'narrow the range or page with limit and offset'): AppError {
  return new AppError(
    'UNPROCESSABLE',
    `${groupDigits(total)} transactions match, more than the ${groupDigits(MAX_LIST_ROWS)} one answer holds: ${narrow}`,
    { totalCount: total },
  );
}

/** The page `options` ask for out of `total` rows (null: all of them); refuses an unpaged list over the cap. */
function pagingOf(total: number, options: ReadOptions): Paging | null {
  if (options.limit === undefined && total > MAX_LIST_ROWS) throw tooManyRows(total, options.narrow);
  if (options.limit === undefined && options.offset === undefined) return null;
  return { limit: Math.min(options.limit ?? MAX_LIST_ROWS, MAX_LIST_ROWS), offset: options.offset ?? 0 };
}

function pageSql(paging: Paging | null): string {
  return paging ? ' limit ? offset ?' : '';
}

function pageParams(paging: Paging | null): unknown[] {
  return paging ? [paging.limit, paging.offset] : [];
}

const EMPTY_ARRAY = '[]';

/** The reads both databases run as the same SQL; what differs is left to each database's subclass. */
export abstract class SqlTransactionReads implements TransactionReads {
  constructor(protected readonly em: EntityManager) {}

  /** How this database writes a field's value as JSON text. */
  protected abstract readonly json: JsonValueSql;
  /** True when `needle` occurs in `haystack`. */
  protected abstract containsSql(haystack: string, needle: string): string;
  /** A payee filter as a condition on the rows, read through `em`; null without one. */
  protected abstract payeeWhere(em: EntityManager, userId: number, selection: Selection): Promise<Where | null>;
  /**
   * The rows of `select` (a subquery aliased `s` with TRANSACTION_SELECT's columns) in `order`,
   * optionally one page of them, each written by `rowJson`, as one JSON array's UTF-8 bytes.
   */
  protected abstract jsonArray(select: Where, rowJson: string, order: string, paging: Paging | null): Promise<Buffer>;
  /** The overview's rows (newest first) as JSON, and its counted rows in the same order. */
  protected abstract overviewRows(
    userId: number,
    range: { startDate: string; endDate: string },
    categoryKey: (categoryId: number | null) => string,
  ): Promise<Omit<OverviewRead, 'groups'>>;

  protected async where(em: EntityManager, userId: number, selection: Selection): Promise<Where> {
    const payee = await this.payeeWhere(em, userId, selection);
    return selectionWhere({ containsSql: (h, n) => this.containsSql(h, n) }, userId, selection, payee);
  }

  protected async count(where: Where): Promise<number> {
    const [row] = await selectRows<{ n: SqlCount }>(
      this.em,
      `select count(*) as n from ${TRANSACTION_FROM} where ${where.sql}`,
      where.params,
    );
    return Number(row?.n ?? 0);
  }

  protected selectSql(where: Where): Where {
    return { sql: `select ${TRANSACTION_SELECT} from ${TRANSACTION_FROM} where ${where.sql}`, params: where.params };
  }

  protected rowJson(extra: readonly ExtraJsonField[] = []): string {
    return transactionJsonSql(this.json, extra);
  }

  async page(userId: number, selection: Selection, options: ReadOptions = {}): Promise<Page<TransactionDto>> {
    const where = await this.where(this.em, userId, selection);
    const total = await this.count(where);
    const paging = pagingOf(total, options);
    if (total === 0) return { rows: [], total };
    const select = this.selectSql(where);
    const order = options.order === 'written' ? WRITTEN_ORDER : NEWEST_FIRST;
    const rows = await selectRows<TransactionDto>(
      this.em,
      `select * from (${select.sql}) s order by ${order}${pageSql(paging)}`,
      [...select.params, ...pageParams(paging)],
    );
    return { rows: rows.map(toTransactionDto), total };
  }

  async pageJson(userId: number, selection: Selection, options: ReadOptions = {}): Promise<JsonPage> {
    const where = await this.where(this.em, userId, selection);
    const total = await this.count(where);
    const paging = pagingOf(total, options);
    if (total === 0) return { json: Buffer.from(EMPTY_ARRAY), total };
    const order = options.order === 'written' ? WRITTEN_ORDER : NEWEST_FIRST;
    return { json: await this.jsonArray(this.selectSql(where), this.rowJson(), order, paging), total };
  }

  /** The condition of an account's rows between the register's dates. */
  private registerWhere(userId: number, register: RegisterSelection): Where {
    return {
      sql: 't.user_id = ? and t.account_id = ? and t.post_date >= ? and t.post_date <= ?',
      params: [userId, register.accountId, register.startDate, register.endDate],
    };
  }

  /**
   * The page's rows in register order, each with `newer`: the sum of the counted rows listed
   * above it on the page. Only the page is sorted whole; the rows before it are summed apart.
   */
  private registerSelect(where: Where, paging: Paging | null): Where {
    const page = `select ${TRANSACTION_SELECT}, coalesce(t.parent_id, t.id) as family from ${TRANSACTION_FROM}
      where ${where.sql} order by ${REGISTER_ORDER_T}${pageSql(paging)}`;
    return {
      sql: `select p.*, coalesce(sum(case when ${countedRowSql('p', '"isSplit"')} then p.amount else 0 end)
          over (order by ${REGISTER_ORDER_P} rows between unbounded preceding and 1 preceding), 0) as newer
        from (${page}) p`,
      params: [...where.params, ...pageParams(paging)],
    };
  }

  /** The sum of the counted rows listed before the page (register order). */
  private async countedBefore(where: Where, paging: Paging | null): Promise<number> {
    if (!paging || paging.offset === 0) return 0;
    const [row] = await selectRows<{ total: number | null }>(
      this.em,
      `select sum(case when ${countedRowSql('b')} then b.amount else 0 end) as total
         from (select t.amount, t.is_split from ${TRANSACTION_TABLE} t where ${where.sql} order by ${REGISTER_ORDER_T} limit ?) b`,
      [...where.params, paging.offset],
    );
    return row?.total ?? 0;
  }

  /** How many rows a register lists, the page to read, and the balance after the page's first row. */
  private async registerStart(userId: number, register: RegisterSelection, options: ReadOptions) {
    const where = this.registerWhere(userId, register);
    const total = await this.count(where);
    const paging = pagingOf(total, { narrow: 'narrow the dates or page with limit and offset', ...options });
    const later = register.endDate >= LATEST ? 0 : await this.countedTotalAfter(register.accountId, register.endDate);
    const before = total === 0 ? 0 : await this.countedBefore(where, paging);
    return { where, total, paging, balance: register.balance - later - before };
  }

  async register(userId: number, register: RegisterSelection, options: ReadOptions = {}): Promise<Page<RegisterRow>> {
    const { where, total, paging, balance } = await this.registerStart(userId, register, options);
    if (total === 0) return { rows: [], total };
    const select = this.registerSelect(where, paging);
    const rows = await selectRows<RegisterRow & { family?: unknown; newer?: unknown }>(
      this.em,
      `select s.*, ? - s.newer as "runningBalance" from (${select.sql}) s order by ${REGISTER_ORDER_S}`,
      [balance, ...select.params],
    );
    return {
      rows: rows.map(({ family: _family, newer: _newer, ...row }) => toTransactionDto(row)),
      total,
    };
  }

  async registerJson(userId: number, register: RegisterSelection, options: ReadOptions = {}): Promise<JsonPage> {
    const { where, total, paging, balance } = await this.registerStart(userId, register, options);
    if (total === 0) return { json: Buffer.from(EMPTY_ARRAY), total };
    const page = this.registerSelect(where, paging);
    // The balance is a column of its own: a row's JSON template is written twice (linked or not), a parameter once.
    const select = {
      sql: `select r.*, ? - r.newer as "runningBalance" from (${page.sql}) r`,
      params: [balance, ...page.params],
    };
    const rowJson = this.rowJson([['runningBalance', 'cast(s."runningBalance" as text)']]);
    return { json: await this.jsonArray(select, rowJson, REGISTER_ORDER_S, null), total };
  }

  async countedTotalAfter(accountId: number, date: string): Promise<number> {
    // The caller has checked that the account is the user's; an account's rows are always its owner's.
    const [row] = await selectRows<{ total: number | null }>(
      this.em,
      `select sum(t.amount) as total from ${TRANSACTION_TABLE} t where t.account_id = ? and t.post_date > ? and ${countedRowSql('t')}`,
      [accountId, date],
    );
    return row?.total ?? 0;
  }

  async overview(
    userId: number,
    range: { startDate: string; endDate: string },
    categoryKey: (categoryId: number | null) => string,
  ): Promise<OverviewRead> {
    const groups = await this.overviewGroups(userId, range, categoryKey);
    const total = groups.reduce((sum, group) => sum + group.count, 0);
    if (total > MAX_LIST_ROWS) throw tooManyRows(total, "narrow the range (the budget's start and end dates)");
    if (total === 0) return { groups, json: Buffer.from(EMPTY_ARRAY), countedRows: [] };
    return { groups, ...(await this.overviewRows(userId, range, categoryKey)) };
  }

  /** The overview's sums: one GROUP BY over the transaction table alone, never a row as an object. */
  private async overviewGroups(
    userId: number,
    range: { startDate: string; endDate: string },
    categoryKey: (categoryId: number | null) => string,
  ): Promise<OverviewGroup[]> {
    const counted = `case when ${countedRowSql('t')} then 1 else 0 end`;
    const part = 'case when t.parent_id is null then 0 else 1 end';
    const transfer = `case when ${internalTransferSql('t')} then 1 else 0 end`;
    const conversion = await conversionFor(this.em, userId, range.startDate, range.endDate);
    if (conversion) {
      const groups = await convertedGroupSums(
        this.em,
        conversion,
        {
          sql: 't.user_id = ? and t.post_date >= ? and t.post_date <= ?',
          params: [userId, range.startDate, range.endDate],
        },
        ['t.category_id', 't.type', counted, part, transfer],
      );
      return groups.map(({ keys: [categoryId, type, isCounted, isPart, isTransfer], count, total, missing }) => ({
        categoryKey: categoryKey(categoryId === null ? null : Number(categoryId)),
        type: String(type),
        counted: Number(isCounted) === 1,
        part: Number(isPart) === 1,
        transfer: Number(isTransfer) === 1,
        count,
        total,
        missing,
      }));
    }
    const rows = await selectRows<{
      category_id: number | null;
      type: string;
      counted: SqlCount;
      part: SqlCount;
      transfer: SqlCount;
      n: SqlCount;
      total: number | string | null;
    }>(
      this.em,
      `select t.category_id, t.type, ${counted} as counted, ${part} as part, ${transfer} as transfer, count(*) as n, sum(t.amount) as total
         from ${TRANSACTION_TABLE} t
        where t.user_id = ? and t.post_date >= ? and t.post_date <= ?
        group by t.category_id, t.type, ${counted}, ${part}, ${transfer}`,
      [userId, range.startDate, range.endDate],
    );
    return rows.map((row) => {
      const total = Number(row.total ?? 0);
      if (!Number.isSafeInteger(total)) throw new RangeError('A sum is too large to be exact');
      return {
        categoryKey: categoryKey(row.category_id),
        type: row.type,
        counted: Number(row.counted) === 1,
        part: Number(row.part) === 1,
        transfer: Number(row.transfer) === 1,
        count: Number(row.n),
        total,
      };
    });
  }

  async *exportPages(userId: number, selection: Selection, pageSize: number): AsyncGenerator<ExportRow[]> {
    // Each page is a short transaction of its own (scoped to the user for row-level security):
    // a streamed answer reads on after the request's handler has returned.
    const where = await withUserScope(this.em, userId, (tem) => this.where(tem, userId, selection));
    let after: ExportRow | null = null;
    const missing = new MissingOriginals();
    for (;;) {
      // `post_date <= ?` bounds the index range, so each page starts where the last one ended.
      const keyset = after ? ' and t.post_date <= ? and (t.post_date < ? or t.id < ?)' : '';
      const last: ExportRow | null = after;
      const page: ExportRow[] = await withUserScope(this.em, userId, (tem) =>
        selectRows<ExportRow>(
          tem,
          `select ${EXPORT_SELECT} from ${TRANSACTION_FROM} where ${where.sql}${keyset} order by t.post_date desc, t.id desc limit ?`,
          [...where.params, ...(last ? [last.postDate, last.postDate, last.id] : []), pageSize],
        ),
      );
      missing.note(page);
      if (page.length > 0) yield page;
      if (page.length < pageSize) break;
      after = page[page.length - 1] ?? null;
    }
    // Originals of parts that matched when they did not: at the end, so "Split of" always names a row of the file.
    const ids = missing.ids();
    for (let i = 0; i < ids.length; i += pageSize) {
      const chunk = ids.slice(i, i + pageSize);
      const where = await withUserScope(this.em, userId, (tem) => this.where(tem, userId, { ids: chunk }));
      yield await withUserScope(this.em, userId, (tem) =>
        selectRows<ExportRow>(
          tem,
          `select ${EXPORT_SELECT} from ${TRANSACTION_FROM} where ${where.sql} order by t.post_date desc, t.id desc`,
          where.params,
        ),
      );
    }
  }

  async monthlySums(userId: number, selection: SumSelection): Promise<MonthlyAggregate[]> {
    // Grouped by day and category first, which the (user, date, category, ...) index delivers in
    // order, then the days folded into months: far cheaper than sorting every row by month.
    const where = await this.where(this.em, userId, { ...selection, counted: true });
    const conversion = await conversionFor(
      this.em,
      userId,
      selection.startDate ?? MIN_DATE,
      selection.endDate ?? MAX_DATE,
    );
    if (conversion) return this.convertedMonthlySums(conversion, where);
    const rows = await selectRows<{ month: string; category: string | null; money_in: number; money_out: number }>(
      this.em,
      `select m.month, c.name as category, m.money_in, m.money_out
         from (select substr(d.post_date, 1, 7) as month, d.category_id, sum(d.money_in) as money_in, sum(d.money_out) as money_out
                 from (select t.post_date, t.category_id,
                              sum(case when t.amount > 0 then t.amount else 0 end) as money_in,
                              sum(case when t.amount < 0 then -t.amount else 0 end) as money_out
                         from ${TRANSACTION_TABLE} t
                        where ${where.sql}
                        group by t.post_date, t.category_id) d
                group by substr(d.post_date, 1, 7), d.category_id) m
         left join category c on c.id = m.category_id`,
      where.params,
    );
    return rows.map((row) => ({
      month: row.month,
      category: row.category,
      moneyIn: row.money_in,
      moneyOut: row.money_out,
    }));
  }

  /** monthlySums with rows of other currencies converted at their day's rate (db/conversion.ts). */
  private async convertedMonthlySums(
    conversion: Conversion,
    where: { sql: string; params: unknown[] },
  ): Promise<MonthlyAggregate[]> {
    const table = await fxTable(this.em, conversion);
    let read: { out: MonthlyAggregate[]; near: number[] };
    try {
      read = await this.convertedMonthlyRows(where, table);
    } finally {
      await table.drop();
    }
    // The few rows whose product lies too near a half: the database's rounding taken back, the exact value put in.
    const near = await nearRows<{ month: string; category: string | null }>(this.em, conversion, read.near, {
      select: 'substr(t.post_date, 1, 7) as month, c.name as category',
      from: `${TRANSACTION_TABLE} t left join category c on c.id = t.category_id`,
    });
    for (const row of near) {
      const moneyIn = row.amount > 0;
      read.out.push({
        month: row.month,
        category: row.category,
        moneyIn: moneyIn ? row.correction : 0,
        moneyOut: moneyIn ? 0 : -row.correction,
        missing: 0,
      });
    }
    return read.out;
  }

  /**
   * The converted sums per month and category, grouped by day first as the unconverted sums are (the
   * dated index delivers the rows in that order), and the ids of the rows too near a half.
   */
  private async convertedMonthlyRows(
    where: { sql: string; params: unknown[] },
    table: { cte: string; params: unknown[]; name: string },
  ): Promise<{ out: MonthlyAggregate[]; near: number[] }> {
    const c = convertedSql(this.em);
    const joined = `${TRANSACTION_TABLE} t left join ${table.name} f on f.account_id = t.account_id and f.day = t.post_date`;
    const rows = await selectRows<{
      month: string;
      category: string | null;
      money_in: number | string | null;
      money_out: number | string | null;
      missing: number | string;
      near: string | null;
    }>(
      this.em,
      `${table.cte}
       select m.month, c.name as category, m.money_in, m.money_out, m.missing, m.near
         from (select substr(d.post_date, 1, 7) as month, d.category_id, sum(d.money_in) as money_in,
                      sum(d.money_out) as money_out, sum(d.missing) as missing, ${idList(this.em, 'd.near')} as near
                 from (select t.post_date, t.category_id,
                              sum(case when t.amount > 0 then ${c.value} else 0 end) as money_in,
                              sum(case when t.amount < 0 then -(${c.value}) else 0 end) as money_out,
                              sum(${c.missing}) as missing, ${c.nearIds} as near
                         from ${joined} where ${where.sql}
                        group by t.post_date, t.category_id) d
                group by substr(d.post_date, 1, 7), d.category_id) m
         left join category c on c.id = m.category_id`,
      [...table.params, ...where.params],
    );
    return {
      out: rows.map((row) => ({
        month: row.month,
        category: row.category,
        moneyIn: Number(row.money_in ?? 0),
        moneyOut: Number(row.money_out ?? 0),
        missing: Number(row.missing),
      })),
      near: rows.flatMap((row) => idsOf(row.near)),
    };
  }

  /** The home currency's conversion for a selection's dates, or null when every account is in the home currency. */
  private conversionOf(userId: number, selection: { startDate?: string; endDate?: string }) {
    return conversionFor(this.em, userId, selection.startDate ?? MIN_DATE, selection.endDate ?? MAX_DATE);
  }

  async searchTotal(userId: number, selection: Selection): Promise<SearchTotalRead> {
    // Counted rows, split into the total's and the transfers it leaves out (the `counted` filter would drop those).
    const selected = await this.where(this.em, userId, { ...selection, counted: false });
    const where = { sql: `${selected.sql} and ${countedRowSql('t')}`, params: selected.params };
    const transfer = internalTransferSql('t');
    const reported = { sql: `${where.sql} and not ${transfer}`, params: where.params };
    const [moved] = await selectRows<{ n: SqlCount }>(
      this.em,
      `select count(*) as n from ${TRANSACTION_FROM} where ${where.sql} and ${transfer}`,
      where.params,
    );
    const transfers = Number(moved?.n ?? 0);
    const conversion = await this.conversionOf(userId, selection);
    if (conversion) {
      const [group] = await convertedGroupSums(this.em, conversion, reported, [], TRANSACTION_FROM);
      const { count = 0, total = 0, missing = 0 } = group ?? {};
      const converted = await this.anyForeign(reported, conversion);
      return { net: total, count, missing, transfers, converted };
    }
    const [row] = await selectRows<{ n: SqlCount; total: number | string | null }>(
      this.em,
      `select count(*) as n, sum(t.amount) as total from ${TRANSACTION_FROM} where ${reported.sql}`,
      reported.params,
    );
    return { net: Number(row?.total ?? 0), count: Number(row?.n ?? 0), missing: 0, transfers, converted: false };
  }

  /** Whether any selected row is in an account of another currency than the home currency. */
  private async anyForeign(where: Where, conversion: Conversion): Promise<boolean> {
    const [row] = await selectRows<{ n: SqlCount }>(
      this.em,
      `select count(*) as n from ${TRANSACTION_FROM} where ${where.sql} and a.currency <> ?`,
      [...where.params, conversion.home],
    );
    return Number(row?.n ?? 0) > 0;
  }

  async descriptionSums(userId: number, selection: SumSelection): Promise<DescriptionSum[]> {
    const where = await this.where(this.em, userId, { ...selection, counted: true });
    const conversion = await this.conversionOf(userId, selection);
    if (conversion) {
      const groups = await convertedGroupSums(this.em, conversion, where, ['t.description']);
      return groups.map(({ keys: [description], count, total, missing }) => ({
        description: String(description),
        count,
        total,
        missing,
      }));
    }
    const rows = await selectRows<{ description: string; count: SqlCount; total: number | string }>(
      this.em,
      `select t.description, count(*) as count, sum(t.amount) as total from ${TRANSACTION_TABLE} t where ${where.sql} group by t.description`,
      where.params,
    );
    return rows.map((row) => ({ description: row.description, count: Number(row.count), total: Number(row.total) }));
  }

  async categorySums(userId: number, selection: SumSelection): Promise<CategorySum[]> {
    const where = await this.where(this.em, userId, { ...selection, counted: true });
    const conversion = await this.conversionOf(userId, selection);
    if (conversion) {
      const groups = await convertedGroupSums(this.em, conversion, where, ['t.category_id']);
      return groups.map(({ keys: [categoryId], count, total, missing }) => ({
        categoryId: categoryId === null ? null : Number(categoryId),
        count,
        total,
        missing,
      }));
    }
    const rows = await selectRows<{ category_id: number | null; n: SqlCount; total: number | string | null }>(
      this.em,
      `select t.category_id, count(*) as n, sum(t.amount) as total from ${TRANSACTION_TABLE} t where ${where.sql} group by t.category_id`,
      where.params,
    );
    return rows.map((row) => ({ categoryId: row.category_id, count: Number(row.n), total: Number(row.total ?? 0) }));
  }

  async planMonthSums(userId: number, endDate: string): Promise<PlanMonthSum[]> {
    const conversion = await this.conversionOf(userId, { endDate });
    if (conversion) return this.convertedPlanMonthSums(conversion, userId, endDate);
    // Rows without a transfer link come summed from plan_month_sum (kept by the transaction table's triggers);
    // linked rows are few and read live, since whether one counts depends on its other side's account.
    const rows = await selectRows<{
      month: string;
      category_id: number | null;
      n: SqlCount;
      total: number | string | null;
    }>(
      this.em,
      `select s.month, nullif(s.category_key, 0) as category_id, sum(s.n) as n, sum(s.total) as total
         from plan_month_sum s join account a on a.id = s.account_id
        where s.user_id = ? and s.month <= ? and a.on_budget = true
        group by s.month, s.category_key having sum(s.n) <> 0
       union all
       select substr(t.post_date, 1, 7) as month, t.category_id, count(*) as n, sum(t.amount) as total
         from transfer l join ${TRANSACTION_TABLE} t on t.transfer_id = l.id join account a on a.id = t.account_id
        where l.user_id = ? and t.post_date <= ? and ${PLAN_ROW}
        group by substr(t.post_date, 1, 7), t.category_id`,
      [userId, endDate.slice(0, 7), userId, endDate],
    );
    return rows.map((row) => ({
      categoryId: row.category_id,
      month: row.month,
      count: Number(row.n),
      amount: Number(row.total ?? 0),
    }));
  }

  /** planMonthSums in the home currency: each on-plan row converted at its own date's rate. */
  private async convertedPlanMonthSums(
    conversion: Conversion,
    userId: number,
    endDate: string,
  ): Promise<PlanMonthSum[]> {
    const groups = await convertedGroupSums(
      this.em,
      conversion,
      {
        sql: `t.user_id = ? and t.post_date <= ? and ${PLAN_ROW}`,
        params: [userId, endDate],
      },
      ['substr(t.post_date, 1, 7)', 't.category_id'],
      `${TRANSACTION_TABLE} t join account a on a.id = t.account_id`,
    );
    return groups.map(({ keys: [month, categoryId], count, total, missing }) => ({
      categoryId: categoryId === null ? null : Number(categoryId),
      month: String(month),
      count,
      amount: total,
      missing,
    }));
  }
}
