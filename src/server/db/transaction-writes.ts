/**
 * The hand-written writes and bulk reads on the transaction table, on either database (the
 * read model for answers is transaction-reads/).
 */
import type { EntityManager } from '@mikro-orm/knex';
import {
  onPostgres,
  pgArrayLiteral,
  reserveIds,
  runSql,
  selectRows,
  TRANSACTION_TABLE,
  valuesSql,
  type SqlTx,
} from './sql';
import { must } from '../../shared/must';

export interface BatchListRow {
  id: string;
  upload_date: string;
  file_name: string | null;
  account_name: string | null;
  live_count: number;
}

/** The user's uploads, newest first, each with its live row count (split parts not counted). */
export function selectBatchList(em: EntityManager, userId: number): Promise<BatchListRow[]> {
  return selectRows<BatchListRow>(
    em,
    `select b.id, b.upload_date, b.file_name, a.name as account_name,
        (select count(*) from ${TRANSACTION_TABLE} t where t.batch_id = b.id and t.parent_id is null) as live_count
       from batch b left join account a on a.id = b.account_id
      where b.user_id = ?
      order by b.upload_date desc, ${onPostgres(em) ? 'b.id' : 'b.rowid'} desc`,
    [userId],
  );
}

/** Deletes a batch's rows (split parts first); answers how many rows the batch held. Call inside a transaction. */
export async function deleteBatchRows(tem: EntityManager, userId: number, batchId: string): Promise<number> {
  const [row] = await selectRows<{ n: number }>(
    tem,
    `select count(*) as n from ${TRANSACTION_TABLE} where batch_id = ? and user_id = ?`,
    [batchId, userId],
  );
  await runSql(
    tem,
    `delete from ${TRANSACTION_TABLE} where user_id = ? and parent_id in (select id from ${TRANSACTION_TABLE} where batch_id = ? and user_id = ?)`,
    [userId, batchId, userId],
  );
  await runSql(tem, `delete from ${TRANSACTION_TABLE} where user_id = ? and batch_id = ?`, [userId, batchId]);
  // A number on both databases: orm-options.ts reads PostgreSQL's bigint count as one.
  return row?.n ?? 0;
}

/** The ids of a batch's rows (split parts included). */
export async function batchRowIds(tem: EntityManager, userId: number, batchId: string): Promise<number[]> {
  const rows = await selectRows<{ id: number }>(
    tem,
    `select id from ${TRANSACTION_TABLE} where user_id = ? and (batch_id = ? or parent_id in (select id from ${TRANSACTION_TABLE} where user_id = ? and batch_id = ?))`,
    [userId, batchId, userId, batchId],
  );
  return rows.map((row) => row.id);
}

/** Clears is_split on the user's parents that have no parts left; answers how many. */
export function clearEmptySplits(em: EntityManager, userId: number): Promise<number> {
  return runSql(
    em,
    `update ${TRANSACTION_TABLE} set is_split = false
      where user_id = ? and is_split = true
        and not exists (select 1 from ${TRANSACTION_TABLE} c where c.parent_id = ${TRANSACTION_TABLE}.id)`,
    [userId],
  );
}

/**
 * An account's stored top-level rows in a date range, as [post_date, amount, description, fitid],
 * streamed; the description is the bank's text when a rule renamed the row.
 */
export function streamAccountRows(
  db: SqlTx,
  userId: number,
  accountId: number,
  minDate: string,
  maxDate: string,
  chunk: number,
) {
  return db.iterate<[string, number, string, string | null]>(
    `select post_date, amount, coalesce(bank_description, description), fitid from ${TRANSACTION_TABLE}
      where user_id = ? and account_id = ? and parent_id is null and post_date between ? and ?`,
    [userId, accountId, minDate, maxDate],
    chunk,
  );
}

/**
 * The account's rows in the trash in a date range, as [post_date, amount, description, fitid]: the import's
 * duplicate check counts them as stored, so re-importing a file does not bring a deleted row back.
 */
export function selectTrashedAccountRows(
  db: SqlTx,
  userId: number,
  accountId: number,
  minDate: string,
  maxDate: string,
): Promise<{ post_date: string; amount: number; description: string; fitid: string | null }[]> {
  return db.all(
    `select post_date, amount, description, fitid from trashed_transaction
      where user_id = ? and account_id = ? and post_date between ? and ?`,
    [userId, accountId, minDate, maxDate],
  );
}

