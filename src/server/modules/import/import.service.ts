import { randomUUID } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/better-sqlite';
import type BetterSqlite3 from 'better-sqlite3';
import { dedupeKey, markDuplicatesSteps, runStepsAsync, type CsvReadFailure, type CsvReadSuccess, type CsvRow, type StoredRows } from '../../../shared/csv';
import { AppError, type ErrorCode } from '../../../shared/errors';
import { readImportAsync } from '../../../shared/import/read-file';
import { planImportRows, type PlannedImportRow, type RuleSet } from '../../../shared/rules';
import { autoTransactionType, type ImportFields, type ImportPreview, type ImportResult } from '../../../shared/schemas/import';
import type { TransactionType } from '../../../shared/schemas/transactions';
import type { Account } from '../accounts/account.entity';
import { findAccountByName } from '../accounts/accounts.service';
import { ensureCategories } from '../categories/categories.service';
import { loadRuleSet } from '../rules/rules.service';
import { selectRows } from '../transactions/transactions.query';
import { currentModelEntry, learnBatchAfterCommit, suggestionModel, suggestionModelEntry } from '../categories/suggestions.service';
import { categoriseImportRows, categoriseImportRowsAsync, type RowCategory } from './import-categories';
import { putImportProfile, savedMappingOf } from './import-profile.service';
import { nameKey } from '../../../shared/names';

export interface ImportInput extends ImportFields {
  bytes: Uint8Array;
  fileName: string | null;
}

const CHUNK = 2000;
/** Rows per multi-row INSERT statement (11 parameters each, far below SQLite's limit). */
const ROWS_PER_INSERT = 100;
const PARAMS_PER_ROW = 12;

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
  return serialized(() => runImport(em, userId, input));
}

async function readFile(em: EntityManager, userId: number, account: Account, input: ImportInput): Promise<CsvReadSuccess> {
  const previous = await selectRows<{ date_format: string }>(
    em,
    'select date_format from batch where user_id = ? and account_id = ? and date_format is not null order by upload_date desc limit 1',
    [userId, account.id],
  );
  const savedMapping = input.mapping ? null : await savedMappingOf(em, userId, account.id);
  // Read stepwise: the event loop keeps serving other requests during a large file.
  const read = await readImportAsync(
    input.bytes,
    {
      dateFormat: input.dateFormat,
      preferredDateFormat: previous[0]?.date_format ?? null,
      flipAmounts: input.flipAmounts,
      mapping: input.mapping ?? null,
      savedMapping,
    },
    yieldToEventLoop,
  );
  if (!read.ok) throw new AppError(failureCodes[read.code], read.message, { code: read.code, ...(read.details ?? {}) });
  return read;
}

