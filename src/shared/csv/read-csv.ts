/**
 * The CSV reading engine: bytes or text in, transaction rows and findings out. Pure: no
 * files, no database, no clock. Expected failures come back as values with a code and a
 * message a person can act on. Linear in the file's size whatever its shape, and stepwise
 * (see steps.ts) so a server keeps answering while it reads.
 */
import { parseAmountCell } from './amounts';
import { assignColumns, hasDateAndAmount, indicatorSign, isKeyValueLine, normalizeHeader, type ColumnAssignment, type ColumnRole } from './columns';
import { chooseDateFormat, looksLikeDate, parseDateWith } from './dates';
import { isAccountNumber, joinDescription, joinParts } from './describe';
import { decodeBytesSteps } from './encoding';
import { finishRowsSteps, squashSpaces, visibleText } from './finish';
import { firstDatedRecord, layoutFromMapping, mappingMisfit, mappingProblem, sampleRows, savedHeaderIndex, suggestMapping, tableStart, type Layout } from './mapping';
import { unguardFormula } from './formula';
import { must } from '../must';
import { runSteps, runStepsAsync, type Steps } from './steps';
import { detectDelimiter, IMPORT_LIMITS, isBlankRecord, MAX_COLUMNS, MAX_RECORD_CHARS, RECORDS_PER_STEP, tokenizeSteps, type CsvRecord } from './tokenize';
import { fail, type CsvReadFailure, type CsvReadResult, type CsvRow, type ReadOptions, type SkippedLine } from './types';

export type { CsvErrorCode, CsvReadFailure, CsvReadResult, CsvReadSuccess, CsvRow, ReadOptions, SkippedLine } from './types';

const BALANCE_ROW =
  /^(beginning|opening|closing|ending|starting|previous|new) balance\b|^balance (brought|carried) forward|^saldo (anterior|inicial|final|actual)|^(anfangs|end|alter|neuer) ?saldo|^solde (initial|final|precedent|précédent)|^(begin|eind)saldo/i;

/** Records looked at for the header. */
const HEADER_SEARCH = 60;
/** Records after a header candidate that must hold one transaction for it to be the header. */
const HEADER_LOOKAHEAD = 10;

function lineText(record: CsvRecord, delimiter: string): string {
  return visibleText(record.cells.join(delimiter));
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

/** Bytes (or text) to text, refusing binary files; stepwise for large files. */
export function* decodeInput(input: Uint8Array | string): Steps<{ ok: true; text: string; encoding: string } | CsvReadFailure> {
  if (typeof input === 'string') return { ok: true, text: input.replace(/^\uFEFF/, ''), encoding: 'text' };
  if (input.length === 0) return fail('EMPTY', 'The file is empty.');
  const decoded = yield* decodeBytesSteps(input);
  if (!decoded.ok) return fail('NOT_CSV', decoded.message);
  return { ok: true, text: decoded.text, encoding: decoded.encoding };
}


export function* readCsvSteps(input: Uint8Array | string, options: ReadOptions): Steps<CsvReadResult> {
  const decoded = yield* decodeInput(input);
  if (!decoded.ok) return decoded;
  return yield* readCsvTextSteps(decoded.text, decoded.encoding, options);
}

export function* readCsvTextSteps(text: string, encoding: string, options: ReadOptions): Steps<CsvReadResult> {
  if (text.trim() === '') return fail('EMPTY', 'The file is empty.');
  const delimiter = detectDelimiter(text);
  const tokenized = yield* tokenizeSteps(text, delimiter, Infinity, IMPORT_LIMITS);
  if (!tokenized.ok) {
    if (tokenized.problem === 'too-many-columns') {
      return fail('TOO_MANY_COLUMNS', `Line ${tokenized.line} has more than ${MAX_COLUMNS} columns; a bank statement has far fewer. Check that this is the right file.`, {
        line: tokenized.line,
      });
    }
    return fail('LINE_TOO_LONG', `Line ${tokenized.line} is longer than ${MAX_RECORD_CHARS / 1024} KB; a bank statement's lines are far shorter. Check that this is the right file.`, {
      line: tokenized.line,
    });
  }
  const records = tokenized.records;
  const layout = yield* findLayout(records, options);
  if ('ok' in layout) return layout;
  return yield* readTable(records, layout, delimiter, encoding, options);
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
    if (problem) return fail('BAD_MAPPING', problem, { needsMapping: true, sample: sampleRows(records, start), headers: [] });
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
    saved ? { ...layout, note: `The saved mapping for this account was not used (${misfit ?? 'it is for files without a header'}): this file was read by its header.` } : layout;
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
    const layout: Layout = { headerLine: record.line, headers: cells.map((c) => c.trim()), columns, dataStart: i + 1, headerIndex: i, mapping: null, usedSavedMapping: false };
    firstCandidate ??= layout;
    if (!followedByTransactions(records, i + 1, columns)) continue;
    if (cells.length === tableWidth) return notUsed(layout);
    firstFollowed ??= layout;
  }
  if (firstFollowed) return notUsed(firstFollowed);
  if (saved && !saved.mapping.header) {
    const start = firstDatedRecord(saved.mapping, records, tableStart(records), HEADER_LOOKAHEAD);
    const width = records[start]?.cells.length ?? 0;
    // As many columns, or more that are all empty (a trailing delimiter on every line).
    const sameWidth = width === saved.columnCount || (width > saved.columnCount && sampleRows(records, start).every((row) => row.slice(saved.columnCount).every((c) => c === '')));
    misfit = sameWidth ? mappingMisfit(saved.mapping, records, start) : `the file has ${width} columns, the saved mapping ${saved.columnCount}`;
    if (!misfit) return layoutFromMapping(records, start, saved.mapping, true);
  }
  if (firstCandidate) return notUsed(firstCandidate);
  yield;
  return needsMapping(records, misfit);
}