/** Every bank id stored in an account, streamed. */
export function streamAccountFitids(db: SqlTx, userId: number, accountId: number, chunk: number) {
  return db.iterate<[string]>(
    `select fitid from ${TRANSACTION_TABLE} where user_id = ? and account_id = ? and fitid is not null`,
    [userId, accountId],
    chunk,
  );
}

/**
 * An imported row: user, account, category, category_source, post_date, description,
 * bank_description, amount, type, batch, fitid, created_at, original_amount, original_currency.
 */
export type ImportedRow = [
  number,
  number,
  number | null,
  string | null,
  string,
  string,
  string | null,
  number,
  string,
  string,
  string | null,
  string,
  number | null,
  string | null,
];
const IMPORTED_COLUMNS = 14;

const IMPORTED_COLUMN_NAMES =
  'user_id, account_id, category_id, category_source, post_date, description, bank_description, amount, type, batch_id, fitid, created_at, original_amount, original_currency, is_split';
/** PostgreSQL array types of the ImportedRow columns, in order (amount: bigint, as its column). */
const IMPORTED_COLUMN_TYPES = [
  'int',
  'int',
  'int',
  'varchar',
  'varchar',
  'text',
  'text',
  'bigint',
  'varchar',
  'varchar',
  'varchar',
  'varchar',
  'bigint',
  'varchar',
];
/** Rows one PostgreSQL statement carries (as one array a column, whatever the row count). */
const ROWS_PER_UNNEST = 10_000;

/**
 * Writes imported rows in bulk; call inside the import's transaction.
 * - SQLite: multi-row INSERTs of prepared statements (as many rows a statement as it allows
 *   parameters; far cheaper per row than one statement each).
 * - PostgreSQL: one INSERT ... SELECT FROM unnest() of one array per column for every
 *   ROWS_PER_UNNEST rows: one parameter a column for the statement instead of one a column for each row,
 *   so the server parses and plans a short statement and the rows travel as one array value a column.
 */
export interface ImportedRowsWriter {
  /** Takes a chunk of rows (one call a chunk, not an awaited call a row); writes every full statement's worth. */
  add: (rows: readonly ImportedRow[]) => Promise<void>;
  finish: () => Promise<void>;
}

export function importedRowsWriter(db: SqlTx): ImportedRowsWriter {
  return db.bulk === 'unnest' ? unnestWriter(db) : valuesWriter(db);
}

/**
 * SQLite keeps the plan's month sums (plan_month_sum) with a trigger a row, which would cost a large import a
 * sizeable share of its time: while an import writes, that insert trigger is dropped inside the import's
 * transaction, the writer sums the rows it inserts as they pass (by the trigger's rule: an imported row is never a
 * split parent nor linked), and the sums are added in one statement before the trigger is put back, still in the
 * same transaction. A rollback undoes all of it; no other writer runs meanwhile (SQLite's one write transaction
 * holds the file). PostgreSQL's triggers are per statement and take an import's rows grouped already.
 */
class PlanSumPause {
  /** Sums by user and account ("user/account"), then by category key and month (one number: key * 2^20 + month). */
  private readonly sums = new Map<string, Map<number, [number, number]>>();
  private last: { userId: number; accountId: number; sums: Map<number, [number, number]> } | null = null;
  private trigger: Promise<string | null> | null = null;

  constructor(private readonly db: SqlTx) {}

  /** Drops the insert trigger (once, before the first insert); answers when it is done. */
  async pause(): Promise<void> {
    this.trigger ??= (async () => {
      const [found] = await this.db.all<{ sql: string }>(
        "select sql from sqlite_master where type = 'trigger' and name = 'plan_month_sum_insert'",
      );
      if (found) await this.db.run('drop trigger plan_month_sum_insert');
      return found?.sql ?? null;
    })();
    await this.trigger;
  }

