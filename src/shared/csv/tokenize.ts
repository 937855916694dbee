import { runSteps, type Steps } from './steps';

/** RFC 4180 records with the physical line each starts on; quotes may span lines. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** Records between two pauses of a stepwise read (see steps.ts). */
export const RECORDS_PER_STEP = 2000;
/** Characters between two pauses, whatever the shape of the lines. */
export const CHARS_PER_STEP = 128 * 1024;

/** Shapes no bank export has: refused before any further work. */
export const MAX_COLUMNS = 200;
export const MAX_RECORD_CHARS = 64 * 1024;

export type ShapeProblem = { problem: 'too-many-columns' | 'record-too-long'; line: number; columns?: number };
export type TokenizeResult = { ok: true; records: CsvRecord[] } | ({ ok: false } & ShapeProblem);

interface Limits {
  maxColumns: number;
  maxRecordChars: number;
}
const NO_LIMITS: Limits = { maxColumns: Infinity, maxRecordChars: Infinity };
export const IMPORT_LIMITS: Limits = { maxColumns: MAX_COLUMNS, maxRecordChars: MAX_RECORD_CHARS };

export function tokenize(text: string, delimiter: string, limitChars = Infinity): CsvRecord[] {
  const result = runSteps(tokenizeSteps(text, delimiter, limitChars));
  return result.ok ? result.records : [];
}

/**
 * `tokenize` as steps: pauses every RECORDS_PER_STEP records or CHARS_PER_STEP characters,
 * so a server stays responsive; with `limits`, a record over the column or length limit
 * ends the work at once with the line it starts on. Linear in the text's length.
 */
export function* tokenizeSteps(
  text: string,
  delimiter: string,
  limitChars = Infinity,
  limits: Limits = NO_LIMITS,
): Steps<TokenizeResult> {
  const records: CsvRecord[] = [];
  const chunks = recordChunks(text, delimiter, limits, RECORDS_PER_STEP, limitChars);
  for (;;) {
    const next = chunks.next();
    if (next.done) return next.value ? { ok: false, ...next.value } : { ok: true, records };
    for (const record of next.value) records.push(record);
    yield;
  }
}

/**
 * The records of `text` in chunks of at most `perChunk`, without ever holding them all: each
 * chunk is yielded as soon as it is full (or CHARS_PER_STEP characters were read, so a chunk may
 * be empty: a pause point), and the generator returns the first shape problem, or null. The
 * chunks joined are exactly `tokenize`'s records.
 */
export function* recordChunks(
  text: string,
  delimiter: string,
  limits: Limits = NO_LIMITS,
  perChunk = RECORDS_PER_STEP,
  limitChars = Infinity,
): Generator<CsvRecord[], ShapeProblem | null, void> {
  if (text.indexOf('"') < 0) return yield* tokenizeUnquoted(text, delimiter, limitChars, limits, perChunk);
  return yield* tokenizeQuoted(text, delimiter, limitChars, limits, perChunk, 0);
}

function countOf(text: string, delimiter: string, from: number, to: number, max: number): number {
  let count = 1;
  for (let at = text.indexOf(delimiter, from); at >= 0 && at < to; at = text.indexOf(delimiter, at + 1)) {
    if (++count > max) return count;
  }
  return count;
}

type Chunks = Generator<CsvRecord[], ShapeProblem | null, void>;

/** Fast path for files without any quote character: split lines, then cells. */
function* tokenizeUnquoted(
  text: string,
  delimiter: string,
  limitChars: number,
  limits: Limits,
  perChunk: number,
): Chunks {
  let records: CsvRecord[] = [];
  const end = Math.min(text.length, limitChars);
  let start = 0;
  let line = 1;
  let sinceStep = 0;
  while (start < end) {
    let stop = text.indexOf('\n', start);
    if (stop < 0 || stop > end) stop = end;
    let lineEnd = stop;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 13) lineEnd -= 1;
    if (lineEnd - start > limits.maxRecordChars) return { problem: 'record-too-long', line };
    if (limits.maxColumns !== Infinity) {
      const columns = countOf(text, delimiter, start, lineEnd, limits.maxColumns);
      if (columns > limits.maxColumns) return { problem: 'too-many-columns', line, columns };
    }
    const content = text.slice(start, lineEnd);
    if (content.indexOf('\r') >= 0) {
      // Old Mac line endings inside: the careful tokenizer reads the rest.
      if (records.length > 0) yield records;
      return yield* tokenizeQuoted(text.slice(start, end), delimiter, Infinity, limits, perChunk, line - 1);
    }
    records.push({ line, cells: content.split(delimiter) });
    sinceStep += stop - start + 1;
    if (records.length >= perChunk || sinceStep >= CHARS_PER_STEP) {
      sinceStep = 0;
      yield records;
      records = [];
    }
    line += 1;
    start = stop + 1;
  }
  if (records.length > 0) yield records;
  return null;
}

