/**
 * The CSV reading engine: bytes or text in, transaction rows and findings out. Pure: no
 * files, no database, no clock. Expected failures come back as values with a code and a
 * message a person can act on.
 */
import { parseAmountCell } from './amounts';
import { assignColumns, hasAmountColumn, indicatorSign, looksLikeHeader, type ColumnAssignment } from './columns';
import { dateFormatCandidates, findDateFormat, looksLikeDate, parseDateWith, type DateFormat } from './dates';
import { decodeCsvBytes } from './encoding';
import { unguardFormula } from './formula';
import { runSteps, runStepsAsync, type Steps } from './steps';
import { detectDelimiter, isBlankRecord, RECORDS_PER_STEP, tokenizeSteps, type CsvRecord } from './tokenize';

export interface ReadOptions {
  /** Overrides detection, e.g. 'DD/MM/YYYY'. */
  dateFormat?: string | null;
  /** The format this account's last import used; settles day/month ambiguity. */
  preferredDateFormat?: string | null;
  /** Negates amounts of a single signed column (card exports showing charges as positive). */
  flipAmounts?: boolean;
}

export interface CsvRow {
  /** 1-based physical line where the record starts. */
  line: number;
  postDate: string;
  /** Integer cents; negative is money out. */
  amount: number;
  description: string;
  category: string | null;
}

export interface SkippedLine {
  line: number;
  text: string;
  reason: string;
}

export interface CsvReadSuccess {
  ok: true;
  encoding: string;
  delimiter: string;
  headerLine: number;
  headers: string[];
  columns: ColumnAssignment[];
  dateFormat: string;
  dateFormatCandidates: string[];
  rows: CsvRow[];
  skipped: SkippedLine[];
  warnings: string[];
}

export type CsvErrorCode =
  | 'EMPTY'
  | 'NOT_CSV'
  | 'NO_HEADER'
  | 'NO_DATE_COLUMN'
  | 'NO_AMOUNT_COLUMN'
  | 'NO_ROWS'
  | 'AMBIGUOUS_DATE'
  | 'UNKNOWN_DATE_FORMAT'
  | 'BAD_DATE'
  | 'BAD_AMOUNT';