  /** Counts a row about to be inserted (an import's rows share a user and an account: those are looked up once). */
  count(row: ImportedRow): void {
    const [userId, accountId, categoryId, , postDate, , , amount] = row;
    let last = this.last;
    if (last?.userId !== userId || last.accountId !== accountId) {
      const key = `${userId}/${accountId}`;
      let sums = this.sums.get(key);
      if (!sums) this.sums.set(key, (sums = new Map<number, [number, number]>()));
      last = this.last = { userId, accountId, sums };
    }
    // YYYY-MM as year * 12 + month, read from the date's digits without making strings.
    const digit = (i: number) => postDate.charCodeAt(i) - 48;
    const month = (digit(0) * 1000 + digit(1) * 100 + digit(2) * 10 + digit(3)) * 12 + digit(5) * 10 + digit(6) - 1;
    const key = (categoryId ?? 0) * 2 ** 20 + month;
    const sum = last.sums.get(key);
    if (sum) {
      sum[0] += 1;
      sum[1] += amount;
    } else last.sums.set(key, [1, amount]);
  }

  /** Adds the counted rows to the stored sums and puts the trigger back. */
  async resume(): Promise<void> {
    const trigger = this.trigger ? await this.trigger : null;
    this.trigger = null;
    const rows: (number | string)[][] = [];
    for (const [owner, sums] of this.sums) {
      const [userId, accountId] = owner.split('/').map(Number);
      for (const [key, [n, total]] of sums) {
        const month = key % 2 ** 20;
        const yyyymm = `${Math.floor(month / 12)}-${String((month % 12) + 1).padStart(2, '0')}`;
        rows.push([userId ?? 0, accountId ?? 0, Math.floor(key / 2 ** 20), yyyymm, n, total]);
      }
    }
    this.sums.clear();
    this.last = null;
    if (trigger === null) return;
    const perInsert = this.db.maxRowsPerInsert(6);
    for (let i = 0; i < rows.length; i += perInsert) {
      const chunk = rows.slice(i, i + perInsert);
      await this.db.run(
        `insert into plan_month_sum (user_id, account_id, category_key, month, n, total)
         values ${valuesSql('(?, ?, ?, ?, ?, ?)', chunk.length)}
         on conflict (user_id, account_id, category_key, month) do update set n = n + excluded.n, total = total + excluded.total`,
        chunk.flat(),
      );
    }
    await this.db.run(trigger);
  }
}

function valuesWriter(db: SqlTx): ImportedRowsWriter {
  const planSums = new PlanSumPause(db);
  const perInsert = db.maxRowsPerInsert(IMPORTED_COLUMNS);
  const insertSql = (rows: number) =>
    `insert into ${TRANSACTION_TABLE} (${IMPORTED_COLUMN_NAMES}) values ` +
    valuesSql('(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, false)', rows);
  const full = insertSql(perInsert);
  const perStatement = perInsert * IMPORTED_COLUMNS;
  let params: unknown[] = [];
  const flush = async () => {
    const rows = params.length / IMPORTED_COLUMNS;
    if (rows === 0) return;
    const sending = params;
    params = [];
    await planSums.pause();
    await db.run(rows === perInsert ? full : insertSql(rows), sending);
  };
  return {
    async add(rows) {
      for (const row of rows) {
        for (let c = 0; c < IMPORTED_COLUMNS; c++) params.push(row[c]);
        planSums.count(row);
        if (params.length === perStatement) await flush();
      }
    },
    async finish() {
      await flush();
      await planSums.resume();
    },
  };
}

function unnestWriter(db: SqlTx): ImportedRowsWriter {
  const insertSql = `insert into ${TRANSACTION_TABLE} (${IMPORTED_COLUMN_NAMES})
    select u.*, false from unnest(${IMPORTED_COLUMN_TYPES.map((type) => `?::${type}[]`).join(', ')}) as u`;
  const empty = () => Array.from({ length: IMPORTED_COLUMNS }, (): (ImportedRow[number] | undefined)[] => []);
  let columns = empty();
  let gathered = 0;
  // One statement in flight while the next one's rows are gathered and written out as text.
  let inFlight: Promise<unknown> = Promise.resolve();
  const flush = async () => {
    if (gathered === 0) return;
    const literals = columns.map(pgArrayLiteral);
    columns = empty();
    gathered = 0;
    await inFlight;
    inFlight = db.run(insertSql, literals);
    // A failure is thrown by the next flush or by finish(), not reported as unhandled meanwhile.
    inFlight.catch(() => undefined);
  };
  return {
    async add(rows) {
      for (const row of rows) {
        for (let c = 0; c < IMPORTED_COLUMNS; c++) must(columns[c], 'c < IMPORTED_COLUMNS').push(row[c]);
        gathered += 1;
        if (gathered === ROWS_PER_UNNEST) await flush();
      }
    },
    async finish() {
      await flush();
      await inFlight;
    },
  };
}

