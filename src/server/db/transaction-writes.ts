/**
 * The hand-written writes and bulk reads on the transaction table, on either database (the
 * read model for answers is transaction-reads/).
 */
import type { EntityManager } from '@mikro-orm/knex';
import { onPostgres, runSql, selectRows, TRANSACTION_TABLE, valuesSql, type SqlTx } from './sql';
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
 * transaction, and its rows (every row with a larger id, AUTOINCREMENT ids only grow) are added to the sums in one
 * grouped statement before the trigger is put back, still in the same transaction. A rollback undoes all three;
 * no other writer runs meanwhile (SQLite's one write transaction holds the file). PostgreSQL's triggers are
 * per statement and take an import's rows in one grouped write already.
 */
async function pausePlanSumTrigger(db: SqlTx): Promise<() => Promise<void>> {
  const [trigger] = await db.all<{ sql: string }>(
    "select sql from sqlite_master where type = 'trigger' and name = 'plan_month_sum_insert'",
  );
  if (!trigger) return () => Promise.resolve();
  const [before] = await db.all<{ last: number }>(`select coalesce(max(id), 0) as last from ${TRANSACTION_TABLE}`);
  await db.run('drop trigger plan_month_sum_insert');
  return async () => {
    await db.run(
      `insert into plan_month_sum (user_id, account_id, category_key, month, n, total)
         select user_id, account_id, coalesce(category_id, 0), substr(post_date, 1, 7), count(*), sum(amount)
           from ${TRANSACTION_TABLE}
          where id > ? and is_split = 0 and transfer_id is null and account_id is not null
          group by 1, 2, 3, 4
       on conflict (user_id, account_id, category_key, month) do update set n = n + excluded.n, total = total + excluded.total`,
      [before?.last ?? 0],
    );
    await db.run(trigger.sql);
  };
}

function valuesWriter(db: SqlTx): ImportedRowsWriter {
  let resume: Promise<() => Promise<void>> | null = null;
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
    resume ??= pausePlanSumTrigger(db);
    await resume;
    await db.run(rows === perInsert ? full : insertSql(rows), sending);
  };
  return {
    async add(rows) {
      for (const row of rows) {
        for (let c = 0; c < IMPORTED_COLUMNS; c++) params.push(row[c]);
        if (params.length === perStatement) await flush();
      }
    },
    async finish() {
      await flush();
      if (resume) await (await resume)();
      resume = null;
    },
  };
}

/**
 * A PostgreSQL array literal of strings, numbers and nulls (`{"a","b\\"c",NULL,12}`), sent as one
 * text parameter and cast by the statement (`?::text[]`).
 */
export function pgArrayLiteral(values: readonly (string | number | boolean | null | undefined)[]): string {
  const parts = new Array<string>(values.length);
  for (let i = 0; i < values.length; i++) {
    const value = values[i];
    if (value === null || value === undefined) parts[i] = 'NULL';
    else if (typeof value === 'number') parts[i] = String(value);
    else parts[i] = `"${String(value).replace(/[\\"]/g, '\\$&')}"`;
  }
  return `{${parts.join(',')}}`;
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

/**
 * `count` ids for rows this transaction is about to insert into the transaction table, so a restore knows each
 * row's id before it is written and sends many rows a statement: PostgreSQL draws them from the table's sequence;
 * SQLite counts on from the largest id it ever gave (the transaction already holds the one write lock).
 */
export async function reserveTransactionIds(db: SqlTx, count: number): Promise<number[]> {
  if (db.bulk === 'unnest') {
    const rows = await db.all<{ id: number }>(
      `select nextval(pg_get_serial_sequence('${TRANSACTION_TABLE}', 'id'))::int as id from generate_series(1, ?::int)`,
      [count],
    );
    return rows.map((row) => row.id);
  }
  const [row] = await db.all<{ base: number }>(
    `select max(coalesce((select seq from sqlite_sequence where name = 'transaction'), 0),
                coalesce((select max(id) from ${TRANSACTION_TABLE}), 0)) as base`,
  );
  const base = must(row, 'max() answers one row').base;
  return Array.from({ length: count }, (_, i) => base + i + 1);
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
