/**
 * One entry for every file a person imports: the format is told from the content (never
 * the file name), then CSV, OFX/QFX, QIF or CAMT.053 is read into the same answer, and the
 * rows pass the same checks (control characters, amount and description bounds, currencies).
 */
import { isReservedCategoryName } from '../categories/reserved';
import { noRowsLeft, RowFinisher } from '../csv/finish';
import { collectRead, decodeInput, openCsvTextSteps } from '../csv/read-csv';
import { runSteps, runStepsAsync, type Steps } from '../csv/steps';
import { RECORDS_PER_STEP } from '../csv/tokenize';
import {
  fail,
  type CsvReadFailure,
  type CsvReadHead,
  type CsvReadResult,
  type CsvReadStream,
  type CsvRow,
  type ImportFormat,
  type ReadOptions,
  type RowChunks,
  type StatementSummary,
  MAX_STATEMENTS_LISTED,
} from '../csv/types';
import { must } from '../must';
import { readCamtSteps } from '../statements/camt';
import { readOfxSteps, type StatementRead } from '../statements/ofx';
import { readQifSteps } from '../statements/qif';

export const FORMAT_NAMES: Record<ImportFormat, string> = { csv: 'CSV', ofx: 'OFX', qif: 'QIF', camt053: 'CAMT.053' };

/** The format of a decoded file, from its first characters. */
export function detectFormat(text: string): ImportFormat | 'xml' {
  const head = text.slice(0, 4096).replace(/^\uFEFF/, '');
  // OFX starts so (a header, a processing instruction, or the OFX element first): a CSV cell
  // that merely mentions <OFX> is not a statement.
  if (/^\s*OFXHEADER\s*:/i.test(head) || startsWithOfxElement(head)) return 'ofx';
  if (/^\s*!(Type|Account|Option|Clear)\b/i.test(head)) return 'qif';
  if (/^\s*<(\?xml|[A-Za-z])/.test(head)) {
    if (/camt\.05[23]|<([A-Za-z0-9]+:)?BkToCstmrStmt\b/.test(text.slice(0, 65536))) return 'camt053';
    return 'xml';
  }
  return 'csv';
}

/** Where the whitespace from `at` on ends. */
function skipSpace(text: string, at: number): number {
  let i = at;
  while (i < text.length && /\s/.test(text.charAt(i))) i += 1;
  return i;
}

const startsWithAt = (text: string, prefix: string, at: number) =>
  text.slice(at, at + prefix.length).toUpperCase() === prefix.toUpperCase();

/**
 * True when the text opens with the OFX element (`<OFX>` or `<?OFX`), after an optional XML declaration and any
 * comments and DOCTYPE declarations. A plain scan that only moves forward, each character looked at a bounded number
 * of times: a regular expression for the same prolog backtracks exponentially on repeated comments or DOCTYPEs.
 */
function startsWithOfxElement(head: string): boolean {
  let i = skipSpace(head, 0);
  if (startsWithAt(head, '<?xml', i)) {
    const end = head.indexOf('>', i);
    if (end < 0) return false;
    i = skipSpace(head, end + 1);
  }
  for (;;) {
    if (startsWithAt(head, '<!--', i)) {
      const end = head.indexOf('-->', i + 4);
      if (end < 0) return false;
      i = skipSpace(head, end + 3);
    } else if (startsWithAt(head, '<!DOCTYPE', i)) {
      let j = i + '<!DOCTYPE'.length;
      while (j < head.length && head[j] !== '[' && head[j] !== '>') j += 1;
      if (head[j] === '[') {
        const close = head.indexOf(']', j + 1);
        if (close < 0) return false;
        j = skipSpace(head, close + 1);
      }
      if (head[j] !== '>') return false;
      i = skipSpace(head, j + 1);
    } else break;
  }
  if (startsWithAt(head, '<OFX>', i)) return true;
  return startsWithAt(head, '<?OFX', i) && !/\w/.test(head.charAt(i + 5));
}

export function readImport(input: Uint8Array | string, options: ReadOptions = {}): CsvReadResult {
  return runSteps(readImportSteps(input, options));
}

export function readImportAsync(
  input: Uint8Array | string,
  options: ReadOptions,
  pause: () => Promise<void>,
): Promise<CsvReadResult> {
  return runStepsAsync(readImportSteps(input, options), pause);
}

export function* readImportSteps(input: Uint8Array | string, options: ReadOptions): Steps<CsvReadResult> {
  return yield* collectRead(yield* openImportSteps(input, options));
}

/**
 * Opens a bank file for a streamed read (see CsvReadHead): decoded, its format told, its
 * header and date format read; its rows come in chunks (of the rows of `rowsPerChunk` records or
 * entries) as they are taken. The bytes are not needed once this answers.
 */
export function* openImportSteps(
  input: Uint8Array | string,
  options: ReadOptions,
  rowsPerChunk = RECORDS_PER_STEP,
): Steps<CsvReadStream> {
  const decoded = yield* decodeInput(input);
  if (!decoded.ok) return decoded;
  const opened = yield* openDecodedSteps(decoded.text, decoded.encoding, options, rowsPerChunk);
  if (!opened.ok || !decoded.invalidLine) return opened;
  return withWarning(
    opened,
    `This file is not valid UTF-8 (line ${decoded.invalidLine} holds a byte UTF-8 cannot read), so the whole file was read as Windows-1252: check that accented letters look right.`,
  );
}