/**
 * One restored row (user-data restore): id (from reserveTransactionIds), user, account, category, category_source,
 * post_date, description, bank_description, amount, type, is_split, parent, split_note, batch, created_at,
 * original_amount, original_currency, memo, cleared.
 */
export type RestoredRow = [
  number,
  number,
  number | null,
  number | null,
  string | null,
  string,
  string,
  string | null,
  number,
  string,
  boolean,
  number | null,
  string | null,
  string | null,
  string,
  number | null,
  string | null,
  string | null,
  string,
];
const RESTORED_COLUMNS = 19;
const RESTORED_COLUMN_NAMES =
  'id, user_id, account_id, category_id, category_source, post_date, description, bank_description, amount, type, is_split, parent_id, split_note, batch_id, created_at, original_amount, original_currency, memo, cleared';
/** PostgreSQL array types of the RestoredRow columns, in order. */
const RESTORED_COLUMN_TYPES = [
  'int',
  'int',
  'int',
  'int',
  'varchar',
  'varchar',
  'text',
  'text',
  'bigint',
  'varchar',
  'boolean',
  'int',
  'text',
  'varchar',
  'varchar',
  'bigint',
  'varchar',
  'text',
  'varchar',
];

/** `count` ids for rows this transaction is about to insert into the transaction table (see reserveIds). */
export function reserveTransactionIds(db: SqlTx, count: number): Promise<number[]> {
  return reserveIds(db, 'transaction', count);
}

/**
 * Writes restored rows, many a statement (multi-row VALUES on SQLite, one array a column on PostgreSQL, as
 * importedRowsWriter does); call inside the restore's transaction.
 */
export async function insertRestoredTransactions(db: SqlTx, rows: readonly RestoredRow[]): Promise<void> {
  if (rows.length === 0) return;
  if (db.bulk === 'unnest') {
    const columns = Array.from({ length: RESTORED_COLUMNS }, (_, c) => pgArrayLiteral(rows.map((row) => row[c])));
    await db.run(
      `insert into ${TRANSACTION_TABLE} (${RESTORED_COLUMN_NAMES})
        select * from unnest(${RESTORED_COLUMN_TYPES.map((type) => `?::${type}[]`).join(', ')})`,
      columns,
    );
    return;
  }
  const perInsert = db.maxRowsPerInsert(RESTORED_COLUMNS);
  for (let i = 0; i < rows.length; i += perInsert) {
    const chunk = rows.slice(i, i + perInsert);
    await db.run(
      `insert into ${TRANSACTION_TABLE} (${RESTORED_COLUMN_NAMES}) values ${valuesSql(`(${Array.from({ length: RESTORED_COLUMNS }, () => '?').join(', ')})`, chunk.length)}`,
      chunk.flat(),
    );
  }
}

/** Points restored parts ([id, parent id]) at their parents once both exist. */
export async function setRestoredParents(
  db: SqlTx,
  userId: number,
  parts: readonly (readonly [number, number])[],
): Promise<void> {
  if (parts.length === 0) return;
  if (db.bulk === 'unnest') {
    await db.run(
      `update ${TRANSACTION_TABLE} t set parent_id = v.parent_id
         from unnest(?::int[], ?::int[]) as v(id, parent_id) where t.id = v.id and t.user_id = ?`,
      [pgArrayLiteral(parts.map(([id]) => id)), pgArrayLiteral(parts.map(([, parentId]) => parentId)), userId],
    );
    return;
  }
  for (const [id, parentId] of parts)
    await db.run(`update ${TRANSACTION_TABLE} set parent_id = ? where id = ? and user_id = ?`, [parentId, id, userId]);
}