/** One of the next records reads as a transaction under these columns. */
function followedByTransactions(records: readonly CsvRecord[], from: number, columns: readonly ColumnAssignment[]): boolean {
  const at = (role: ColumnRole) => columns.find((c) => c.role === role)?.index;
  const date = at('date');
  const amountColumns = [at('amount'), at('debit'), at('credit')].filter((i): i is number => i !== undefined);
  let looked = 0;
  for (let i = from; i < records.length && looked < HEADER_LOOKAHEAD; i += 1) {
    const r = must(records[i], 'i < records.length');
    if (isBlankRecord(r)) continue;
    looked += 1;
    if (date === undefined || !looksLikeDate(r.cells[date] ?? '')) continue;
    if (amountColumns.some((c) => {
      const parsed = parseAmountCell((r.cells[c] ?? '').trim());
      return parsed.ok && parsed.amount !== null;
    })) return true;
  }
  return false;
}

function needsMapping(records: readonly CsvRecord[], savedMisfit: string | null): CsvReadFailure {
  const start = tableStart(records);
  const sample = sampleRows(records, start);
  if (sample.length === 0) return fail('EMPTY', 'The file is empty.');
  const first = must(sample[0], 'the sample is not empty');
  const columns = assignColumns(first);
  const seen = first.filter(Boolean);
  const looksLikeData = first.some((c) => looksLikeDate(c));
  const message =
    savedMisfit !== null
      ? `The saved mapping for this account does not fit this file (${savedMisfit}): choose what each column holds.`
      : looksLikeData
        ? 'This file has no header row: choose what each column holds.'
        : `The columns could not be recognised${columns.some((c) => c.role === 'date') ? ' (no amount column, or debit and credit columns)' : ' (no date column)'}. Headers seen: ${seen.join(', ') || '(none)'}. Choose what each column holds.`;
  return fail('NEEDS_MAPPING', message, { needsMapping: true, sample, headers: looksLikeData ? [] : seen, suggestedMapping: suggestMapping(records, start) });
}

interface Pending {
  record: CsvRecord;
  postDate: string;
  cents: number;
  /** +1 / -1 when the row itself says which way the money went (marker, indicator, debit/credit column). */
  sign: number;
  /** The sign came from a CR/DR mark or an indicator (not from debit/credit columns). */
  marked: boolean;
}