/** The run of a quoted cell from `from` up to the next quote (or `limit`), copied at once so long quoted fields stay linear. */
function quotedRun(text: string, from: number, limit: number): { text: string; next: number; lineBreaks: number } {
  let next = text.indexOf('"', from);
  if (next < 0 || next > limit) next = limit;
  const run = text.slice(from, next);
  let lineBreaks = 0;
  for (let at = run.indexOf('\n'); at >= 0; at = run.indexOf('\n', at + 1)) lineBreaks += 1;
  return { text: run, next, lineBreaks };
}

/** The careful tokenizer (quotes, line breaks in cells, old Mac line endings); lines count from `lineOffset` + 1. */
function* tokenizeQuoted(
  text: string,
  delimiter: string,
  limitChars: number,
  limits: Limits,
  perChunk: number,
  lineOffset: number,
): Chunks {
  let records: CsvRecord[] = [];
  const end = Math.min(text.length, limitChars);
  let cells: string[] = [];
  let cell = '';
  let inQuotes = false;
  let line = 1 + lineOffset;
  let recordLine = line;
  let recordStart = 0;
  let quotedCell = false;
  let nextStep = CHARS_PER_STEP;
  for (let i = 0; i < end; i += 1) {
    if (i >= nextStep) {
      nextStep = i + CHARS_PER_STEP;
      yield records;
      records = [];
    }
    if (i - recordStart > limits.maxRecordChars) return { problem: 'record-too-long', line: recordLine };
    const ch = text[i];
    if (ch === undefined) break; // i < end <= text.length
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else inQuotes = false;
      } else {
        const run = quotedRun(text, i, Math.min(end, recordStart + limits.maxRecordChars + 1));
        line += run.lineBreaks;
        cell += run.text;
        i = run.next - 1;
      }
      continue;
    }
    if (ch === '"' && !quotedCell && cell.trim() === '') {
      inQuotes = true;
      quotedCell = true;
      cell = '';
      continue;
    }
    if (ch === delimiter) {
      cells.push(cell);
      if (cells.length >= limits.maxColumns)
        return { problem: 'too-many-columns', line: recordLine, columns: cells.length + 1 };
      cell = '';
      quotedCell = false;
      continue;
    }
    if (ch === '\r' || ch === '\n') {
      if (ch === '\r' && text[i + 1] === '\n') i += 1;
      cells.push(cell);
      records.push({ line: recordLine, cells });
      cells = [];
      cell = '';
      quotedCell = false;
      line += 1;
      recordLine = line;
      recordStart = i + 1;
      if (records.length >= perChunk) {
        yield records;
        records = [];
      }
      continue;
    }
    cell += ch;
  }
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    records.push({ line: recordLine, cells });
  }
  if (records.length > 0) yield records;
  return null;
}

export function isBlankRecord(record: CsvRecord): boolean {
  return record.cells.every((cell) => cell.trim() === '');
}

export const DELIMITERS = [',', ';', '\t', '|'] as const;

/** The delimiter whose records most consistently split into the same number (> 1) of fields. */
export function detectDelimiter(text: string): string {
  let best: string = ',';
  let bestScore = -1;
  for (const delimiter of DELIMITERS) {
    const records = tokenize(text, delimiter, 64 * 1024)
      .filter((r) => !isBlankRecord(r))
      .slice(0, 200);
    const counts = new Map<number, number>();
    for (const r of records) if (r.cells.length > 1) counts.set(r.cells.length, (counts.get(r.cells.length) ?? 0) + 1);
    let score = 0;
    for (const [fields, times] of counts) score = Math.max(score, times * 1000 + Math.min(fields, 1000));
    if (score > bestScore) {
      bestScore = score;
      best = delimiter;
    }
  }
  return best;
}
