import { runSteps, type Steps } from './steps';

/** RFC 4180 records with the physical line each starts on; quotes may span lines. */
export interface CsvRecord {
  line: number;
  cells: string[];
}

/** Records between two pauses of a stepwise read (see steps.ts). */
export const RECORDS_PER_STEP = 2000;

export function tokenize(text: string, delimiter: string, limitChars = Infinity): CsvRecord[] {
  return runSteps(tokenizeSteps(text, delimiter, limitChars));
}

/** `tokenize` as steps: pauses every RECORDS_PER_STEP records, so a server can stay responsive. */
export function* tokenizeSteps(text: string, delimiter: string, limitChars = Infinity): Steps<CsvRecord[]> {
  if (text.indexOf('"') < 0) return yield* tokenizeUnquoted(text, delimiter, limitChars);
  return yield* tokenizeQuoted(text, delimiter, limitChars);
}

/** Fast path for files without any quote character: split lines, then cells. */
function* tokenizeUnquoted(text: string, delimiter: string, limitChars: number): Steps<CsvRecord[]> {
  const records: CsvRecord[] = [];
  const end = Math.min(text.length, limitChars);
  let start = 0;
  let line = 1;
  while (start < end) {
    let stop = text.indexOf('\n', start);
    if (stop < 0 || stop > end) stop = end;
    let lineEnd = stop;
    if (lineEnd > start && text.charCodeAt(lineEnd - 1) === 13) lineEnd -= 1;
    const content = text.slice(start, lineEnd);
    if (content.indexOf('\r') >= 0) {
      // Old Mac line endings inside: fall back to the careful tokenizer for the rest.
      const rest = yield* tokenizeQuoted(text.slice(start, end), delimiter, Infinity);
      return [...records, ...rest.map((r) => ({ line: r.line + line - 1, cells: r.cells }))];
    }
    records.push({ line, cells: content.split(delimiter) });
    if (records.length % RECORDS_PER_STEP === 0) yield;
    line += 1;
    start = stop + 1;
  }
  return records;
}

function* tokenizeQuoted(text: string, delimiter: string, limitChars: number): Steps<CsvRecord[]> {
  const records: CsvRecord[] = [];
  const end = Math.min(text.length, limitChars);
  let cells: string[] = [];
  let cell = '';
  let inQuotes = false;
  let line = 1;
  let recordLine = 1;
  let quotedCell = false;
  for (let i = 0; i < end; i += 1) {
    const ch = text[i];
    if (inQuotes) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          cell += '"';
          i += 1;
        } else inQuotes = false;
      } else {
        if (ch === '\n') line += 1;
        cell += ch;
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
      if (records.length % RECORDS_PER_STEP === 0) yield;
      continue;
    }
    cell += ch;
  }
  if (cell !== '' || cells.length > 0) {
    cells.push(cell);
    records.push({ line: recordLine, cells });
  }
  return records;
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
    const records = tokenize(text, delimiter, 64 * 1024).filter((r) => !isBlankRecord(r)).slice(0, 200);
    const counts = new Map<number, number>();
    for (const r of records) if (r.cells.length > 1) counts.set(r.cells.length, (counts.get(r.cells.length) ?? 0) + 1);
    let score = 0;
    for (const [fields, times] of counts) score = Math.max(score, times * 1000 + fields);
    if (score > bestScore) {
      bestScore = score;
      best = delimiter;
    }
  }
  return best;
}