function* readTable(records: readonly CsvRecord[], layout: Layout, delimiter: string, encoding: string, options: ReadOptions): Steps<CsvReadResult> {
  const { columns, headers } = layout;
  const dataRecords = records.slice(layout.dataStart);
  const skipped: SkippedLine[] = records
    .slice(0, layout.headerIndex)
    .filter((r) => !isBlankRecord(r))
    .map((r) => ({ line: r.line, text: lineText(r, delimiter), reason: 'before the header' }));
  const warnings: string[] = [];
  const notes: string[] = layout.note ? [layout.note] : [];

  if (!layout.mapping) yield* addUnnamedIndicator(columns, headers, dataRecords);
  const col = (role: ColumnRole) => columns.find((c) => c.role === role)?.index;
  const dateCol = must(col('date'), 'a layout has a date column');
  const amountCol = col('amount');
  const debitCol = col('debit');
  const creditCol = col('credit');
  const indicatorCol = col('indicator');
  const categoryCol = col('category');
  const currencyCol = col('currency');
  const cell = (r: CsvRecord, i: number | undefined) => (i === undefined ? '' : (r.cells[i] ?? '').trim());
  const textColumns = columns.filter((c) => c.role === 'description' || c.role === 'description-fallback' || c.role === 'counterparty' || c.role === 'payee' || c.role === 'payer').map((c) => c.index);
  // Text cells lose the apostrophe a formula guard put in front (our own CSV export writes them).
  const textCell = (r: CsvRecord, i: number | undefined) => unguardFormula(cell(r, i));

  // Pass 1: which records are transactions (a date-shaped date cell), and their date cells.
  const candidates: CsvRecord[] = [];
  let last: CsvRecord | null = null;
  const continuation = new Map<CsvRecord, string[]>();
  for (let n = 0; n < dataRecords.length; n += 1) {
    if (n > 0 && n % RECORDS_PER_STEP === 0) yield;
    const r = must(dataRecords[n], 'n < dataRecords.length');
    if (isBlankRecord(r)) continue;
    const dateCell = cell(r, dateCol);
    if (dateCell && looksLikeDate(dateCell)) {
      candidates.push(r);
      last = r;
      continue;
    }
    const amountish = [amountCol, debitCol, creditCol].some((i) => cell(r, i) !== '');
    const textCells = textColumns.map((i) => cell(r, i)).filter(Boolean);
    if (!dateCell && !amountish && textCells.length > 0 && last) {
      const extra = continuation.get(last) ?? [];
      extra.push(...textCells);
      continuation.set(last, extra);
      skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'continues the description of the row above' });
      continue;
    }
    if (dateCell && amountish && /\d/.test(dateCell) && /^[\d\s./-]+$/.test(dateCell)) {
      return fail('BAD_DATE', `Line ${r.line}: the date '${visibleText(dateCell, 40)}' cannot be read.`, { line: r.line, value: visibleText(dateCell, 40) });
    }
    skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'not a transaction' });
  }
  if (candidates.length === 0) return fail('NO_ROWS', 'No transactions were found under the header.');

  // Pass 2: the date format, inferred from every row.
  const choice = chooseDateFormat(
    candidates.map((r) => ({ line: r.line, value: cell(r, dateCol) })),
    { dateFormat: options.dateFormat ?? layout.mapping?.mapping.dateFormat, preferredDateFormat: options.preferredDateFormat },
  );
  if (!choice.ok) return fail(choice.code, choice.message, choice.details);
  if (choice.warning) warnings.push(choice.warning);
  const format = choice.format;
  yield;

  // Pass 3: amounts, with the sign each row states.
  const pending: Pending[] = [];
  const dates = new Map<string, string>();
  for (let n = 0; n < candidates.length; n += 1) {
    if (n > 0 && n % RECORDS_PER_STEP === 0) yield;
    const r = must(candidates[n], 'n < candidates.length');
    const dateCell = cell(r, dateCol);
    let postDate = dates.get(dateCell);
    if (postDate === undefined) {
      postDate = must(parseDateWith(format, dateCell) ?? undefined, 'the date format was chosen to read every candidate date');
      dates.set(dateCell, postDate);
    }
    let cents: number | null = null;
    let sign = 0;
    let marked = false;
    if (amountCol !== undefined) {
      const raw = cell(r, amountCol);
      const parsed = parseAmountCell(raw);
      if (!parsed.ok) return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${visibleText(raw, 40)}' cannot be read.`, { line: r.line, value: visibleText(raw, 40) });
      if (parsed.amount) {
        cents = parsed.amount.cents;
        if (parsed.amount.marker) {
          sign = parsed.amount.marker === 'CR' ? 1 : -1;
          marked = true;
        }
      }
    } else {
      const rawDebit = cell(r, debitCol);
      const rawCredit = cell(r, creditCol);
      const debit = parseAmountCell(rawDebit);
      const credit = parseAmountCell(rawCredit);
      if (!debit.ok) return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${visibleText(rawDebit, 40)}' cannot be read.`, { line: r.line, value: visibleText(rawDebit, 40) });
      if (!credit.ok) return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${visibleText(rawCredit, 40)}' cannot be read.`, { line: r.line, value: visibleText(rawCredit, 40) });
      if (debit.amount || credit.amount) {
        cents = (credit.amount ? Math.abs(credit.amount.cents) : 0) - (debit.amount ? Math.abs(debit.amount.cents) : 0);
        sign = cents < 0 ? -1 : 1;
      }
    }
    if (indicatorCol !== undefined && cents !== null) {
      const s = indicatorSign(cell(r, indicatorCol));
      if (s !== 0) {
        sign = s;
        marked = true;
      }
    }
    if (cents === null) {
      skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'no amount' });
      continue;
    }
    pending.push({ record: r, postDate, cents, sign, marked });
  }
  const noAmount = skipped.filter((s) => s.reason === 'no amount').map((s) => s.line);
  if (noAmount.length > 0) warnings.push(`${noAmount.length === 1 ? 'A line has' : `${noAmount.length} lines have`} a date but no amount and ${noAmount.length === 1 ? 'was' : 'were'} skipped: line ${noAmount.slice(0, 10).join(', ')}${noAmount.length > 10 ? ` and ${noAmount.length - 10} more` : ''}.`);

  // Marks on only some rows: the unmarked rows went the other way.
  const markedIn = pending.filter((p) => p.marked && p.sign > 0).length;
  const markedOut = pending.filter((p) => p.marked && p.sign < 0).length;
  const unmarked = pending.length - markedIn - markedOut;
  let unmarkedSign = 0;
  if (unmarked > 0 && (markedIn > 0) !== (markedOut > 0) && !pending.some((p) => !p.marked && p.sign !== 0)) {
    unmarkedSign = markedIn > 0 ? -1 : 1;
    const mark = markedIn > 0 ? 'credit (CR)' : 'debit (DR)';
    notes.push(
      `Only ${markedIn + markedOut} of ${pending.length} rows carry a ${mark} mark, so the ${unmarked} unmarked rows were read as money ${unmarkedSign < 0 ? 'out' : 'in'}.`,
    );
  }

  // Description columns: counterparty, then purpose; a column with one text on every row is not a description.
  const describe = describer(columns, pending.map((p) => p.record), textCell);
  if (describe.dropped.length > 0) {
    const one = describe.dropped.length === 1;
    notes.push(`Column${one ? '' : 's'} ${describe.dropped.map((h) => `'${h}'`).join(', ')} ${one ? 'holds' : 'hold'} the same text on every row and ${one ? 'was' : 'were'} not used in descriptions.`);
  }

  const flip = Boolean(options.flipAmounts);
  const raw: CsvRow[] = [];
  for (let n = 0; n < pending.length; n += 1) {
    if (n > 0 && n % RECORDS_PER_STEP === 0) yield;
    const p = must(pending[n], 'n < pending.length');
    const r = p.record;
    let cents = p.cents;
    if (p.sign !== 0) cents = p.sign * Math.abs(cents);
    else if (unmarkedSign !== 0) cents = unmarkedSign * Math.abs(cents);
    else if (flip) cents = -cents;
    let description = describe.text(r, cents);
    const extra = continuation.get(r);
    if (extra) description = squashSpaces([description, ...extra].join(' '));
    if (BALANCE_ROW.test(description)) {
      skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'a balance line, not a transaction' });
      continue;
    }
    const currency = cell(r, currencyCol).toUpperCase();
    raw.push({
      line: r.line,
      postDate: p.postDate,
      amount: cents === 0 ? 0 : cents,
      description,
      category: textCell(r, categoryCol) || null,
      currency: /^[A-Z]{3}$/.test(currency) ? currency : null,
    });
  }
  const byLine = new Map<number, CsvRecord>();
  const finished = yield* finishRowsSteps(raw, (line) => {
    if (byLine.size === 0) for (const r of candidates) byLine.set(r.line, r);
    const r = byLine.get(line);
    return r ? lineText(r, delimiter) : '';
  });
  if ('ok' in finished) return finished;
  const rows = finished.rows;
  skipped.push(...finished.skipped);
  warnings.push(...finished.warnings);
  if (rows.length === 0) return fail('NO_ROWS', 'No transactions were found under the header.');
  skipped.sort((a, b) => a.line - b.line);
  const dateColumn = must(columns.find((c) => c.role === 'date'), 'a layout has a date column');
  return {
    ok: true,
    format: 'csv',
    encoding,
    delimiter,
    headerLine: layout.headerLine,
    headers,
    columns,
    dateColumn: dateColumn.header || `Column ${dateColumn.index + 1}`,
    dateFormat: format.name,
    dateFormatCandidates: choice.candidates,
    rows,
    skipped,
    warnings,
    notes,
    mapping: layout.mapping,
    usedSavedMapping: layout.usedSavedMapping,
    ...(layout.mapping ? { sample: sampleRows(records, layout.headerIndex) } : {}),
  };
}

