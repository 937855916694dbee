import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/knex';
import { dedupeKey, markDuplicatesSteps, runStepsAsync, type CsvReadFailure, type CsvReadSuccess, type CsvRow, type StoredRows } from '../../../shared/csv';
import { AppError, type ErrorCode } from '../../../shared/errors';
import { readImportAsync } from '../../../shared/import/read-file';
import { planImportRows, type PlannedImportRow, type RuleSet } from '../../../shared/rules';
import { autoTransactionType, type ImportFields, type ImportPreview, type ImportResult } from '../../../shared/schemas/import';
import type { TransactionType } from '../../../shared/schemas/transactions';
import { findAccountByName } from '../accounts/accounts.service';
import { ensureCategories } from '../categories/categories.service';
import { loadRuleSet } from '../rules/rules.service';
import { dialectOf, selectRows, sqlTx, withUserScope, type SqlTx } from '../../db/sql';
import { importedRowsWriter, streamAccountFitids, streamAccountRows } from '../transactions/transactions.sql';
import { currentModelEntry, learnBatchAfterCommit, suggestionModel, suggestionModelEntry } from '../categories/suggestions.service';
import { categoriseImportRows, categoriseImportRowsAsync, type RowCategory } from './import-categories';
import { putImportProfile, savedMappingOf } from './import-profile.service';
import { limiter } from '../../common/limiter';
import { nameKey } from '../../../shared/names';
import { must } from '../../../shared/must';

export interface ImportInput extends ImportFields {
  bytes: Uint8Array;
  fileName: string | null;
}

const CHUNK = 2000;

const failureCodes: Record<CsvReadFailure['code'], ErrorCode> = {
  EMPTY: 'BAD_REQUEST',
  NOT_CSV: 'UNSUPPORTED_MEDIA_TYPE',
  NO_HEADER: 'UNPROCESSABLE',
  NO_DATE_COLUMN: 'UNPROCESSABLE',
  NO_AMOUNT_COLUMN: 'UNPROCESSABLE',
  NEEDS_MAPPING: 'UNPROCESSABLE',
  BAD_MAPPING: 'UNPROCESSABLE',
  NO_ROWS: 'BAD_REQUEST',
  AMBIGUOUS_DATE: 'UNPROCESSABLE',
  UNKNOWN_DATE_FORMAT: 'BAD_REQUEST',
  BAD_DATE: 'UNPROCESSABLE',
  BAD_AMOUNT: 'UNPROCESSABLE',
  TOO_MANY_COLUMNS: 'UNPROCESSABLE',
  LINE_TOO_LONG: 'UNPROCESSABLE',
  BAD_STATEMENT: 'UNPROCESSABLE',
};

/** SQLite: one import at a time per process (a long write transaction on one file). */
const sqliteImports = limiter(1);
/**
 * PostgreSQL: several writers, but few imports at once per process. Imports are long and mostly
 * CPU: a few at a time finish as soon as many would, while a search between their steps waits
 * behind a few steps instead of one step of every import in flight.
 */
const postgresImports = limiter(2);

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function importMessage(imported: number, duplicates: number): string {
  return `Imported ${plural(imported, 'transaction')}${duplicates > 0 ? ` (${plural(duplicates, 'duplicate')} skipped)` : ''}`;
}

/** A dry run's first sentence: "Ready to import 9 transactions." */
export function previewMessage(imported: number, duplicates: number): string {
  return `Ready to import ${plural(imported, 'transaction')}${duplicates ? ` (${plural(duplicates, 'duplicate')} will be skipped)` : ''}.`;
}

/**
 * Reads a bank file (CSV, OFX/QFX, QIF, CAMT.053) and, unless it is a dry run, writes it as
 * one batch in one database transaction: all rows or none. Rows already stored in the
 * account are skipped, counted by occurrence (by bank id when the file has them).
 */
