import { randomUUID } from 'node:crypto';
import { minorUnitsOf } from '../../../shared/money/currencies';
import type { EntityManager } from '@mikro-orm/knex';
import {
  DuplicateMarker,
  RowCounts,
  runStepsAsync,
  type CsvReadFailure,
  type CsvReadHead,
  type CsvRow,
  type RowsEnd,
  type StoredRows,
} from '../../../shared/csv';
import { AppError, type ErrorCode } from '../../../shared/errors';
import { openImportSteps } from '../../../shared/import/read-file';
import { planImportRows, type PlannedImportRow, type RuleSet } from '../../../shared/rules';
import {
  autoTransactionType,
  type ImportAttention,
  type ImportFields,
  type ImportPreview,
  type ImportResult,
} from '../../../shared/schemas/import';
import type { TransactionType } from '../../../shared/schemas/transactions';
import { createAccount, findAccountByName } from '../accounts/accounts.service';
import type { AccountType } from '../../../shared/schemas/accounts';
import { ensureCategories } from '../categories/categories.service';
import { loadRuleSet } from '../rules/rules.service';
import { bulkWritersAtOnce, selectRows, sqlTx, withUserScope, type SqlTx } from '../../db/sql';
import { ChangeRecorder } from '../history/recorder';
import {
  importedRowsWriter,
  selectTrashedAccountRows,
  streamAccountFitids,
  streamAccountRows,
  type ImportedRow,
} from '../../db/transaction-writes';
import {
  currentModelEntry,
  learnBatchAfterCommit,
  suggestionModel,
  suggestionModelEntry,
  type CachedModel,
} from '../categories/suggestions.service';
import { categoriseImportRows, type RowCategory } from './import-categories';
import { putImportProfile, savedMappingOf } from './import-profile.service';
import { withCheckpointAfter } from '../../db/wal-checkpoint';
import { limiter } from '../../common/limiter';
import { pause } from '../../common/pause';
import { matchSchedulesAfterWrite } from '../schedules/schedule-runs';
import { detectTransfers, LISTED_PAIRS } from '../transfers/transfer-detection';
import type { ImportTransfers } from '../../../shared/schemas/transfers';
import { nameKey } from '../../../shared/names';
import { must } from '../../../shared/must';

export interface ImportInput extends ImportFields {
  bytes: Uint8Array;
  fileName: string | null;
  /** A file of several accounts' statements: the statements this import takes, or those it leaves out. */
  onlyStatements?: number[];
  skipStatements?: number[];
  /**
   * Pair the new rows with the other accounts' (transfers) after the commit; default true. Off only where
   * a caller measures the import without it (bench/transfers.bench.ts).
   */
  findTransfers?: boolean;
}

const CHUNK = 2000;
/**
 * Rows taken through rules, duplicates, categories and inserts at a time. Small enough that a
 * chunk's objects die young: with 500 or 2000, many lived through two scavenges and waited in
 * the old generation for a full collection, so a large file's peak memory swung with when that
 * came; at 100 it stays steady, at the same CPU time.
 */
const IMPORT_CHUNK = 100;

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

/** The imports running at once in this process, by how many the database takes (bulkWritersAtOnce). */
const importQueues = new Map<number, ReturnType<typeof limiter>>();

