import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/better-sqlite';
import type BetterSqlite3 from 'better-sqlite3';
import { dedupeKey, markDuplicatesSteps, readCsvAsync, runStepsAsync, type CsvReadFailure } from '../../../shared/csv';
import { AppError, type ErrorCode } from '../../../shared/errors';
import type { ImportFields, ImportPreview, ImportResult } from '../../../shared/schemas/import';
import { findAccountByName } from '../accounts/accounts.service';
import { ensureCategories } from '../categories/categories.service';
import { selectRows } from '../transactions/transactions.query';

export interface ImportInput extends ImportFields {
  bytes: Uint8Array;
  fileName: string | null;
}

const CHUNK = 2000;
/** Rows per multi-row INSERT statement (9 parameters each, far below SQLite's limit). */
const ROWS_PER_INSERT = 100;
const PARAMS_PER_ROW = 9;

const failureCodes: Record<CsvReadFailure['code'], ErrorCode> = {
  EMPTY: 'BAD_REQUEST',
  NOT_CSV: 'UNSUPPORTED_MEDIA_TYPE',
  NO_HEADER: 'BAD_REQUEST',
  NO_DATE_COLUMN: 'BAD_REQUEST',
  NO_AMOUNT_COLUMN: 'BAD_REQUEST',
  NO_ROWS: 'BAD_REQUEST',
  AMBIGUOUS_DATE: 'UNPROCESSABLE',
  UNKNOWN_DATE_FORMAT: 'BAD_REQUEST',
  BAD_DATE: 'UNPROCESSABLE',
  BAD_AMOUNT: 'UNPROCESSABLE',
};

/** One import at a time: imports are long write transactions on one SQLite file. */
let queue: Promise<unknown> = Promise.resolve();
function serialized<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function importMessage(imported: number, duplicates: number): string {
  return `Imported ${plural(imported, 'transaction')}${duplicates > 0 ? ` (${plural(duplicates, 'duplicate')} skipped)` : ''}`;
}

/**
 * Reads a bank CSV and, unless it is a dry run, writes it as one batch in one database
 * transaction: all rows or none. Rows already stored in the account (same date, cents and
 * normalised description) are skipped, counted by occurrence.
 */
