/**
 * The CSV reading engine: bytes or text in, transaction rows and findings out. Pure: no
 * files, no database, no clock. Expected failures come back as values with a code and a
 * message a person can act on. Linear in the file's size whatever its shape, and stepwise
 * (see steps.ts) so a server keeps answering while it reads.
 */
import { readAmount } from '../money/read-amount';
import { assignColumns, hasDateAndAmount, isKeyValueLine, type ColumnAssignment, type ColumnRole } from './columns';
import { contentLayout, refineHeaderLayout } from './content-layout';
import { looksLikeDate } from './dates';
import { decodeBytesSteps } from './encoding';
import { hasControlCharacters, noRowsLeft, visibleText } from './finish';
import {
  firstDatedRecord,
  layoutFromMapping,
  mappingMisfit,
  mappingProblem,
  sampleRows,
  savedHeaderIndex,
  suggestMapping,
  tableStart,
  type Layout,
} from './mapping';
import { must } from '../must';
import { runSteps, runStepsAsync, type Steps } from './steps';
import {
  addUnnamedIndicator,
  lineText,
  planDateRange,
  planTable,
  recordsFrom,
  shapeFailure,
  shapeProblemIn,
  tableRows,
  type Chunks,
} from './table';
import {
  detectDelimiter,
  IMPORT_LIMITS,
  isBlankRecord,
  MAX_COLUMNS,
  MAX_RECORD_CHARS,
  recordChunks,
  RECORDS_PER_STEP,
  type CsvRecord,
} from './tokenize';
import {
  fail,
  type CsvReadFailure,
  type CsvReadResult,
  type CsvReadStream,
  type CsvRow,
  type ReadOptions,
} from './types';

export type {
  CsvErrorCode,
  CsvReadFailure,
  CsvReadResult,
  CsvReadSuccess,
  CsvRow,
  ReadOptions,
  SkippedLine,
} from './types';

/** Records looked at for the header. */
const HEADER_SEARCH = 60;
/** Records after a header candidate that must hold one transaction for it to be the header. */
const HEADER_LOOKAHEAD = 10;

export function readCsv(input: Uint8Array | string, options: ReadOptions = {}): CsvReadResult {
  return runSteps(readCsvSteps(input, options));
}

/**
 * `readCsv` that pauses every RECORDS_PER_STEP records (`pause`, e.g. setImmediate), so a
 * server keeps answering other requests while a large file is read. Same result.
 */
export function readCsvAsync(
  input: Uint8Array | string,
  options: ReadOptions,
  pause: () => Promise<void>,
): Promise<CsvReadResult> {
  return runStepsAsync(readCsvSteps(input, options), pause);
}

/**
 * When every line under the header holds a control character (in its date, say), no column reads and no row is
 * left: those lines are named as rows skipped, rather than a mapping asked for.
 */
function onlyControlLines(under: readonly CsvRecord[], delimiter: string): CsvReadFailure | null {
  if (under.length === 0 || !under.every((r) => r.cells.some(hasControlCharacters))) return null;
  const reason = 'contains control characters';
  return noRowsLeft(
    under.map((r) => ({ line: r.line, text: lineText(r, delimiter), reason })),
    'No transactions were found under the header.',
  );
}

/**
 * Bytes (or text) to text, refusing binary files; stepwise for large files. The decoded text is answered after a
 * pause: decoding a large file makes one string of its size at once, so what reads it
 * next (the delimiter, the first records) starts in a step of its own.
 */
export function* decodeInput(
  input: Uint8Array | string,
): Steps<{ ok: true; text: string; encoding: string; invalidLine?: number } | CsvReadFailure> {
  if (typeof input === 'string') return { ok: true, text: input.replace(/^\uFEFF/, ''), encoding: 'text' };
  if (input.length === 0) return fail('EMPTY', 'The file is empty.');
  const decoded = yield* decodeBytesSteps(input);
  yield;
  if (!decoded.ok) return fail('NOT_CSV', decoded.message);
  return {
    ok: true,
    text: decoded.text,
    encoding: decoded.encoding,
    ...(decoded.invalidLine ? { invalidLine: decoded.invalidLine } : {}),
  };
}