/** Cells that only say which way the money went. */
const MARK = /^(CR|DR|CRDT|DBIT|CREDIT|DEBIT)$/;

/**
 * A column holding nothing but CR/DR (or Credit/Debit) marks is the indicator, whatever its
 * header says (unnamed in John Lewis card exports, "Type" elsewhere), even when only some
 * rows are marked.
 */
function* addUnnamedIndicator(columns: ColumnAssignment[], headers: readonly string[], dataRecords: readonly CsvRecord[]): Steps<void> {
  if (columns.some((c) => c.role === 'indicator')) return;
  const open = (i: number) => {
    const role = columns.find((c) => c.index === i)?.role;
    return role === undefined || role === 'description-fallback';
  };
  const candidates = headers.map((_h, index) => index).filter(open);
  if (candidates.length === 0) return;
  const state = new Map(candidates.map((i) => [i, { marks: 0, other: false }]));
  let work = 0;
  for (const r of dataRecords) {
    work += state.size;
    if (work >= RECORDS_PER_STEP * 10) {
      work = 0;
      yield;
    }
    for (const [i, s] of state) {
      if (s.other) continue;
      const v = (r.cells[i] ?? '').trim().toUpperCase();
      if (v === '') continue;
      if (MARK.test(v)) s.marks += 1;
      else s.other = true;
    }
  }
  for (const [index, s] of state) {
    if (s.marks > 0 && !s.other) {
      const at = columns.findIndex((c) => c.index === index);
      if (at >= 0) columns.splice(at, 1);
      columns.push({ index, header: headers[index] ?? '', role: 'indicator' });
      columns.sort((a, b) => a.index - b.index);
      return;
    }
  }
}