export interface CsvReadFailure {
  ok: false;
  code: CsvErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export type CsvReadResult = CsvReadSuccess | CsvReadFailure;

const BALANCE_ROW =
  /^(beginning|opening|closing|ending|starting|previous|new) balance\b|^balance (brought|carried) forward|^saldo (anterior|inicial|final|actual)|^(anfangs|end|alter|neuer) ?saldo|^solde (initial|final|precedent|précédent)|^(begin|eind)saldo/i;

function fail(code: CsvErrorCode, message: string, details?: Record<string, unknown>): CsvReadFailure {
  return { ok: false, code, message, ...(details ? { details } : {}) };
}

function lineText(record: CsvRecord, delimiter: string): string {
  return record.cells.join(delimiter).slice(0, 200);
}

export function readCsv(input: Uint8Array | string, options: ReadOptions = {}): CsvReadResult {
  return runSteps(readCsvSteps(input, options));
}

/**
 * `readCsv` that pauses every RECORDS_PER_STEP records (`pause`, e.g. setImmediate), so a
 * server keeps answering other requests while a large file is read. Same result.
 */
export function readCsvAsync(input: Uint8Array | string, options: ReadOptions, pause: () => Promise<void>): Promise<CsvReadResult> {
  return runStepsAsync(readCsvSteps(input, options), pause);
}

function* readCsvSteps(input: Uint8Array | string, options: ReadOptions): Steps<CsvReadResult> {
  let work = 0;
  /** True every RECORDS_PER_STEP calls: time to pause. */
  const step = () => ++work % RECORDS_PER_STEP === 0;
  let text: string;
  let encoding: string;
  if (typeof input === 'string') {
    text = input.replace(/^\uFEFF/, '');
    encoding = 'text';
  } else {
    if (input.length === 0) return fail('EMPTY', 'The file is empty.');
    const decoded = decodeCsvBytes(input);
    if (!decoded.ok) return fail('NOT_CSV', decoded.message);
    text = decoded.text;
    encoding = decoded.encoding;
  }
  if (text.trim() === '') return fail('EMPTY', 'The file is empty.');

  const delimiter = detectDelimiter(text);
  const records = yield* tokenizeSteps(text, delimiter);
  const headerIndex = records.slice(0, 60).findIndex((r) => looksLikeHeader(r.cells));
  if (headerIndex < 0) {
    const first = records.find((r) => !isBlankRecord(r));
    const seen = first ? first.cells.map((c) => c.trim()).filter(Boolean) : [];
    const columns = first ? assignColumns(first.cells) : [];
    if (first && !columns.some((c) => c.role === 'date')) {
      return fail('NO_DATE_COLUMN', `No date column found. Headers seen: ${seen.join(', ') || '(none)'}`, { headers: seen });
    }
    if (first && !hasAmountColumn(columns)) {
      return fail('NO_AMOUNT_COLUMN', `No amount column found (or debit and credit columns). Headers seen: ${seen.join(', ')}`, { headers: seen });
    }
    return fail('NO_HEADER', 'No header row with a date and an amount column was found.');
  }
  const header = records[headerIndex];
  const headers = header.cells.map((c) => c.trim());
  const columns = assignColumns(headers);
  const dataRecords = records.slice(headerIndex + 1);

  // An unnamed column holding only CR/DR marks the direction (e.g. John Lewis card exports).
  if (!columns.some((c) => c.role === 'indicator')) {
    headers.forEach((h, index) => {
      if (h !== '') return;
      const values = dataRecords.map((r) => (r.cells[index] ?? '').trim().toUpperCase()).filter(Boolean);
      if (values.length > 0 && values.every((v) => v === 'CR' || v === 'DR')) columns.push({ index, header: '', role: 'indicator' });
    });
  }
  const col = (role: ColumnAssignment['role']) => columns.find((c) => c.role === role)?.index;
  const dateCol = col('date')!;
  const amountCol = col('amount');
  const debitCol = col('debit');
  const creditCol = col('credit');
  const indicatorCol = col('indicator');
  const categoryCol = col('category');
  const descriptionCols = columns.filter((c) => c.role === 'description').map((c) => c.index);
  const fallbackCols = columns.filter((c) => c.role === 'description-fallback').map((c) => c.index);
  const cell = (r: CsvRecord, i: number | undefined) => (i === undefined ? '' : (r.cells[i] ?? '').trim());
  // Text cells lose the apostrophe a formula guard put in front (our own CSV export writes them).
  const textCell = (r: CsvRecord, i: number | undefined) => unguardFormula(cell(r, i));

  const skipped: SkippedLine[] = records
    .slice(0, headerIndex)
    .filter((r) => !isBlankRecord(r))
    .map((r) => ({ line: r.line, text: lineText(r, delimiter), reason: 'before the header' }));
  const warnings: string[] = [];

  // Pass 1: which records are transactions (a date-shaped date cell), and their date cells.
  const candidates: CsvRecord[] = [];
  let last: CsvRecord | null = null;
  const continuation = new Map<CsvRecord, string[]>();
  for (const r of dataRecords) {
    if (step()) yield;
    if (isBlankRecord(r)) continue;
    const dateCell = cell(r, dateCol);
    if (dateCell && looksLikeDate(dateCell)) {
      candidates.push(r);
      last = r;
      continue;
    }
    const amountish = [amountCol, debitCol, creditCol].some((i) => cell(r, i) !== '');
    const textCells = [...descriptionCols, ...fallbackCols].map((i) => cell(r, i)).filter(Boolean);
    if (!dateCell && !amountish && textCells.length > 0 && last) {
      const extra = continuation.get(last) ?? [];
      extra.push(...textCells);
      continuation.set(last, extra);
      skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'continues the description of the row above' });
      continue;
    }
    if (dateCell && amountish && /\d/.test(dateCell) && /^[\d\s./-]+$/.test(dateCell)) {
      return fail('BAD_DATE', `Line ${r.line}: the date '${dateCell}' cannot be read.`, { line: r.line, value: dateCell });
    }
    skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'not a transaction' });
  }
  if (candidates.length === 0) return fail('NO_ROWS', 'No transactions were found under the header.');

  // Pass 2: the date format, inferred from every row.
  const dateCells = candidates.map((r) => cell(r, dateCol));
  const fitting = dateFormatCandidates(dateCells);
  let format: DateFormat | undefined;
  if (options.dateFormat) {
    format = findDateFormat(options.dateFormat);
    if (!format) return fail('UNKNOWN_DATE_FORMAT', `Unknown date format '${options.dateFormat}'.`, { candidates: fitting.map((f) => f.name) });
    const bad = candidates.find((r) => parseDateWith(format!, cell(r, dateCol)) === null);
    if (bad) {
      return fail('BAD_DATE', `Line ${bad.line}: the date '${cell(bad, dateCol)}' does not match ${format.name}.`, {
        line: bad.line,
        value: cell(bad, dateCol),
        candidates: fitting.map((f) => f.name),
      });
    }
  } else if (fitting.length === 0) {
    // Name the first row no single format can read.
    const anyFormat = candidates.find((r) => dateFormatCandidates([cell(r, dateCol)]).length === 0);
    const culprit = anyFormat ?? candidates[0];
    return fail('BAD_DATE', `Line ${culprit.line}: the date '${cell(culprit, dateCol)}' cannot be read${anyFormat ? '' : ' in the same format as the other rows'}.`, {
      line: culprit.line,
      value: cell(culprit, dateCol),
    });
  } else {
    const uniqueCells = [...new Set(dateCells)];
    const distinct = fitting.length === 1 ? new Set([0]) : new Set(fitting.map((f) => uniqueCells.map((v) => parseDateWith(f, v)).join()));
    if (distinct.size === 1) format = fitting[0];
    else {
      const preferred = options.preferredDateFormat ? fitting.find((f) => f.name === findDateFormat(options.preferredDateFormat!)?.name) : undefined;
      if (preferred) {
        format = preferred;
        warnings.push(`Day and month order is ambiguous in this file; used ${preferred.name} as in this account's last import.`);
      } else {
        const names = fitting.map((f) => f.name);
        return fail('AMBIGUOUS_DATE', `The date order is ambiguous: every date fits ${names.join(' and ')}. Choose the date format and upload again.`, {
          candidates: names,
        });
      }
    }
  }

  // Pass 3: amounts and descriptions.
  const rows: CsvRow[] = [];
  const flip = Boolean(options.flipAmounts);
  const dates = new Map<string, string>();
  for (const r of candidates) {
    if (step()) yield;
    const dateCell = cell(r, dateCol);
    let postDate = dates.get(dateCell);
    if (postDate === undefined) {
      postDate = parseDateWith(format, dateCell)!;
      dates.set(dateCell, postDate);
    }
    let cents: number | null = null;
    let explicit = false;
    if (amountCol !== undefined) {
      const raw = cell(r, amountCol);
      const parsed = parseAmountCell(raw);
      if (!parsed.ok) return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${raw}' cannot be read.`, { line: r.line, value: raw });
      if (parsed.amount) {
        cents = parsed.amount.cents;
        if (parsed.amount.marker) {
          cents = parsed.amount.marker === 'CR' ? Math.abs(cents) : -Math.abs(cents);
          explicit = true;
        }
      }
    } else {
      const rawDebit = cell(r, debitCol);
      const rawCredit = cell(r, creditCol);
      const debit = parseAmountCell(rawDebit);
      const credit = parseAmountCell(rawCredit);
      if (!debit.ok) return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${rawDebit}' cannot be read.`, { line: r.line, value: rawDebit });
      if (!credit.ok) return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${rawCredit}' cannot be read.`, { line: r.line, value: rawCredit });
      if (debit.amount || credit.amount) {
        cents = (credit.amount ? Math.abs(credit.amount.cents) : 0) - (debit.amount ? Math.abs(debit.amount.cents) : 0);
        explicit = true;
      }
    }
    if (indicatorCol !== undefined && cents !== null) {
      const sign = indicatorSign(cell(r, indicatorCol));
      if (sign !== 0) {
        cents = sign * Math.abs(cents);
        explicit = true;
      }
    }
    let description = descriptionCols.map((i) => textCell(r, i)).filter(Boolean).join(' ');
    if (!description) description = fallbackCols.map((i) => textCell(r, i)).filter(Boolean).join(' ');
    const extra = continuation.get(r);
    if (extra) description = [description, ...extra].filter(Boolean).join(' ');
    if (/\s\s|[\t\n\r]/.test(description)) description = description.replace(/\s+/g, ' ');
    description = description.trim();
    if (cents === null) {
      skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'no amount' });
      warnings.push(`Line ${r.line} has a date but no amount; it was skipped.`);
      continue;
    }
    if (BALANCE_ROW.test(description)) {
      skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'a balance line, not a transaction' });
      continue;
    }
    if (flip && !explicit) cents = -cents;
    if (!Number.isSafeInteger(cents)) return fail('BAD_AMOUNT', `Line ${r.line}: the amount is out of range.`, { line: r.line });
    const category = textCell(r, categoryCol) || null;
    rows.push({ line: r.line, postDate, amount: cents === 0 ? 0 : cents, description, category });
  }
  if (rows.length === 0) return fail('NO_ROWS', 'No transactions were found under the header.');
  skipped.sort((a, b) => a.line - b.line);

  return {
    ok: true,
    encoding,
    delimiter,
    headerLine: header.line,
    headers,
    columns,
    dateFormat: format.name,
    dateFormatCandidates: fitting.map((f) => f.name),
    rows,
    skipped,
    warnings,
  };
}