export function* readCsvSteps(input: Uint8Array | string, options: ReadOptions): Steps<CsvReadResult> {
  const decoded = yield* decodeInput(input);
  if (!decoded.ok) return decoded;
  return yield* readCsvTextSteps(decoded.text, decoded.encoding, options);
}

export function* readCsvTextSteps(text: string, encoding: string, options: ReadOptions): Steps<CsvReadResult> {
  return yield* collectRead(yield* openCsvTextSteps(text, encoding, options));
}

/** A streamed read taken whole: its rows in one array, as `readCsv` answers. */
export function* collectRead(stream: CsvReadStream): Steps<CsvReadResult> {
  if (!stream.ok) return stream;
  const {
    rows: chunks,
    dateRange: _dateRange,
    hasFitids: _hasFitids,
    mayLackCategory: _mayLackCategory,
    ...head
  } = stream;
  const rows: CsvRow[] = [];
  for (;;) {
    const next = chunks.next();
    if (next.done) {
      const end = next.value;
      if ('ok' in end) return end;
      return { ...head, rows, skipped: end.skipped, warnings: end.warnings, notes: end.notes };
    }
    for (const row of next.value) rows.push(row);
    yield;
  }
}

/** Non-blank records read before the header is looked for: more than any look at the file's start takes (tableStart looks at 200). */
const PREFIX_RECORDS = 400;

/**
 * Opens a CSV text for a streamed read: the header and the survey of every record (pass 1) are
 * done, the rows (pass 2) come as chunks of the records of `recordsPerChunk` records. Only the
 * first records are ever held together.
 */
export function* openCsvTextSteps(
  text: string,
  encoding: string,
  options: ReadOptions,
  recordsPerChunk = RECORDS_PER_STEP,
): Steps<CsvReadStream> {
  if (text.trim() === '') return fail('EMPTY', 'The file is empty.');
  const delimiter = detectDelimiter(text);
  const source = () => recordChunks(text, delimiter, IMPORT_LIMITS, recordsPerChunk);
  const tokens = source();
  const prefix = yield* readPrefix(tokens);
  if ('ok' in prefix) return prefix;
  const { records, done } = prefix;
  const layout = yield* findLayout(records, options);
  if ('ok' in layout) {
    // A shape problem anywhere in the file is answered first.
    const later = done ? null : yield* shapeProblemIn(tokens);
    return later ? shapeFailure(later, MAX_COLUMNS, MAX_RECORD_CHARS) : layout;
  }
  if (!layout.mapping) {
    const problem = yield* addUnnamedIndicator(layout.columns, layout.headers, () =>
      recordsFrom(source, layout.dataStart),
    );
    if (problem) return shapeFailure(problem, MAX_COLUMNS, MAX_RECORD_CHARS);
  }
  const started = yield* planTable(
    continueFrom(records, layout.dataStart, tokens),
    layout,
    delimiter,
    options,
    IMPORT_LIMITS,
  );
  if ('ok' in started) {
    const under = records.slice(layout.dataStart).filter((r) => !isBlankRecord(r));
    const controlled = started.code === 'NO_ROWS' && done ? onlyControlLines(under, delimiter) : null;
    if (controlled) return controlled;
    // The header named columns under which no line reads as a transaction: a person says what they hold.
    if (started.code === 'NO_ROWS' && !layout.mapping && under.length > 0) {
      const date = layout.columns.find((c) => c.role === 'date');
      return needsMapping(
        records,
        null,
        `No line under the header${layout.headerLine ? ` (line ${layout.headerLine})` : ''} has a date in '${date?.header || `Column ${(date?.index ?? 0) + 1}`}' and an amount: choose what each column holds.`,
      );
    }
    return started;
  }
  const { plan } = started;
  for (const r of records.slice(0, layout.headerIndex)) {
    if (!isBlankRecord(r))
      plan.survey.skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'before the header' });
  }
  const dateColumn = must(
    layout.columns.find((c) => c.role === 'date'),
    'a layout has a date column',
  );
  return {
    ok: true,
    format: 'csv',
    encoding,
    delimiter,
    headerLine: layout.headerLine,
    headers: layout.headers,
    columns: layout.columns,
    dateColumn: dateColumn.header || `Column ${dateColumn.index + 1}`,
    dateFormat: plan.format.name,
    dateFormatCandidates: started.dateFormatCandidates,
    mapping: layout.mapping,
    usedSavedMapping: layout.usedSavedMapping,
    // The first rows, so a person can change what a column was taken for.
    sample: sampleRows(records, layout.headerIndex),
    dateRange: planDateRange(plan),
    hasFitids: false,
    mayLackCategory: plan.survey.mayLackCategory,
    rows: tableRows(recordsFrom(source, layout.dataStart), plan, layout, delimiter, options),
  };
}