/** A read whose end carries one more warning, first. */
function withWarning(head: CsvReadHead, warning: string): CsvReadHead {
  const rows = head.rows;
  function* warned(): RowChunks {
    const end = yield* rows;
    return 'ok' in end ? end : { ...end, warnings: [warning, ...end.warnings] };
  }
  return { ...head, rows: warned() };
}

function* openDecodedSteps(
  text: string,
  encoding: string,
  options: ReadOptions,
  rowsPerChunk: number,
): Steps<CsvReadStream> {
  if (text.trim() === '') return fail('EMPTY', 'The file is empty.');
  const format = detectFormat(text);
  if (format === 'csv') return yield* openCsvTextSteps(text, encoding, options, rowsPerChunk);
  if (format === 'xml') return fail('NOT_CSV', 'This XML file is neither an OFX nor a CAMT.053 statement.');
  let read: StatementRead | CsvReadFailure;
  if (format === 'ofx') read = yield* readOfxSteps(text, options.fractionDigits);
  else if (format === 'camt053') read = yield* readCamtSteps(text, options.fractionDigits);
  else read = yield* readQifSteps(text, options);
  if ('ok' in read) return read;
  if (read.rows.length === 0)
    return fail('NO_ROWS', `No transactions were found in this ${FORMAT_NAMES[format]} file.`);
  return statementHead(format, encoding, read, options, rowsPerChunk);
}

function statementHead(
  format: Exclude<ImportFormat, 'csv'>,
  encoding: string,
  read: StatementRead,
  options: ReadOptions,
  rowsPerChunk: number,
): CsvReadHead {
  const only = options.onlyStatements ? new Set(options.onlyStatements) : null;
  const skip = new Set(options.skipStatements ?? []);
  if (only || skip.size > 0)
    read.rows = read.rows.filter((row) => (only ? only.has(row.statement ?? 0) : !skip.has(row.statement ?? 0)));
  let min = read.rows[0]?.postDate ?? '';
  let max = min;
  let hasFitids = false;
  let mayLackCategory = false;
  for (const row of read.rows) {
    if (row.postDate < min) min = row.postDate;
    if (row.postDate > max) max = row.postDate;
    if (row.fitid) hasFitids = true;
    if (!row.category || isReservedCategoryName(row.category.trim())) mayLackCategory = true;
  }
  const statements = statementSummaries(read);
  return {
    ok: true,
    format,
    encoding,
    delimiter: '',
    headerLine: 0,
    headers: [],
    columns: [],
    dateColumn: read.dateColumn,
    dateFormat: read.dateFormat,
    dateFormatCandidates: read.candidates ?? [read.dateFormat],
    mapping: null,
    usedSavedMapping: false,
    dateRange: [min, max],
    hasFitids,
    mayLackCategory,
    ...(statements.length > 1 ? { statements } : {}),
    // CAMT states each entry's direction (CdtDbtInd); OFX and QIF amounts carry a sign a card issuer may have turned.
    rows: statementRows(format, read, Boolean(options.flipAmounts) && format !== 'camt053', rowsPerChunk, options),
  };
}

/** Each statement of a file of several accounts with its rows, in the file's order (the first MAX_STATEMENTS_LISTED). */
function statementSummaries(read: StatementRead): StatementSummary[] {
  const infos = read.statements ?? [];
  if (infos.length < 2) return [];
  const out: StatementSummary[] = infos.slice(0, MAX_STATEMENTS_LISTED + 1).map((info, index) => ({
    index,
    account: info.account,
    currency: info.currency,
    rows: 0,
    dateRange: null,
  }));
  for (const row of read.rows) {
    const summary = out[row.statement ?? 0];
    if (!summary) continue;
    summary.rows += 1;
    const range = (summary.dateRange ??= [row.postDate, row.postDate]);
    if (row.postDate < range[0]) range[0] = row.postDate;
    if (row.postDate > range[1]) range[1] = row.postDate;
  }
  // A statement opened before its account number came, left without rows, is no statement.
  const listed = out.filter((s) => s.account !== '' || s.rows > 0).slice(0, MAX_STATEMENTS_LISTED);
  return listed.length > 1 ? listed : [];
}

/** A statement's rows through the same checks as CSV rows, in chunks; each chunk is let go once it is taken. */
function* statementRows(
  format: Exclude<ImportFormat, 'csv'>,
  read: StatementRead,
  flip: boolean,
  rowsPerChunk: number,
  account: ReadOptions,
): RowChunks {
  const finisher = new RowFinisher(account);
  const rows: (CsvRow | undefined)[] = read.rows;
  read.rows = [];
  for (let start = 0; start < rows.length; start += rowsPerChunk) {
    const out: CsvRow[] = [];
    const end = Math.min(rows.length, start + rowsPerChunk);
    for (let i = start; i < end; i += 1) {
      const row = must(rows[i], 'each row is taken once');
      rows[i] = undefined;
      if (flip && row.amount !== 0) row.amount = -row.amount;
      const finished = finisher.add(row, () => '');
      if (finished === null) continue;
      if ('ok' in finished) return finished;
      out.push(finished);
    }
    yield out;
  }
  if (finisher.count === 0)
    return noRowsLeft(finisher.skipped, `No transactions were found in this ${FORMAT_NAMES[format]} file.`);
  return {
    skipped: finisher.skipped,
    warnings: [...read.warnings, ...finisher.warnings()],
    notes: [`Read as ${FORMAT_NAMES[format]}.`],
  };
}