export function importFile(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult | ImportPreview> {
  // PostgreSQL takes many writers: imports into different accounts run side by side, and two
  // into the same account (from any process) wait for each other on a lock (lockAccountImports).
  if (dialectOf(em) === 'postgresql') return postgresImports(() => runImport(em, userId, input));
  return sqliteImports(() => runImport(em, userId, input));
}

/** Any number for the first key of the import lock: with the account id it names one account's imports. */
const IMPORT_LOCK_CLASS = 18_001;

/**
 * PostgreSQL: holds the account's import lock until the transaction ends, so a second import of
 * the same file (in this process or another) waits, then sees the first one's rows as duplicates.
 * SQLite needs none: one write transaction at a time holds the whole file.
 */
async function lockAccountImports(db: SqlTx, accountId: number): Promise<void> {
  if (db.dialect === 'postgresql') await db.all('select pg_advisory_xact_lock(?, ?)', [IMPORT_LOCK_CLASS, accountId]);
}

/** What an import reads from the database before the file: the account, its last date format, its saved mapping and the rules. */
async function importContext(em: EntityManager, userId: number, input: ImportInput) {
  const account = await findAccountByName(em, userId, input.account);
  const previous = await selectRows<{ date_format: string }>(
    em,
    'select date_format from batch where user_id = ? and account_id = ? and date_format is not null order by upload_date desc limit 1',
    [userId, account.id],
  );
  const savedMapping = input.mapping ? null : await savedMappingOf(em, userId, account.id);
  const rules = (await loadRuleSet(em, userId)).forAccount(account.name);
  return { account, preferredDateFormat: previous[0]?.date_format ?? null, savedMapping, rules };
}

async function readFile(input: ImportInput, context: Awaited<ReturnType<typeof importContext>>): Promise<CsvReadSuccess> {
  // Read stepwise: the event loop keeps serving other requests during a large file.
  const read = await readImportAsync(
    input.bytes,
    {
      dateFormat: input.dateFormat,
      preferredDateFormat: context.preferredDateFormat,
      flipAmounts: input.flipAmounts,
      mapping: input.mapping ?? null,
      savedMapping: context.savedMapping,
    },
    yieldToEventLoop,
  );
  if (!read.ok) throw new AppError(failureCodes[read.code], read.message, { code: read.code, ...(read.details ?? {}) });
  return read;
}

function dateRange(rows: readonly CsvRow[]): [string, string] {
  let min = must(rows[0], 'a file that was read has at least one row').postDate;
  let max = min;
  for (const row of rows) {
    if (row.postDate < min) min = row.postDate;
    if (row.postDate > max) max = row.postDate;
  }
  return [min, max];
}

/**
 * What the account already holds in the file's date range (rows per dedupe key, all and
 * without a bank id) and, when the file has bank ids, every stored one. Streams on the
 * transaction's own connection, pausing every CHUNK rows.
 */
async function storedRows(db: SqlTx, userId: number, accountId: number, rows: readonly CsvRow[]): Promise<StoredRows> {
  const [minDate, maxDate] = dateRange(rows);
  const all = new Map<string, number>();
  const withoutFitid = new Map<string, number>();
  for await (const chunk of streamAccountRows(db, userId, accountId, minDate, maxDate, CHUNK)) {
    for (const [postDate, amount, description, fitid] of chunk) {
      const key = dedupeKey(postDate, amount, description);
      all.set(key, (all.get(key) ?? 0) + 1);
      if (!fitid) withoutFitid.set(key, (withoutFitid.get(key) ?? 0) + 1);
    }
    await yieldToEventLoop();
  }
  const fitids = new Set<string>();
  if (rows.some((row) => row.fitid)) {
    for await (const chunk of streamAccountFitids(db, userId, accountId, CHUNK)) {
      for (const [fitid] of chunk) fitids.add(fitid);
      await yieldToEventLoop();
    }
  }
  return { all, withoutFitid, fitids };
}

/** A row as it will be stored: read from the file, then through the user's rules. */
export type ImportRow = PlannedImportRow;

/**
 * `em` is not scoped to the user: each step that reads or writes runs in its own user-scoped
 * transaction (withUserScope; on SQLite it runs on `em` as it is), so reading and planning a large
 * file holds no database connection that other requests could use meanwhile.
 */
async function runImport(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult | ImportPreview> {
  const context = await withUserScope(em, userId, (sem) => importContext(sem, userId, input));
  const { account, rules } = context;
  const read = await readFile(input, context);
  const typeOf = (amount: number): TransactionType => (input.transactionType === 'auto' ? autoTransactionType(amount, account.type) : input.transactionType);
  // Rules run on every row before duplicates are looked for: a renamed row is stored renamed.
  const rows = await runStepsAsync(planImportRows(read.rows, rules, account.name, typeOf), yieldToEventLoop);
  const markDuplicates = async (db: SqlTx) =>
    runStepsAsync(markDuplicatesSteps(rows, await storedRows(db, userId, account.id, rows)), yieldToEventLoop);

  if (input.dryRun) {
    // A read-only transaction, so the rows are streamed on a connection no other request uses.
    return scopedTransaction(em, userId, async (tem) => {
      const duplicates = await markDuplicates(await sqlTx(tem));
      const shown = previewRows(rows, duplicates);
      const model = account.applySuggestions && shown.some(uncategorised) ? await suggestionModel(tem, userId) : null;
      return preview(read, rows, shown, rules, duplicates, input, categoriseImportRows(shown, model));
    });
  }

  let afterCommit: (() => void) | null = null;
  const written = await scopedTransaction(em, userId, async (tem) => {
    const db = await sqlTx(tem);
    await lockAccountImports(db, account.id);
    const duplicates = await markDuplicates(db);
    // A mapping chosen for this upload becomes the account's import profile.
    if (input.mapping && read.mapping) await putImportProfile(tem, userId, account.id, read.mapping);
    const fresh = rows.filter((_, i) => !duplicates[i]);
    const duplicateCount = rows.length - fresh.length;
    const result = { batchId: null, imported: 0, duplicates: duplicateCount, skipped: read.skipped.length, warnings: read.warnings };
    if (fresh.length === 0) return { message: importMessage(0, duplicateCount), ...result };
    // Learned suggestions come last: only rows that neither the file nor a rule categorised.
    // The model is learned (or taken from the cache) only when some row is left to categorise.
    const learned = account.applySuggestions && fresh.some(uncategorised) ? await suggestionModelEntry(tem, userId) : await currentModelEntry(tem, userId);
    const categories = await categoriseImportRowsAsync(fresh, account.applySuggestions ? (learned?.model ?? null) : null, yieldToEventLoop);
    const batchId = await insertBatch(tem, db, userId, account.id, fresh, categories, input, read.format === 'csv' || read.format === 'qif' ? read.dateFormat : null);
    // The cached model learns this batch's rows once they are committed (not the whole history again).
    if (learned) afterCommit = await learnBatchAfterCommit(tem, userId, learned, batchId);
    return { ...result, message: importMessage(fresh.length, duplicateCount), batchId, imported: fresh.length };
  });
  (afterCommit as (() => void) | null)?.();
  return written;
}

/** A row neither the file nor a rule categorised: learned suggestions may fill it. */
const uncategorised = (row: ImportRow) => row.category === null;

/** One transaction scoped to the user (row-level security on PostgreSQL). */
function scopedTransaction<T>(em: EntityManager, userId: number, work: (tem: EntityManager) => Promise<T>): Promise<T> {
  return withUserScope(em, userId, (sem) => sem.transactional(work));
}

function preview(
  read: CsvReadSuccess,
  rows: readonly ImportRow[],
  shown: readonly (ImportRow & { duplicate: boolean })[],
  rules: RuleSet,
  duplicates: readonly boolean[],
  input: ImportInput,
  categories: readonly RowCategory[],
): ImportPreview {
  const duplicateCount = duplicates.filter(Boolean).length;
  const imported = rows.length - duplicateCount;
  return {
    dryRun: true,
    message: previewMessage(imported, duplicateCount),
    batchId: null,
    imported,
    duplicates: duplicateCount,
    skipped: read.skipped.length,
    warnings: read.warnings,
    fileName: input.fileName,
    format: read.format,
    encoding: read.encoding,
    delimiter: read.delimiter,
    headerLine: read.headerLine,
    headers: read.headers,
    columns: read.columns,
    dateColumn: read.dateColumn,
    dateFormat: read.dateFormat,
    dateFormatCandidates: read.dateFormatCandidates,
    notes: read.notes,
    usedSavedMapping: read.usedSavedMapping,
    mapping: read.mapping?.mapping ?? null,
    ...(read.sample ? { sample: read.sample } : {}),
    totalRows: read.rows.length,
    // The first rows as they will be stored, plus (up to a limit) every duplicate: a
    // 100,000-row file must not come back whole as JSON just to be previewed.
    rows: shown.map(({ fitid: _fitid, ruleIds, ...row }, i) => {
      const { category, source, reason } = must(categories[i], 'one category per shown row');
      return {
        ...row,
        ruleIds,
        ruleId: ruleIds.category ?? null,
        ruleName: ruleIds.category === undefined ? null : (rules.nameOf(ruleIds.category) ?? null),
        category,
        categorySource: source,
        ...(reason ? { categoryReason: reason } : {}),
      };
    }),
    skippedLines: read.skipped.slice(0, PREVIEW_ROW_LIMIT),
  };
}

async function insertBatch(
  tem: EntityManager,
  db: SqlTx,
  userId: number,
  accountId: number,
  fresh: readonly ImportRow[],
  categories: readonly RowCategory[],
  input: ImportInput,
  dateFormat: string | null,
): Promise<string> {
  const categoryIds = await ensureCategories(
    tem,
    userId,
    categories.map((row) => row.category).filter((name): name is string => Boolean(name)),
  );
  const batchId = randomUUID();
  const now = new Date().toISOString();
  await db.run('insert into batch (id, user_id, account_id, upload_date, transaction_count, file_name, date_format) values (?, ?, ?, ?, ?, ?, ?)', [
    batchId,
    userId,
    accountId,
    now,
    fresh.length,
    input.fileName?.slice(0, 255) ?? null,
    dateFormat,
  ]);
  const writer = importedRowsWriter(db);
  for (let i = 0; i < fresh.length; i += 1) {
    const row = must(fresh[i], 'i < fresh.length');
    const { category, source } = must(categories[i], 'one category per fresh row');
    const categoryId = category ? (categoryIds.get(nameKey(category)) ?? null) : null;
    // The bank's text is kept only when a rule renamed the row (duplicate detection reads it).
    const bankDescription = row.bankDescription === row.description ? null : row.bankDescription;
    await writer.add([userId, accountId, categoryId, categoryId === null ? null : source, row.postDate, row.description, bankDescription, row.amount, row.type, batchId, row.fitid ?? null, now]);
    if ((i + 1) % CHUNK === 0 && i + 1 < fresh.length) await yieldToEventLoop();
  }
  await writer.finish();
  return batchId;
}

/** How many leading rows a dry run returns, and how many duplicates beyond them at most. */
export const PREVIEW_ROW_LIMIT = 100;

function previewRows<T extends object>(rows: readonly T[], duplicates: readonly boolean[]): (T & { duplicate: boolean })[] {
  const out: (T & { duplicate: boolean })[] = [];
  let extraDuplicates = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = must(rows[i], 'i < rows.length');
    const duplicate = must(duplicates[i], 'one duplicate flag per row');
    if (i < PREVIEW_ROW_LIMIT) out.push({ ...row, duplicate });
    else if (duplicate && extraDuplicates < PREVIEW_ROW_LIMIT) {
      out.push({ ...row, duplicate: true });
      extraDuplicates++;
    } else if (extraDuplicates >= PREVIEW_ROW_LIMIT) break;
  }
  return out;
}