function dateRange(rows: readonly CsvRow[]): [string, string] {
  let min = rows[0].postDate;
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
async function storedRows(db: BetterSqlite3.Database, userId: number, accountId: number, rows: readonly CsvRow[]): Promise<StoredRows> {
  const [minDate, maxDate] = dateRange(rows);
  const stored = db
    .prepare('select post_date, amount, coalesce(bank_description, description), fitid from `transaction` where user_id = ? and account_id = ? and parent_id is null and post_date between ? and ?')
    .raw(true);
  const all = new Map<string, number>();
  const withoutFitid = new Map<string, number>();
  let seen = 0;
  for (const [postDate, amount, description, fitid] of stored.iterate(userId, accountId, minDate, maxDate) as Iterable<[string, number, string, string | null]>) {
    if (++seen % CHUNK === 0) await yieldToEventLoop();
    const key = dedupeKey(postDate, amount, description);
    all.set(key, (all.get(key) ?? 0) + 1);
    if (!fitid) withoutFitid.set(key, (withoutFitid.get(key) ?? 0) + 1);
  }
  const fitids = new Set<string>();
  if (rows.some((row) => row.fitid)) {
    const ids = db.prepare('select fitid from `transaction` where user_id = ? and account_id = ? and fitid is not null').raw(true);
    for (const [fitid] of ids.iterate(userId, accountId) as Iterable<[string]>) {
      if (++seen % CHUNK === 0) await yieldToEventLoop();
      fitids.add(fitid);
    }
  }
  return { all, withoutFitid, fitids };
}

/** A row as it will be stored: read from the file, then through the user's rules. */
export type ImportRow = PlannedImportRow;

async function runImport(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult | ImportPreview> {
  const account = await findAccountByName(em, userId, input.account);
  const read = await readFile(em, userId, account, input);
  const typeOf = (amount: number): TransactionType => (input.transactionType === 'auto' ? autoTransactionType(amount, account.type) : input.transactionType);
  const rules = (await loadRuleSet(em, userId)).forAccount(account.name);
  // Rules run on every row before duplicates are looked for: a renamed row is stored renamed.
  const rows = await runStepsAsync(planImportRows(read.rows, rules, account.name, typeOf), yieldToEventLoop);
  const markDuplicates = async (db: BetterSqlite3.Database) =>
    runStepsAsync(markDuplicatesSteps(rows, await storedRows(db, userId, account.id, rows)), yieldToEventLoop);

  if (input.dryRun) {
    // A read-only transaction, so the rows are streamed on a connection no other request uses.
    return em.transactional(async (tem) => {
      const duplicates = await markDuplicates(await connectionOf(tem));
      const shown = previewRows(rows, duplicates);
      const model = account.applySuggestions && shown.some(uncategorised) ? await suggestionModel(tem, userId) : null;
      return preview(read, rows, shown, rules, duplicates, input, categoriseImportRows(shown, model));
    });
  }

  let afterCommit: (() => void) | null = null;
  const written = await em.transactional(async (tem) => {
    const db = await connectionOf(tem);
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
    rows: shown.map(({ fitid: _fitid, ruleIds, ...row }, i) => ({
      ...row,
      ruleIds,
      ruleId: ruleIds.category ?? null,
      ruleName: ruleIds.category === undefined ? null : (rules.nameOf(ruleIds.category) ?? null),
      category: categories[i].category,
      categorySource: categories[i].source,
      ...(categories[i].reason ? { categoryReason: categories[i].reason } : {}),
    })),
    skippedLines: read.skipped.slice(0, PREVIEW_ROW_LIMIT),
  };
}

async function insertBatch(
  tem: EntityManager,
  db: BetterSqlite3.Database,
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
  db.prepare('insert into batch (id, user_id, account_id, upload_date, transaction_count, file_name, date_format) values (?, ?, ?, ?, ?, ?, ?)').run(
    batchId,
    userId,
    accountId,
    now,
    fresh.length,
    input.fileName?.slice(0, 255) ?? null,
    dateFormat,
  );
  // Multi-row inserts (ROWS_PER_INSERT rows a statement) cost far less per row than one
  // statement per row; the tail of the file goes in with a statement sized to it.
  const insertSql = (rows: number) =>
    'insert into `transaction` (user_id, account_id, category_id, category_source, post_date, description, bank_description, amount, type, is_split, parent_id, split_note, batch_id, fitid, created_at) values ' +
    Array.from({ length: rows }, () => '(?, ?, ?, ?, ?, ?, ?, ?, ?, 0, null, null, ?, ?, ?)').join(', ');
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
    const { category, source } = categories[i];
    const categoryId = category ? (categoryIds.get(nameKey(category)) ?? null) : null;
    // The bank's text is kept only when a rule renamed the row (duplicate detection reads it).
    const bankDescription = row.bankDescription === row.description ? null : row.bankDescription;
    params.push(userId, accountId, categoryId, categoryId === null ? null : source, row.postDate, row.description, bankDescription, row.amount, row.type, batchId, row.fitid ?? null, now);
    if (params.length === ROWS_PER_INSERT * PARAMS_PER_ROW) flush();
    if ((i + 1) % CHUNK === 0 && i + 1 < fresh.length) await yieldToEventLoop();
  }
  flush();
  return batchId;
}

/** The better-sqlite3 handle a transaction runs on (for prepared inserts and streamed reads). */
async function connectionOf(tem: EntityManager): Promise<BetterSqlite3.Database> {
  const trx = tem.getTransactionContext() as unknown as { client: { acquireConnection: () => Promise<BetterSqlite3.Database> } };
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