/** The file's first records (PREFIX_RECORDS non-blank ones), and whether they are all of it. */
function* readPrefix(tokens: Chunks): Steps<{ records: CsvRecord[]; done: boolean } | CsvReadFailure> {
  const records: CsvRecord[] = [];
  let nonBlank = 0;
  while (nonBlank < PREFIX_RECORDS) {
    const next = tokens.next();
    if (next.done) {
      if (next.value) return shapeFailure(next.value, MAX_COLUMNS, MAX_RECORD_CHARS);
      return { records, done: true };
    }
    for (const r of next.value) {
      records.push(r);
      if (!isBlankRecord(r)) nonBlank += 1;
    }
    yield;
  }
  return { records, done: false };
}

/** The records already read from index `from`, then the rest of the tokeniser's. */
function* continueFrom(records: readonly CsvRecord[], from: number, rest: Chunks): Chunks {
  const head = records.slice(from);
  if (head.length > 0) yield head;
  return yield* rest;
}

/**
 * The header (or the given or saved mapping) and the role of each column. The account's saved
 * mapping is used only where it fits: a saved header must be in the file, and the rows must read
 * under it. A file whose own header can be read is read by it (unless the saved mapping names
 * that very header), and a file that fits neither is never misread: a person is asked.
 */
function* findLayout(records: readonly CsvRecord[], options: ReadOptions): Steps<Layout | CsvReadFailure> {
  if (options.mapping) {
    const start = tableStart(records);
    const problem = mappingProblem(options.mapping, records, start);
    if (problem)
      return fail('BAD_MAPPING', problem, { needsMapping: true, sample: sampleRows(records, start), headers: [] });
    return layoutFromMapping(records, start, options.mapping, false);
  }
  const saved = options.savedMapping ?? null;
  /** Why the saved mapping does not fit this file, when there is one. */
  let misfit: string | null = null;
  if (saved?.mapping.header) {
    const at = savedHeaderIndex(saved, records);
    if (at >= 0) {
      misfit = mappingMisfit(saved.mapping, records, at + 1);
      if (!misfit) return layoutFromMapping(records, at, saved.mapping, true);
    } else misfit = `it was made for the header '${visibleText(saved.headers.join(', '), 120)}'`;
  }
  const notUsed = (layout: Layout): Layout =>
    saved
      ? {
          ...layout,
          note: `The saved mapping for this account was not used (${misfit ?? 'it is for files without a header'}): this file was read by its header.`,
        }
      : layout;
  // The header is the first line that names a date and an amount and is followed by rows that
  // parse; of several such lines (a summary block above the table), the one as wide as the table.
  let firstCandidate: Layout | null = null;
  let firstFollowed: Layout | null = null;
  const tableWidth = records[tableStart(records)]?.cells.length ?? 0;
  const limit = Math.min(records.length, HEADER_SEARCH);
  for (let i = 0; i < limit; i += 1) {
    const record = must(records[i], 'i < records.length');
    const cells = record.cells;
    if (cells.length < 2 || isKeyValueLine(cells)) continue;
    const columns = assignColumns(cells);
    if (!hasDateAndAmount(columns)) continue;
    const layout: Layout = {
      headerLine: record.line,
      headers: cells.map((c) => c.trim()),
      columns,
      dataStart: i + 1,
      headerIndex: i,
      mapping: null,
      usedSavedMapping: false,
    };
    firstCandidate ??= layout;
    if (!followedByTransactions(records, i + 1, columns)) continue;
    if (cells.length === tableWidth) return notUsed(refineHeaderLayout(records, layout));
    firstFollowed ??= layout;
  }
  if (firstFollowed) return notUsed(refineHeaderLayout(records, firstFollowed));
  if (saved && !saved.mapping.header) {
    const start = firstDatedRecord(saved.mapping, records, tableStart(records), HEADER_LOOKAHEAD);
    const width = records[start]?.cells.length ?? 0;
    // As many columns, or more that are all empty (a trailing delimiter on every line).
    const sameWidth =
      width === saved.columnCount ||
      (width > saved.columnCount &&
        sampleRows(records, start).every((row) => row.slice(saved.columnCount).every((c) => c === '')));
    misfit = sameWidth
      ? mappingMisfit(saved.mapping, records, start)
      : `the file has ${width} columns, the saved mapping ${saved.columnCount}`;
    if (!misfit) return layoutFromMapping(records, start, saved.mapping, true);
  }
  // A saved mapping that does not fit says the bank's layout changed: a person is asked rather than a guess made.
  const byContent = misfit === null ? contentLayout(records) : null;
  if (byContent) return notUsed(byContent);
  if (firstCandidate) return notUsed(firstCandidate);
  yield;
  return needsMapping(records, misfit);
}