interface Describer {
  text: (record: CsvRecord, cents: number) => string;
  /** Headers of description columns left out because every row holds the same text. */
  dropped: string[];
}

/** Counterparty columns whose header says "name" are read before bare ones (bunq: Counterparty is an IBAN). */
const NAMED = /\b(name|naam|nom|holder|houder|inhaber)\b|^name/;

function describer(columns: readonly ColumnAssignment[], rows: readonly CsvRecord[], cell: (r: CsvRecord, i: number | undefined) => string): Describer {
  const of = (role: ColumnRole) => columns.filter((c) => c.role === role);
  const constant = (c: ColumnAssignment) => {
    if (rows.length < 2) return false;
    const first = cell(must(rows[0], 'rows.length >= 2'), c.index);
    return first !== '' && rows.every((r) => cell(r, c.index) === first);
  };
  const byPreference = (list: ColumnAssignment[]) =>
    [...list].sort((a, b) => Number(!NAMED.test(normalizeHeader(a.header))) - Number(!NAMED.test(normalizeHeader(b.header))) || a.index - b.index);
  let counterparty = byPreference(of('counterparty'));
  const payee = of('payee');
  const payer = of('payer');
  let purpose = of('description');
  let fallback = of('description-fallback');
  const dropped: string[] = [];
  // A product or account name (or the holder's own name) repeated on every row says nothing
  // about a transaction.
  if (rows.length >= 3) {
    const constantOnes = [...purpose, ...fallback, ...counterparty].filter(constant);
    const othersVary = [...purpose, ...fallback, ...counterparty, ...payee, ...payer].some((c) => !constantOnes.includes(c) && !constant(c));
    if (constantOnes.length > 0 && othersVary) {
      dropped.push(...constantOnes.filter((c) => !fallback.includes(c)).map((c) => c.header || `Column ${c.index + 1}`));
      purpose = purpose.filter((c) => !constantOnes.includes(c));
      fallback = fallback.filter((c) => !constantOnes.includes(c));
      counterparty = counterparty.filter((c) => !constantOnes.includes(c));
    }
  }
  const firstName = (list: readonly ColumnAssignment[], r: CsvRecord) => {
    for (const c of list) {
      const v = cell(r, c.index);
      if (v && !isAccountNumber(v)) return v;
    }
    return '';
  };
  return {
    dropped,
    text(r, cents) {
      const party = firstName(cents < 0 ? payee : payer, r) || firstName(counterparty, r);
      let what = joinParts(purpose.map((c) => cell(r, c.index)));
      if (!what && !party) what = squashSpaces(fallback.map((c) => cell(r, c.index)).filter(Boolean).join(' '));
      // Text that only looks like an account number ('x0.X', 'AB12 ...') is still better than no description.
      if (!what && !party) what = squashSpaces([...(cents < 0 ? payee : payer), ...counterparty].map((c) => cell(r, c.index)).find(Boolean) ?? '');
      return joinDescription(party, what);
    },
  };
}
