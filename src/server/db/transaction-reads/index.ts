/**
 * The transaction read model: every read of a user's transactions (search, pages, register,
 * budget overview, export, report and envelope sums) goes through TransactionReads. Each database
 * has its own implementation (sqlite.ts, postgres.ts); readsOf picks the one an entity manager talks to.
 */
import type { EntityManager } from '@mikro-orm/knex';
import type { MonthlyAggregate } from '../../../shared/reports';
import type { OverviewCountedRow, OverviewGroup } from '../../../shared/budget';
import type { RegisterRow } from '../../../shared/register/register';
import type { TransactionDto, TransactionType } from '../../../shared/schemas/transactions';
import { onPostgres } from '../sql';
import { PostgresTransactionReads } from './postgres';
import type { Selection } from './selection';
import { SqliteTransactionReads } from './sqlite';

export type { Selection } from './selection';
export { tooManyRows } from './reads';

/** One page of a list, and how many rows the whole list holds (REST sends it as X-Total-Count). */
export interface Page<T> {
  rows: T[];
  total: number;
}

/** A page whose rows are the JSON array the database wrote, as UTF-8 bytes. */
export interface JsonPage {
  json: Buffer;
  total: number;
}

/**
 * How a list is read. Without `limit`, a list of more than MAX_LIST_ROWS rows is refused (422,
 * naming the count and `narrow`, what the caller can do); with it, one page.
 */
export interface ReadOptions {
  limit?: number;
  offset?: number;
  narrow?: string;
  /** 'newest' first (the default), or in the order the rows were 'written' (a split's parts). */
  order?: 'newest' | 'written';
}

/** An account's register between two dates; `balance` is the account's balance after all its rows. */
export interface RegisterSelection {
  accountId: number;
  balance: number;
  startDate: string;
  endDate: string;
}

/** A search row as the CSV export reads it. */
export interface ExportRow {
  id: number;
  postDate: string;
  description: string;
  amount: number;
  type: TransactionType;
  /** A split original (0/1 on SQLite). */
  isSplit: boolean | number;
  parentTransactionId: number | null;
  batchId: string | null;
  account: string | null;
  category: string | null;
  /** The account's currency, whose decimals the amount is written with. */
  currency: string | null;
}

/** The budget overview's reads over a date range. */
export interface OverviewRead {
  groups: OverviewGroup[];
  /** The range's transactions, newest first, as the JSON array the database wrote. */
  json: Buffer;
  countedRows: OverviewCountedRow[];
}

/** What the sums read: the rows of a date range, optionally of one account (the transaction table alone). */
export type SumSelection = Pick<Selection, 'startDate' | 'endDate' | 'accountId'>;

/** Count and signed total of counted rows, per category id (null: uncategorised). */
export interface CategorySum {
  categoryId: number | null;
  count: number;
  total: number;
  /** Rows in another currency with no rate within 7 days of their date: counted in `count`, left out of `total`. */
  missing?: number;
}

/** Count and signed total of one category's counted on-plan rows in one month (`YYYY-MM`). */
export interface PlanMonthSum {
  categoryId: number | null;
  month: string;
  count: number;
  /** In the home currency: rows of other currencies converted at their own date's rate. */
  amount: number;
  /** Rows in another currency left out of `amount`: no rate within 7 days of their date. */
  missing?: number;
}

/** Count and signed total of counted rows per exact description. */
export interface DescriptionSum {
  description: string;
  count: number;
  total: number;
  /** As CategorySum's. */
  missing?: number;
}

/** The net of a search's rows that count as income or spending, in the home currency. */
export interface SearchTotalRead {
  /** Signed minor units: counted rows (split parts, never their parents), transfers between accounts left out. */
  net: number;
  /** The rows the net sums, those with no rate included. */
  count: number;
  /** Rows in another currency left out of `net`: no rate within 7 days of their date. */
  missing: number;
  /** Counted rows left out as transfers between accounts. */
  transfers: number;
  /** Some row was in another currency than the home currency. */
  converted: boolean;
}

export interface TransactionReads {
  /** A page of the selected rows, newest first. */
  page: (userId: number, selection: Selection, options?: ReadOptions) => Promise<Page<TransactionDto>>;
  /** The same page as the JSON the database writes, for an answer sent as it is. */
  pageJson: (userId: number, selection: Selection, options?: ReadOptions) => Promise<JsonPage>;
  /** A page of an account's register (register order), each row with the balance after it. */
  register: (userId: number, register: RegisterSelection, options?: ReadOptions) => Promise<Page<RegisterRow>>;
  registerJson: (userId: number, register: RegisterSelection, options?: ReadOptions) => Promise<JsonPage>;
  /** Sum of an account's counted rows dated after `date`. */
  countedTotalAfter: (accountId: number, date: string) => Promise<number>;
  /** A budget's grouped sums, its rows as JSON and its counted rows; a sum too large to be exact is a RangeError. */
  overview: (
    userId: number,
    range: { startDate: string; endDate: string },
    categoryKey: (categoryId: number | null) => string,
  ) => Promise<OverviewRead>;
  /**
   * The selected rows page by page (newest first), each page its own short read scoped to the user; then the
   * originals of selected split parts that were not selected themselves.
   */
  exportPages: (userId: number, selection: Selection, pageSize: number) => AsyncGenerator<ExportRow[]>;
  /** Counted rows summed per month and category. */
  monthlySums: (userId: number, selection: SumSelection) => Promise<MonthlyAggregate[]>;
  /** The net of the selected rows that count as income or spending, converted into the home currency. */
  searchTotal: (userId: number, selection: Selection) => Promise<SearchTotalRead>;
  /** Counted rows summed per exact description. */
  descriptionSums: (userId: number, selection: SumSelection) => Promise<DescriptionSum[]>;
  /** Counted rows summed per category. */
  categorySums: (userId: number, selection: SumSelection) => Promise<CategorySum[]>;
  /**
   * The monthly plan's sums: counted rows of on-plan accounts dated up to `endDate`, per category
   * and month, leaving out both sides of a transfer between two on-plan accounts.
   */
  planMonthSums: (userId: number, endDate: string) => Promise<PlanMonthSum[]>;
}

/** The read model of the database `em` talks to, reading through `em` (inside its transaction when it has one). */
export function readsOf(em: EntityManager): TransactionReads {
  return onPostgres(em) ? new PostgresTransactionReads(em) : new SqliteTransactionReads(em);
}