function importQueue(em: EntityManager): ReturnType<typeof limiter> {
  const slots = bulkWritersAtOnce(em);
  let queue = importQueues.get(slots);
  if (!queue) importQueues.set(slots, (queue = limiter(slots)));
  return queue;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

export function importMessage(imported: number, duplicates: number): string {
  return `Imported ${plural(imported, 'transaction')}${duplicates > 0 ? ` (${plural(duplicates, 'duplicate')} skipped)` : ''}`;
}

/** What an import says of the transfers it found: ". Linked 2 transfers; 1 to confirm." */
export function transfersMessage(transfers: ImportTransfers): string {
  const parts: string[] = [];
  if (transfers.linkedCount > 0) parts.push(`linked ${plural(transfers.linkedCount, 'transfer')}`);
  if (transfers.offeredCount > 0) parts.push(`${plural(transfers.offeredCount, 'possible transfer')} to confirm`);
  if (parts.length === 0) return '';
  const text = parts.join('; ');
  return `. ${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/** The transfers of several batches as one answer. */
function joinTransfers(all: readonly ImportTransfers[]): ImportTransfers {
  return {
    linked: all.flatMap((t) => t.linked).slice(0, LISTED_PAIRS),
    offered: all.flatMap((t) => t.offered).slice(0, LISTED_PAIRS),
    linkedCount: all.reduce((sum, t) => sum + t.linkedCount, 0),
    offeredCount: all.reduce((sum, t) => sum + t.offeredCount, 0),
  };
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
export function importFile(
  em: EntityManager,
  userId: number,
  input: ImportInput,
): Promise<ImportResult | ImportPreview> {
  if (input.statements?.length && !input.dryRun) return importStatements(em, userId, input);
  return importOne(em, userId, input);
}

function importOne(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult | ImportPreview> {
  // Where the database takes several writers, imports into different accounts run side by side, and
  // two into the same account (from any process) wait for each other on a lock (lockAccountImports).
  return importQueue(em)(() => runImport(em, userId, input));
}

/**
 * A file of several accounts' statements, each statement sent where the person chose: an existing
 * account, a new one (created first), or nowhere; statements not named go into the chosen account.
 * One batch per account, each in its own transaction.
 */
async function importStatements(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult> {
  const routes = input.statements ?? [];
  const chosen = nameKey(input.account);
  const targets = new Map<string, { name: string; type: AccountType; statements: number[] }>();
  for (const route of routes) {
    if (route.account === null || nameKey(route.account) === chosen) continue;
    const key = nameKey(route.account);
    const target = targets.get(key) ?? { name: route.account.trim(), type: route.type ?? 'checking', statements: [] };
    target.statements.push(route.statement);
    targets.set(key, target);
  }
  await withUserScope(em, userId, (sem) =>
    sem.transactional(async (tem) => {
      for (const target of targets.values()) await ensureAccount(tem, userId, target.name, target.type);
    }),
  );
  const elsewhere = routes.filter((r) => r.account === null || nameKey(r.account) !== chosen).map((r) => r.statement);
  const runs = [{ account: input.account, only: undefined as number[] | undefined, skip: elsewhere }];
  for (const target of targets.values()) runs.push({ account: target.name, only: target.statements, skip: [] });
  const batches: NonNullable<ImportResult['batches']> = [];
  const found: ImportTransfers[] = [];
  const warnings: string[] = [];
  for (const run of runs) {
    const result = await importIfAnyRows(em, userId, {
      ...input,
      account: run.account,
      statements: undefined,
      onlyStatements: run.only,
      skipStatements: run.skip,
    });
    if (!result) continue;
    if (result.transfers) found.push(result.transfers);
    batches.push({
      account: run.account,
      batchId: result.batchId,
      imported: result.imported,
      duplicates: result.duplicates,
    });
    for (const warning of result.warnings) if (!warnings.includes(warning)) warnings.push(warning);
  }
  const imported = batches.reduce((sum, b) => sum + b.imported, 0);
  const duplicates = batches.reduce((sum, b) => sum + b.duplicates, 0);
  const into = batches.filter((b) => b.imported > 0).length;
  const transfers = joinTransfers(found);
  return {
    message: `${importMessage(imported, duplicates)}${into > 1 ? ` into ${into} accounts` : ''}${transfersMessage(transfers)}`,
    transfers,
    batchId: batches.find((b) => b.batchId)?.batchId ?? null,
    imported,
    duplicates,
    skipped: 0,
    warnings,
    batches,
  };
}

/** One account's part of a file; null when the file holds no row for it. */
async function importIfAnyRows(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult | null> {
  try {
    return await importOne(em, userId, input);
  } catch (error) {
    if (error instanceof AppError && error.details?.code === 'NO_ROWS') return null;
    throw error;
  }
}

async function ensureAccount(em: EntityManager, userId: number, name: string, type: AccountType): Promise<void> {
  try {
    await findAccountByName(em, userId, name);
  } catch (error) {
    if (!(error instanceof AppError) || error.code !== 'NOT_FOUND') throw error;
    await createAccount(em, userId, { name, type, openingBalance: 0, applySuggestions: true });
  }
}

/** Any number for the first key of the import lock: with the account id it names one account's imports. */
const IMPORT_LOCK_CLASS = 18_001;

/**
 * Holds the account's import lock until the transaction ends, so a second import of the same file
 * (in this process or another) waits, then sees the first one's rows as duplicates.
 */
function lockAccountImports(db: SqlTx, accountId: number): Promise<void> {
  return db.lock(IMPORT_LOCK_CLASS, accountId);
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
  const rules = (await loadRuleSet(em, userId)).forAccount(account.name, account.currency);
  return { account, preferredDateFormat: previous[0]?.date_format ?? null, savedMapping, rules };
}

/**
 * Opens the file for a streamed read (its header, date format and survey read; its rows to come)
 * and lets go of the uploaded bytes: from here the decoded text is the only copy of the file.
 */
async function openFile(input: ImportInput, context: Awaited<ReturnType<typeof importContext>>): Promise<CsvReadHead> {
  // Read stepwise: the event loop keeps serving other requests during a large file.
  const read = await runStepsAsync(
    openImportSteps(
      input.bytes,
      {
        dateFormat: input.dateFormat,
        preferredDateFormat: context.preferredDateFormat,
        flipAmounts: input.flipAmounts,
        fractionDigits: minorUnitsOf(context.account.currency),
        currency: context.account.currency,
        mapping: input.mapping ?? null,
        savedMapping: context.savedMapping,
        onlyStatements: input.onlyStatements ?? null,
        skipStatements: input.skipStatements ?? null,
      },
      IMPORT_CHUNK,
    ),
    pause,
  );
  input.bytes = new Uint8Array(0);
  if (!read.ok) throw readFailure(read);
  return read;
}

function readFailure(read: CsvReadFailure): AppError {
  return new AppError(failureCodes[read.code], read.message, { code: read.code, ...(read.details ?? {}) });
}

/**
 * Takes the read's rows chunk by chunk (pausing for other requests by slices of work) into `work`, in the file's
 * order; answers what only the end of the file tells, or throws the failure that ended the read.
 */
async function eachChunk(read: CsvReadHead, work: (rows: CsvRow[]) => Promise<void> | void): Promise<RowsEnd> {
  for (;;) {
    const next = read.rows.next();
    if (next.done) {
      if ('ok' in next.value) throw readFailure(next.value);
      return next.value;
    }
    if (next.value.length > 0) await work(next.value);
    await pause();
  }
}

/**
 * What the account already holds in the file's date range (RowCounts: rows per dedupe key; and, when the
 * file has bank ids, the same without a bank id and every stored id). Streams on the
 * transaction's own connection, CHUNK rows at a time, pausing by slices of work. The counts are handed to one
 * DuplicateMarker, which uses them up.
 */
async function storedRows(db: SqlTx, userId: number, accountId: number, read: CsvReadHead): Promise<StoredRows> {
  const [minDate, maxDate] = read.dateRange;
  const all = new RowCounts();
  const withoutFitid = read.hasFitids ? new RowCounts() : null;
  for await (const chunk of streamAccountRows(db, userId, accountId, minDate, maxDate, CHUNK)) {
    for (const [postDate, amount, description, fitid] of chunk) {
      all.add(postDate, amount, description);
      if (withoutFitid && !fitid) withoutFitid.add(postDate, amount, description);
    }
    await pause();
  }
  const trashed = await selectTrashedAccountRows(db, userId, accountId, minDate, maxDate);
  for (const row of trashed) {
    all.add(row.post_date, row.amount, row.description);
    if (withoutFitid && !row.fitid) withoutFitid.add(row.post_date, row.amount, row.description);
  }
  if (!withoutFitid) return { all };
  const fitids = new Set<string>(trashed.flatMap((row) => (row.fitid ? [row.fitid] : [])));
  for await (const chunk of streamAccountFitids(db, userId, accountId, CHUNK)) {
    for (const [fitid] of chunk) fitids.add(fitid);
    await pause();
  }
  return { all, withoutFitid, fitids };
}

/** A row as it will be stored: read from the file, then through the user's rules. */
export type ImportRow = PlannedImportRow;

/**
 * `em` is not scoped to the user: each step that reads or writes runs in its own user-scoped
 * transaction (withUserScope; on SQLite it runs on `em` as it is), so opening a large file (its
 * header and first pass) holds no database connection that other requests could use meanwhile.
 * The rows then stream through rules, duplicate marking, categories and inserts chunk by chunk
 * in one transaction: all rows or none.
 */
async function runImport(em: EntityManager, userId: number, input: ImportInput): Promise<ImportResult | ImportPreview> {
  const context = await withUserScope(em, userId, (sem) => importContext(sem, userId, input));
  const { account, rules } = context;
  const read = await openFile(input, context);
  const typeOf = (amount: number): TransactionType =>
    input.transactionType === 'auto' ? autoTransactionType(amount, account.type) : input.transactionType;
  // Rules run on every row before duplicates are looked for: a renamed row is stored renamed.
  const plan = (rows: CsvRow[]) => runStepsAsync(planImportRows(rows, rules, account.name, typeOf), pause);

  if (input.dryRun) return previewImport(em, userId, input, context, read, plan);

  let afterCommit: (() => Promise<void>) | null = null;
  // The first and last dates of the rows written (what transfer detection looks around).
  let dates: [string, string] | null = null;
  // SQLite: the commits only write the log; a worker thread copies it into the file afterwards, once transfer
  // detection is done too, so the copy of the batch does not compete for the cores with the detection reading it.
  return withCheckpointAfter(em, async () => {
    const written = await scopedTransaction(em, userId, async (tem) => writeImport(tem, await sqlTx(tem)));
    await afterCommit?.();
    if (written.imported === 0 || written.batchId === null) return written;
    await matchSchedulesAfterWrite(em, userId);
    if (input.findTransfers === false || !dates) return written;
    const batch = { id: written.batchId, accountId: account.id, dates };
    const transfers = await detectTransfers(em, userId, batch, pause);
    return { ...written, message: `${written.message}${transfersMessage(transfers)}`, transfers };
  });

  async function writeImport(tem: EntityManager, db: SqlTx): Promise<ImportResult> {
    await lockAccountImports(db, account.id);
    const marker = new DuplicateMarker(await storedRows(db, userId, account.id, read), { owned: true });
    // A mapping chosen for this upload becomes the account's import profile.
    if (input.mapping && read.mapping) await putImportProfile(tem, userId, account.id, read.mapping);
    const dateFormat = read.format === 'csv' || read.format === 'qif' ? read.dateFormat : null;
    let batch: BatchWriter | null = null;
    let duplicateCount = 0;
    let total = 0;
    let moneyIn = 0;
    const end = await eachChunk(read, async (rows) => {
      const planned = await plan(rows);
      total += planned.length;
      for (const row of planned) if (row.amount > 0) moneyIn += 1;
      const fresh = planned.filter((row) => !marker.isDuplicate(row));
      duplicateCount += rows.length - fresh.length;
      for (const { postDate } of fresh)
        if (!dates) dates = [postDate, postDate];
        else if (postDate < dates[0]) dates[0] = postDate;
        else if (postDate > dates[1]) dates[1] = postDate;
      if (fresh.length === 0) return;
      batch ??= await openBatch(tem, db, userId, account, input.fileName, dateFormat, read.mayLackCategory);
      // Reading and writing a chunk are two steps: other requests may be served between them.
      await pause();
      await batch.add(fresh);
    });
    const opened = batch as BatchWriter | null;
    const attention = importAttention(account, total, moneyIn, end, input.flipAmounts);
    const result = {
      batchId: null,
      imported: 0,
      duplicates: duplicateCount,
      skipped: end.skipped.length,
      warnings: [...attention.map((a) => a.message), ...end.warnings],
      attention,
    };
    if (!opened) return { message: importMessage(0, duplicateCount), ...result };
    const imported = await opened.finish();
    const from = input.fileName ? ` from ${input.fileName}` : '';
    await ChangeRecorder.recordImport(
      tem,
      userId,
      opened.batchId,
      imported,
      `Imported ${plural(imported, 'transaction')}${from}`,
    );
    // The cached model learns this batch's rows once they are committed (not the whole history again).
    if (opened.learned) afterCommit = await learnBatchAfterCommit(tem, userId, opened.learned, opened.batchId);
    return { ...result, message: importMessage(imported, duplicateCount), batchId: opened.batchId, imported };
  }
}

/**
 * The dry run: every row read, through the rules, marked duplicate or not and offered a learned category, and
 * nothing written. A read-only transaction, so the rows are streamed on a connection no other request uses.
 */
function previewImport(
  em: EntityManager,
  userId: number,
  input: ImportInput,
  { account, rules }: Awaited<ReturnType<typeof importContext>>,
  read: CsvReadHead,
  plan: (rows: CsvRow[]) => Promise<ImportRow[]>,
): Promise<ImportPreview> {
  return scopedTransaction(em, userId, async (tem) => {
    const marker = new DuplicateMarker(await storedRows(await sqlTx(tem), userId, account.id, read), { owned: true });
    const shown = new PreviewRows();
    const end = await eachChunk(read, async (rows) => {
      for (const row of await plan(rows)) shown.add(row, marker.isDuplicate(row));
    });
    const model =
      account.applySuggestions && shown.rows.some(uncategorised) ? await suggestionModel(tem, userId) : null;
    const attention = importAttention(account, shown.total, shown.moneyIn, end, input.flipAmounts);
    return preview(read, end, shown, rules, input, categoriseImportRows(shown.rows, model), attention);
  });
}

/** A row neither the file nor a rule categorised: learned suggestions may fill it. */
const uncategorised = (row: ImportRow) => row.category === null;

/** One transaction scoped to the user (row-level security on PostgreSQL). */
function scopedTransaction<T>(em: EntityManager, userId: number, work: (tem: EntityManager) => Promise<T>): Promise<T> {
  return withUserScope(em, userId, (sem) => sem.transactional(work));
}

function preview(
  read: CsvReadHead,
  end: RowsEnd,
  shown: PreviewRows,
  rules: RuleSet,
  input: ImportInput,
  categories: readonly RowCategory[],
  attention: ImportAttention[],
): ImportPreview {
  const duplicateCount = shown.duplicates;
  const imported = shown.total - duplicateCount;
  return {
    dryRun: true,
    message: previewMessage(imported, duplicateCount),
    batchId: null,
    imported,
    duplicates: duplicateCount,
    skipped: end.skipped.length,
    warnings: [...attention.map((a) => a.message), ...end.warnings],
    attention,
    ...(read.statements ? { statements: read.statements } : {}),
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
    notes: end.notes,
    usedSavedMapping: read.usedSavedMapping,
    mapping: read.mapping?.mapping ?? null,
    ...(read.sample ? { sample: read.sample } : {}),
    totalRows: shown.total,
    // The first rows as they will be stored, plus (up to a limit) every duplicate: a
    // 100,000-row file must not come back whole as JSON just to be previewed.
    rows: shown.rows.map(({ fitid: _fitid, ruleIds, ...row }, i) => {
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
    skippedLines: end.skipped.slice(0, PREVIEW_ROW_LIMIT),
  };
}

/** Account types whose rows are mostly money out: a file read mostly as money in there has its signs turned. */
const SPENDING_ACCOUNTS: ReadonlySet<string> = new Set(['checking', 'credit']);

/**
 * What a person must see before importing: most rows read as money in for a checking or credit
 * account (a card statement showing charges as positive numbers reads so), and lines under the
 * header that will not be imported. Said prominently, never as a calm note.
 */
export function importAttention(
  account: { name: string; type: string },
  total: number,
  moneyIn: number,
  end: RowsEnd,
  flipped: boolean,
): ImportAttention[] {
  const out: ImportAttention[] = [];
  if (SPENDING_ACCOUNTS.has(account.type) && moneyIn * 2 > total) {
    out.push({
      code: 'MOSTLY_MONEY_IN',
      message: `${moneyIn} of ${total} rows would be money in for the ${account.type} account '${account.name}'${flipped ? ' with the signs flipped' : ''}. ${account.type === 'credit' ? 'A card statement that shows charges as positive numbers reads this way' : 'A file that shows payments as positive numbers reads this way'}: if these rows are spending, flip the signs.`,
      offerFlip: true,
    });
  }
  // Lines before the header are not rows, and a continuation line's text went into the row above.
  const lost = end.skipped.filter(
    (line) => line.reason !== 'before the header' && !line.reason.startsWith('continues the description'),
  );
  if (lost.length > 0) {
    const listed = lost
      .slice(0, 5)
      .map((line) => `line ${line.line} (${line.reason})`)
      .join(', ');
    out.push({
      code: 'ROWS_SKIPPED',
      message: `${plural(lost.length, 'line')} under the header will not be imported: ${listed}${lost.length > 5 ? ` and ${lost.length - 5} more` : ''}. Check that no transaction is among them.`,
      offerFlip: false,
    });
  }
  return out;
}

/** The rows of one import's batch, written chunk by chunk as they come. */
interface BatchWriter {
  batchId: string;
  /** The suggestion model as it was before the first row was written (learns the batch after the commit). */
  learned: CachedModel | null;
  add: (fresh: readonly ImportRow[]) => Promise<void>;
  /** Writes what is left and the batch's row count; answers the count. */
  finish: () => Promise<number>;
}

/**
 * Starts the batch, before its first row is written: the suggestion model is taken now, as the
 * account's rows were before this import (learned only when some row may need it).
 */
async function openBatch(
  tem: EntityManager,
  db: SqlTx,
  userId: number,
  account: { id: number; applySuggestions: boolean },
  fileName: string | null,
  dateFormat: string | null,
  mayLackCategory: boolean,
): Promise<BatchWriter> {
  // Learned suggestions come last: only rows that neither the file nor a rule categorised.
  const learned =
    account.applySuggestions && mayLackCategory
      ? await suggestionModelEntry(tem, userId)
      : await currentModelEntry(tem, userId);
  const model = account.applySuggestions ? (learned?.model ?? null) : null;
  const batchId = randomUUID();
  const now = new Date().toISOString();
  await db.run(
    'insert into batch (id, user_id, account_id, upload_date, transaction_count, file_name, date_format) values (?, ?, ?, ?, ?, ?, ?)',
    [batchId, userId, account.id, now, 0, fileName?.slice(0, 255) ?? null, dateFormat],
  );
  const writer = importedRowsWriter(db);
  /**
   * Category ids by the name exactly as rows carry it (a rule's category is one string for all its
   * rows), so a categorised row costs one lookup, not a name key built twice; looked up or created
   * once per name by its key (nameKey).
   */
  const categoryIds = new Map<string, number | null>();
  let count = 0;
  return {
    batchId,
    learned,
    async add(fresh) {
      const categories = categoriseImportRows(fresh, model);
      let missing: string[] | null = null;
      for (const { category } of categories)
        if (category && !categoryIds.has(category)) (missing ??= []).push(category);
      if (missing) {
        const ids = await ensureCategories(tem, userId, missing);
        for (const name of missing) categoryIds.set(name, ids.get(nameKey(name)) ?? null);
      }
      const rows = new Array<ImportedRow>(fresh.length);
      for (let i = 0; i < fresh.length; i += 1) {
        const row = must(fresh[i], 'i < fresh.length');
        const { category, source } = must(categories[i], 'one category per fresh row');
        const categoryId = category ? (categoryIds.get(category) ?? null) : null;
        // The bank's text is kept only when a rule renamed the row (duplicate detection reads it).
        const bankDescription = row.bankDescription === row.description ? null : row.bankDescription;
        rows[i] = [
          userId,
          account.id,
          categoryId,
          categoryId === null ? null : source,
          row.postDate,
          row.description,
          bankDescription,
          row.amount,
          row.type,
          batchId,
          row.fitid ?? null,
          now,
          row.originalAmount ?? null,
          row.originalCurrency ?? null,
        ];
      }
      await writer.add(rows);
      count += fresh.length;
    },
    async finish() {
      await writer.finish();
      await db.run('update batch set transaction_count = ? where id = ? and user_id = ?', [count, batchId, userId]);
      return count;
    },
  };
}

/** How many leading rows a dry run returns, and how many duplicates beyond them at most. */
export const PREVIEW_ROW_LIMIT = 100;

/** What a dry run keeps of the rows streaming by: the first rows, up to a limit of later duplicates, and counts. */
class PreviewRows {
  readonly rows: (ImportRow & { duplicate: boolean })[] = [];
  total = 0;
  duplicates = 0;
  private extraDuplicates = 0;

  /** Rows that would be money in. */
  moneyIn = 0;

  add(row: ImportRow, duplicate: boolean): void {
    if (duplicate) this.duplicates += 1;
    if (row.amount > 0) this.moneyIn += 1;
    if (this.total < PREVIEW_ROW_LIMIT) this.rows.push({ ...row, duplicate });
    else if (duplicate && this.extraDuplicates < PREVIEW_ROW_LIMIT) {
      this.rows.push({ ...row, duplicate: true });
      this.extraDuplicates += 1;
    }
    this.total += 1;
  }
}