export function importCsv(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult | ImportPreview> {
  return serialized(() => runImport(em, userId, input));
}

async function runImport(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult | ImportPreview> {
  const account = await findAccountByName(em, userId, input.account);
  const previous = await selectRows<{ date_format: string }>(
    em,
    'select date_format from batch where user_id = ? and account_id = ? and date_format is not null order by upload_date desc limit 1',
    [userId, account.id],
  );
  // Read stepwise: the event loop keeps serving other requests during a large file.
  const read = await readCsvAsync(
    input.bytes,
    { dateFormat: input.dateFormat, preferredDateFormat: previous[0]?.date_format ?? null, flipAmounts: input.flipAmounts },
    yieldToEventLoop,
  );
  if (!read.ok) throw new AppError(failureCodes[read.code], read.message, { code: read.code, ...(read.details ?? {}) });

  let minDate = read.rows[0].postDate;
  let maxDate = minDate;
  for (const row of read.rows) {
    if (row.postDate < minDate) minDate = row.postDate;
    if (row.postDate > maxDate) maxDate = row.postDate;
  }
  /**
   * How many rows of each dedupe key the account already holds in the file's date range.
   * Streams the rows on the transaction's own connection, pausing every CHUNK rows.
   */
  const existingCounts = async (db: BetterSqlite3.Database) => {
    const stored = db
      .prepare('select post_date, amount, description from `transaction` where user_id = ? and account_id = ? and parent_id is null and post_date between ? and ?')
      .raw(true);
    const counts = new Map<string, number>();
    let seen = 0;
    for (const [postDate, amount, description] of stored.iterate(userId, account.id, minDate, maxDate) as Iterable<[string, number, string]>) {
      if (++seen % CHUNK === 0) await yieldToEventLoop();
      const key = dedupeKey(postDate, amount, description);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    return counts;
  };
  const markDuplicates = async (existing: Map<string, number>) => runStepsAsync(markDuplicatesSteps(read.rows, existing), yieldToEventLoop);

  if (input.dryRun) {
    // A read-only transaction, so the rows are streamed on a connection no other request uses.
    const duplicates = await em.transactional(async (tem) => markDuplicates(await existingCounts(await connectionOf(tem))));
    const duplicateCount = duplicates.filter(Boolean).length;
    const imported = read.rows.length - duplicateCount;
    return {
      dryRun: true,
      message: `Ready to import ${plural(imported, 'transaction')}${duplicateCount ? ` (${plural(duplicateCount, 'duplicate')} will be skipped)` : ''}`,
      batchId: null,
      imported,
      duplicates: duplicateCount,
      skipped: read.skipped.length,
      warnings: read.warnings,
      fileName: input.fileName,
      encoding: read.encoding,
      delimiter: read.delimiter,
      headerLine: read.headerLine,
      headers: read.headers,
      columns: read.columns,
      dateFormat: read.dateFormat,
      dateFormatCandidates: read.dateFormatCandidates,
      totalRows: read.rows.length,
      // The first rows as they will be stored, plus (up to a limit) every duplicate: a
      // 100,000-row file must not come back whole as JSON just to be previewed.
      rows: previewRows(read.rows, duplicates),
      skippedLines: read.skipped,
    };
  }

  return em.transactional(async (tem) => {
    const db = await connectionOf(tem);
    const duplicates = await markDuplicates(await existingCounts(db));
    const fresh = read.rows.filter((_, i) => !duplicates[i]);
    const duplicateCount = read.rows.length - fresh.length;
    if (fresh.length === 0) {
      // Nothing new: no empty batch is created.
      return { message: importMessage(0, duplicateCount), batchId: null, imported: 0, duplicates: duplicateCount, skipped: read.skipped.length, warnings: read.warnings };
    }
    const categoryIds = await ensureCategories(
      tem,
      userId,
      fresh.map((row) => row.category).filter((name): name is string => Boolean(name)),
    );
    const batchId = randomUUID();
    const now = new Date().toISOString();
    db.prepare('insert into batch (id, user_id, account_id, upload_date, transaction_count, file_name, date_format) values (?, ?, ?, ?, ?, ?, ?)').run(
      batchId,
      userId,
      account.id,
      now,
      fresh.length,
      input.fileName?.slice(0, 255) ?? null,
      read.dateFormat,
    );
    // Multi-row inserts (ROWS_PER_INSERT rows a statement) cost far less per row than one
    // statement per row; the tail of the file goes in with a statement sized to it.
    const insertSql = (rows: number) =>
      'insert into `transaction` (user_id, account_id, category_id, post_date, description, amount, type, is_split, parent_id, split_note, batch_id, created_at) values ' +
      Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, 0, null, null, ?, ?)').join(', ');
    const fullInsert = db.prepare(insertSql(ROWS_PER_INSERT));
    const params: unknown[] = [];
    const flush = () => {
      const rows = params.length / PARAMS_PER_ROW;
      if (rows === 0) return;
      (rows === ROWS_PER_INSERT ? fullInsert : db.prepare(insertSql(rows))).run(params);
      params.length = 0;
    };
    for (let i = 0; i < fresh.length; i += 1) {
      const row = fresh[i];
      const categoryId = row.category ? (categoryIds.get(row.category.trim().toLowerCase()) ?? null) : null;
      params.push(userId, account.id, categoryId, row.postDate, row.description, row.amount, input.transactionType, batchId, now);
      if (params.length === ROWS_PER_INSERT * PARAMS_PER_ROW) flush();
      if ((i + 1) % CHUNK === 0 && i + 1 < fresh.length) await yieldToEventLoop();
    }
    flush();
    return {
      message: importMessage(fresh.length, duplicateCount),
      batchId,
      imported: fresh.length,
      duplicates: duplicateCount,
      skipped: read.skipped.length,
      warnings: read.warnings,
    };
  });
}

/** The better-sqlite3 handle a transaction runs on (for prepared inserts and streamed reads). */
async function connectionOf(tem: EntityManager): Promise<BetterSqlite3.Database> {
  const trx = tem.getTransactionContext() as unknown as { client: { acquireConnection(): Promise<BetterSqlite3.Database> } };
  return trx.client.acquireConnection();
}

/** How many leading rows a dry run returns, and how many duplicates beyond them at most. */
export const PREVIEW_ROW_LIMIT = 100;

function previewRows<T extends object>(rows: readonly T[], duplicates: readonly boolean[]): (T & { duplicate: boolean })[] {
  const out: (T & { duplicate: boolean })[] = [];
  let extraDuplicates = 0;
  for (let i = 0; i < rows.length; i++) {
    if (i < PREVIEW_ROW_LIMIT) out.push({ ...rows[i], duplicate: duplicates[i] });
    else if (duplicates[i] && extraDuplicates < PREVIEW_ROW_LIMIT) {
      out.push({ ...rows[i], duplicate: true });
      extraDuplicates++;
    } else if (extraDuplicates >= PREVIEW_ROW_LIMIT) break;
  }
  return out;
}