/** One of the next records reads as a transaction under these columns. */
function followedByTransactions(
  records: readonly CsvRecord[],
  from: number,
  columns: readonly ColumnAssignment[],
): boolean {
  const at = (role: ColumnRole) => columns.find((c) => c.role === role)?.index;
  const date = at('date');
  const amountColumns = [at('amount'), at('debit'), at('credit')].filter((i): i is number => i !== undefined);
  let looked = 0;
  for (let i = from; i < records.length && looked < HEADER_LOOKAHEAD; i += 1) {
    const r = must(records[i], 'i < records.length');
    if (isBlankRecord(r)) continue;
    looked += 1;
    if (date === undefined || !looksLikeDate(r.cells[date] ?? '')) continue;
    if (amountColumns.some((c) => readAmount(r.cells[c] ?? '', 'csv').ok)) return true;
  }
  return false;
}

function needsMapping(records: readonly CsvRecord[], savedMisfit: string | null, why?: string): CsvReadFailure {
  const start = tableStart(records);
  const sample = sampleRows(records, start);
  if (sample.length === 0) return fail('EMPTY', 'The file is empty.');
  const first = must(sample[0], 'the sample is not empty');
  const columns = assignColumns(first);
  const seen = first.filter(Boolean);
  const looksLikeData = first.some((c) => looksLikeDate(c));
  const message =
    why ??
    (savedMisfit !== null
      ? `The saved mapping for this account does not fit this file (${savedMisfit}): choose what each column holds.`
      : looksLikeData
        ? 'This file has no header row: choose what each column holds.'
        : `The columns could not be recognised${columns.some((c) => c.role === 'date') ? ' (no amount column, or debit and credit columns)' : ' (no date column)'}. Headers seen: ${seen.join(', ') || '(none)'}. Choose what each column holds.`);
  return fail('NEEDS_MAPPING', message, {
    needsMapping: true,
    sample,
    headers: looksLikeData ? [] : seen,
    suggestedMapping: suggestMapping(records, start),
  });
}
