/**
 * The table of a CSV file, read in two streamed passes over its records (never all of them held
 * at once): a survey that keeps only what the whole file decides (which records are transactions,
 * their date cells, amounts and signs, which description columns never change), then the rows,
 * tokenised again and built chunk by chunk. The answers are those of reading the whole file at once.
 */
import { isReservedCategoryName } from '../categories/reserved';
import { readAmount, type AmountReading } from '../money/read-amount';
import { readOriginal } from '../import/original-amount';
import { indicatorSign, normalizeHeader, type ColumnAssignment, type ColumnRole } from './columns';
import { chooseDateFormat, looksLikeDate, parseDateWith, type DateFormat, type DatedCell } from './dates';
import { isAccountNumber, joinDescription, joinParts } from './describe';
import { noRowsLeft, RowFinisher, squashSpaces, visibleText } from './finish';
import { unguardFormula } from './formula';
import type { Layout } from './mapping';
import { must } from '../must';
import type { Steps } from './steps';
import { RECORDS_PER_STEP, type CsvRecord, type ShapeProblem } from './tokenize';
import {
  fail,
  type CsvReadFailure,
  type CsvRow,
  type ReadOptions,
  type RowChunks,
  type RowsEnd,
  type SkippedLine,
} from './types';

export type Chunks = Generator<CsvRecord[], ShapeProblem | null, void>;

const BALANCE_ROW =
  /^(beginning|opening|closing|ending|starting|previous|new) balance\b|^balance (brought|carried) forward|^saldo (anterior|inicial|final|actual)|^(anfangs|end|alter|neuer) ?saldo|^solde (initial|final|precedent|précédent)|^(begin|eind)saldo/i;

/** Cells that only say which way the money went. */
const MARK = /^(CR|DR|CRDT|DBIT|CREDIT|DEBIT)$/;

/** Counterparty columns whose header says "name" are read before bare ones (bunq: Counterparty is an IBAN). */
const NAMED = /\b(name|naam|nom|holder|houder|inhaber)\b|^name/;

export function lineText(record: CsvRecord, delimiter: string): string {
  return visibleText(record.cells.join(delimiter));
}

/** The records from index `from` on, in chunks; returns the first shape problem, or null. */
export function* recordsFrom(source: () => Chunks, from: number): Chunks {
  let index = 0;
  const chunks = source();
  for (;;) {
    const next = chunks.next();
    if (next.done) return next.value;
    const chunk = next.value;
    const start = index;
    index += chunk.length;
    if (index <= from) yield [];
    else yield start >= from ? chunk : chunk.slice(from - start);
  }
}

/** Runs through the records only to find a shape problem (a failure must not hide one further on). */
export function* shapeProblemIn(chunks: Chunks): Steps<ShapeProblem | null> {
  for (;;) {
    const next = chunks.next();
    if (next.done) return next.value;
    yield;
  }
}

export function shapeFailure(problem: ShapeProblem, maxColumns: number, maxRecordChars: number): CsvReadFailure {
  if (problem.problem === 'too-many-columns') {
    return fail(
      'TOO_MANY_COLUMNS',
      `Line ${problem.line} has more than ${maxColumns} columns; a bank statement has far fewer. Check that this is the right file.`,
      {
        line: problem.line,
      },
    );
  }
  return fail(
    'LINE_TOO_LONG',
    `Line ${problem.line} is longer than ${maxRecordChars / 1024} KB; a bank statement's lines are far shorter. Check that this is the right file.`,
    {
      line: problem.line,
    },
  );
}

interface Columns {
  date: number;
  amount: number | undefined;
  debit: number | undefined;
  credit: number | undefined;
  indicator: number | undefined;
  category: number | undefined;
  currency: number | undefined;
  originalAmount: number | undefined;
  originalCurrency: number | undefined;
  text: number[];
  /** Decimals of the account's currency, which the amount cells are read in. */
  fractionDigits: number;
}

function columnsOf(columns: readonly ColumnAssignment[], fractionDigits = 2): Columns {
  const col = (role: ColumnRole) => columns.find((c) => c.role === role)?.index;
  return {
    fractionDigits,
    date: must(col('date'), 'a layout has a date column'),
    amount: col('amount'),
    debit: col('debit'),
    credit: col('credit'),
    indicator: col('indicator'),
    category: col('category'),
    currency: col('currency'),
    originalAmount: col('original-amount'),
    originalCurrency: col('original-currency'),
    text: columns
      .filter(
        (c) =>
          c.role === 'description' ||
          c.role === 'description-fallback' ||
          c.role === 'counterparty' ||
          c.role === 'payee' ||
          c.role === 'payer',
      )
      .map((c) => c.index),
  };
}

const cell = (r: CsvRecord, i: number | undefined) => (i === undefined ? '' : (r.cells[i] ?? '').trim());
// Text cells lose the apostrophe a formula guard put in front (our own CSV export writes them).
const textCell = (r: CsvRecord, i: number | undefined) => unguardFormula(cell(r, i));

/**
 * A column holding nothing but CR/DR (or Credit/Debit) marks is the indicator, whatever its
 * header says (unnamed in John Lewis card exports, "Type" elsewhere), even when only some
 * rows are marked. A pass of its own over the data records, only for files with columns
 * left unnamed.
 */
export function* addUnnamedIndicator(
  columns: ColumnAssignment[],
  headers: readonly string[],
  data: () => Chunks,
): Steps<ShapeProblem | null> {
  if (columns.some((c) => c.role === 'indicator')) return null;
  const open = (i: number) => {
    const role = columns.find((c) => c.index === i)?.role;
    return role === undefined || role === 'description-fallback';
  };
  const candidates = headers.map((_h, index) => index).filter(open);
  if (candidates.length === 0) return null;
  const state = new Map(candidates.map((i) => [i, { marks: 0, other: false }]));
  const chunks = data();
  let work = 0;
  for (;;) {
    const next = chunks.next();
    if (next.done) {
      if (next.value) return next.value;
      break;
    }
    for (const r of next.value) {
      // Pauses by cells looked at: a wide file pauses more often than every chunk.
      work += state.size;
      if (work >= RECORDS_PER_STEP * 5) {
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
    // Every open column holds other text (a balance, a reference): none can be the indicator,
    // and the rest of the file need not be read again for it.
    if ([...state.values()].every((s) => s.other)) return null;
    yield;
  }
  for (const [index, s] of state) {
    if (s.marks > 0 && !s.other) {
      const at = columns.findIndex((c) => c.index === index);
      if (at >= 0) columns.splice(at, 1);
      columns.push({ index, header: headers[index] ?? '', role: 'indicator' });
      columns.sort((a, b) => a.index - b.index);
      return null;
    }
  }
  return null;
}

/** A growable column of numbers in a typed array: a few bytes a row, not an object or a boxed number. */
class NumberColumn {
  private data: Int8Array | Int32Array | Float64Array;
  length = 0;

  constructor(private readonly make: (size: number) => Int8Array | Int32Array | Float64Array) {
    this.data = make(1024);
  }

  push(value: number): void {
    if (this.length === this.data.length) {
      const grown = this.make(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    this.data[this.length] = value;
    this.length += 1;
  }

  at(index: number): number {
    return must(this.data[index], 'index < length');
  }

  *[Symbol.iterator](): Generator<number> {
    for (let i = 0; i < this.length; i += 1) yield this.at(i);
  }
}

/** One description column seen over the rows with an amount: its first text, and whether every row holds it. */
interface ColumnText {
  first: string;
  same: boolean;
}

/** What the survey keeps of the whole file: compact, one entry per row with an amount. */
interface Survey {
  skipped: SkippedLine[];
  /** The first date cell that cannot be read (it ends the read before anything else does). */
  badDate: CsvReadFailure | null;
  /** The first amount that cannot be read (it ends the read once the date format is chosen). */
  badAmount: CsvReadFailure | null;
  /** Distinct date cells of every transaction record, each with the first line it is on. */
  dates: DatedCell[];
  dateIndex: Map<string, number>;
  candidates: number;
  noAmount: number[];
  /** Per row with an amount: its line, its date (index in `dates`), cents and the sign it states. */
  lines: NumberColumn;
  rowDate: NumberColumn;
  cents: NumberColumn;
  /** sign (-1, 0, 1) + 3 when the sign came from a CR/DR mark or an indicator. */
  signs: NumberColumn;
  markedIn: number;
  markedOut: number;
  unmarkedSigned: boolean;
  texts: Map<number, ColumnText>;
  mayLackCategory: boolean;
  /** Records that are neither dated nor amounts, with the line of the transaction above (0: none). */
  loose: { record: CsvRecord; above: number }[];
}

function newSurvey(textColumns: readonly number[]): Survey {
  return {
    skipped: [],
    badDate: null,
    badAmount: null,
    dates: [],
    dateIndex: new Map(),
    candidates: 0,
    noAmount: [],
    lines: new NumberColumn((n) => new Int32Array(n)),
    rowDate: new NumberColumn((n) => new Int32Array(n)),
    cents: new NumberColumn((n) => new Float64Array(n)),
    signs: new NumberColumn((n) => new Int8Array(n)),
    markedIn: 0,
    markedOut: 0,
    unmarkedSigned: false,
    texts: new Map(textColumns.map((i) => [i, { first: '', same: true }])),
    mayLackCategory: false,
    loose: [],
  };
}

/** A cell that is neither an amount nor empty. */
function unreadable(reading: AmountReading): boolean {
  return !reading.ok && reading.code !== 'EMPTY';
}

/** The amount a transaction record states, its sign and whether a mark gave it; a failure when a cell is not an amount. */
function amountOf(
  r: CsvRecord,
  cols: Columns,
): { cents: number | null; sign: number; marked: boolean } | CsvReadFailure {
  let cents: number | null = null;
  let sign = 0;
  let marked = false;
  if (cols.amount !== undefined) {
    const raw = cell(r, cols.amount);
    const parsed = readAmount(raw, 'csv', { fractionDigits: cols.fractionDigits });
    if (unreadable(parsed))
      return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${visibleText(raw, 40)}' cannot be read.`, {
        line: r.line,
        value: visibleText(raw, 40),
      });
    if (parsed.ok) {
      cents = parsed.cents;
      if (parsed.marker) {
        sign = parsed.marker === 'CR' ? 1 : -1;
        marked = true;
      }
    }
  } else {
    const rawDebit = cell(r, cols.debit);
    const rawCredit = cell(r, cols.credit);
    const debit = readAmount(rawDebit, 'csv', { fractionDigits: cols.fractionDigits });
    const credit = readAmount(rawCredit, 'csv', { fractionDigits: cols.fractionDigits });
    if (unreadable(debit))
      return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${visibleText(rawDebit, 40)}' cannot be read.`, {
        line: r.line,
        value: visibleText(rawDebit, 40),
      });
    if (unreadable(credit))
      return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${visibleText(rawCredit, 40)}' cannot be read.`, {
        line: r.line,
        value: visibleText(rawCredit, 40),
      });
    if (debit.ok || credit.ok) {
      cents = (credit.ok ? Math.abs(credit.cents) : 0) - (debit.ok ? Math.abs(debit.cents) : 0);
      sign = cents < 0 ? -1 : 1;
    }
  }
  if (cols.indicator !== undefined && cents !== null) {
    const s = indicatorSign(cell(r, cols.indicator));
    if (s !== 0) {
      sign = s;
      marked = true;
    }
  }
  return { cents, sign, marked };
}

/** One transaction record (a date-shaped date cell) into the survey. */
function surveyCandidate(s: Survey, r: CsvRecord, dateCell: string, cols: Columns, delimiter: string): void {
  s.candidates += 1;
  let dateAt = s.dateIndex.get(dateCell);
  if (dateAt === undefined) {
    dateAt = s.dates.length;
    s.dates.push({ line: r.line, value: dateCell });
    s.dateIndex.set(dateCell, dateAt);
  }
  if (s.badAmount) return;
  const amount = amountOf(r, cols);
  if ('ok' in amount) {
    s.badAmount = amount;
    return;
  }
  if (amount.cents === null) {
    s.noAmount.push(r.line);
    s.skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'no amount' });
    return;
  }
  s.lines.push(r.line);
  s.rowDate.push(dateAt);
  s.cents.push(amount.cents);
  s.signs.push(amount.sign + (amount.marked ? 3 : 0));
  if (amount.marked && amount.sign > 0) s.markedIn += 1;
  else if (amount.marked && amount.sign < 0) s.markedOut += 1;
  else if (amount.sign !== 0) s.unmarkedSigned = true;
  const first = s.lines.length === 1;
  for (const [i, t] of s.texts) {
    const v = textCell(r, i);
    if (first) t.first = v;
    else if (t.same && v !== t.first) t.same = false;
  }
  if (!s.mayLackCategory) {
    const category = textCell(r, cols.category);
    s.mayLackCategory = category === '' || isReservedCategoryName(category);
  }
}

/** Pass 1: every data record, kept only as the survey needs it. */
function* survey(data: Chunks, cols: Columns, delimiter: string): Steps<Survey | ShapeProblem> {
  const s = newSurvey(cols.text);
  let above = 0;
  for (;;) {
    const next = data.next();
    if (next.done) {
      if (next.value) return next.value;
      return s;
    }
    if (s.badDate) {
      yield;
      continue;
    }
    for (const r of next.value) {
      if (r.cells.every((c) => c.trim() === '')) continue;
      const dateCell = cell(r, cols.date);
      // A date cell seen before is a date (the survey keeps each distinct one): a statement repeats its dates.
      if (dateCell && (s.dateIndex.has(dateCell) || looksLikeDate(dateCell))) {
        surveyCandidate(s, r, dateCell, cols, delimiter);
        above = r.line;
        continue;
      }
      const amountish = [cols.amount, cols.debit, cols.credit].some((i) => cell(r, i) !== '');
      if (!dateCell && !amountish) {
        s.loose.push({ record: r, above });
        continue;
      }
      if (dateCell && amountish && /\d/.test(dateCell) && /^[\d\s./-]+$/.test(dateCell)) {
        s.badDate = fail('BAD_DATE', `Line ${r.line}: the date '${visibleText(dateCell, 40)}' cannot be read.`, {
          line: r.line,
          value: visibleText(dateCell, 40),
        });
        break;
      }
      s.skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'not a transaction' });
    }
    yield;
  }
}

/** Lines that only continue the description of the transaction above, as extra text per transaction line. */
function continuations(s: Survey, textColumns: readonly number[], delimiter: string): Map<number, string[]> {
  const out = new Map<number, string[]>();
  for (const { record: r, above } of s.loose) {
    const textCells = textColumns.map((i) => cell(r, i)).filter(Boolean);
    if (textCells.length > 0 && above > 0) {
      const extra = out.get(above) ?? [];
      extra.push(...textCells);
      out.set(above, extra);
      s.skipped.push({
        line: r.line,
        text: lineText(r, delimiter),
        reason: 'continues the description of the row above',
      });
    } else s.skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'not a transaction' });
  }
  s.loose = [];
  return out;
}

interface Describer {
  text: (record: CsvRecord, cents: number) => string;
  /** Headers of description columns left out because every row holds the same text. */
  dropped: string[];
}

/** Columns no role was given: their text describes a row that has no other. */
function unassigned(layout: Layout): number[] {
  const used = new Set(layout.columns.map((c) => c.index));
  return layout.headers.map((_h, i) => i).filter((i) => !used.has(i));
}

/** The first cell of `columns` that holds words, for a row that has no other description. */
function anyText(r: CsvRecord, columns: readonly number[]): string {
  for (const i of columns) {
    const v = textCell(r, i);
    if (/\p{L}/u.test(v) && !looksLikeDate(v)) return squashSpaces(v);
  }
  return '';
}

/** Description columns: counterparty, then purpose; a column with one text on every row is not a description. */
function describer(columns: readonly ColumnAssignment[], s: Survey, others: readonly number[]): Describer {
  const of = (role: ColumnRole) => columns.filter((c) => c.role === role);
  const rowCount = s.lines.length;
  const constant = (c: ColumnAssignment) => {
    if (rowCount < 2) return false;
    const t = s.texts.get(c.index);
    return t !== undefined && t.first !== '' && t.same;
  };
  const byPreference = (list: ColumnAssignment[]) =>
    [...list].sort(
      (a, b) =>
        Number(!NAMED.test(normalizeHeader(a.header))) - Number(!NAMED.test(normalizeHeader(b.header))) ||
        a.index - b.index,
    );
  let counterparty = byPreference(of('counterparty'));
  const payee = of('payee');
  const payer = of('payer');
  let purpose = of('description');
  let fallback = of('description-fallback');
  const dropped: string[] = [];
  // A product or account name (or the holder's own name) repeated on every row says nothing
  // about a transaction.
  if (rowCount >= 3) {
    const constantOnes = [...purpose, ...fallback, ...counterparty].filter(constant);
    const othersVary = [...purpose, ...fallback, ...counterparty, ...payee, ...payer].some(
      (c) => !constantOnes.includes(c) && !constant(c),
    );
    if (constantOnes.length > 0 && othersVary) {
      dropped.push(
        ...constantOnes.filter((c) => !fallback.includes(c)).map((c) => c.header || `Column ${c.index + 1}`),
      );
      purpose = purpose.filter((c) => !constantOnes.includes(c));
      fallback = fallback.filter((c) => !constantOnes.includes(c));
      counterparty = counterparty.filter((c) => !constantOnes.includes(c));
    }
  }
  const firstName = (list: readonly ColumnAssignment[], r: CsvRecord) => {
    for (const c of list) {
      const v = textCell(r, c.index);
      if (v && !isAccountNumber(v)) return v;
    }
    return '';
  };
  return {
    dropped,
    text(r, cents) {
      const party = firstName(cents < 0 ? payee : payer, r) || firstName(counterparty, r);
      let what = joinParts(purpose.map((c) => textCell(r, c.index)));
      if (!what && !party)
        what = squashSpaces(
          fallback
            .map((c) => textCell(r, c.index))
            .filter(Boolean)
            .join(' '),
        );
      // Text that only looks like an account number ('x0.X', 'AB12 ...') is still better than no description.
      if (!what && !party)
        what = squashSpaces(
          [...(cents < 0 ? payee : payer), ...counterparty].map((c) => textCell(r, c.index)).find(Boolean) ?? '',
        );
      // Never an empty description while some cell of the row has words.
      return joinDescription(party, what) || anyText(r, others);
    },
  };
}

/** What the rows pass needs, decided by the survey. */
export interface TablePlan {
  survey: Survey;
  format: DateFormat;
  /** The stored date of each distinct date cell (index as in survey.dates). */
  postDates: string[];
  unmarkedSign: number;
  describe: Describer;
  extra: Map<number, string[]>;
  warnings: string[];
  notes: string[];
}

export interface TableStart {
  plan: TablePlan;
  dateFormatCandidates: string[];
}

/**
 * Pass 1 over the data records and what it decides: the date format, the sign of unmarked rows,
 * the description columns. A failure is answered only once every record was tokenised (a shape
 * problem further on is answered first, as when the whole file is tokenised at once).
 */
export function* planTable(
  data: Chunks,
  layout: Layout,
  delimiter: string,
  options: ReadOptions,
  limits: { maxColumns: number; maxRecordChars: number },
): Steps<TableStart | CsvReadFailure> {
  const cols = columnsOf(layout.columns, options.fractionDigits);
  const surveyed = yield* survey(data, cols, delimiter);
  if ('problem' in surveyed) return shapeFailure(surveyed, limits.maxColumns, limits.maxRecordChars);
  const s = surveyed;
  if (s.badDate) return s.badDate;
  const extra = continuations(s, cols.text, delimiter);
  if (s.candidates === 0) return fail('NO_ROWS', 'No transactions were found under the header.');
  const warnings: string[] = [];
  const notes: string[] = [...(layout.note ? [layout.note] : []), ...(layout.contentNotes ?? [])];
  // The date format, inferred from every row.
  const choice = chooseDateFormat(s.dates, {
    dateFormat: options.dateFormat ?? layout.mapping?.mapping.dateFormat,
    preferredDateFormat: options.preferredDateFormat,
  });
  if (!choice.ok) return fail(choice.code, choice.message, choice.details);
  if (choice.warning) warnings.push(choice.warning);
  if (s.badAmount) return s.badAmount;
  const format = choice.format;
  const postDates = s.dates.map((d) =>
    must(parseDateWith(format, d.value) ?? undefined, 'the date format was chosen to read every candidate date'),
  );
  yield;
  const noAmount = s.noAmount;
  if (noAmount.length > 0)
    warnings.push(
      `${noAmount.length === 1 ? 'A line has' : `${noAmount.length} lines have`} a date but no amount and ${noAmount.length === 1 ? 'was' : 'were'} skipped: line ${noAmount.slice(0, 10).join(', ')}${noAmount.length > 10 ? ` and ${noAmount.length - 10} more` : ''}.`,
    );
  // Marks on only some rows: the unmarked rows went the other way.
  const rowCount = s.lines.length;
  const unmarked = rowCount - s.markedIn - s.markedOut;
  let unmarkedSign = 0;
  if (unmarked > 0 && s.markedIn > 0 !== s.markedOut > 0 && !s.unmarkedSigned) {
    unmarkedSign = s.markedIn > 0 ? -1 : 1;
    const mark = s.markedIn > 0 ? 'credit (CR)' : 'debit (DR)';
    notes.push(
      `Only ${s.markedIn + s.markedOut} of ${rowCount} rows carry a ${mark} mark, so the ${unmarked} unmarked rows were read as money ${unmarkedSign < 0 ? 'out' : 'in'}.`,
    );
  }
  const describe = describer(layout.columns, s, unassigned(layout));
  if (describe.dropped.length > 0) {
    const one = describe.dropped.length === 1;
    notes.push(
      `Column${one ? '' : 's'} ${describe.dropped.map((h) => `'${h}'`).join(', ')} ${one ? 'holds' : 'hold'} the same text on every row and ${one ? 'was' : 'were'} not used in descriptions.`,
    );
  }
  return {
    plan: { survey: s, format, postDates, unmarkedSign, describe, extra, warnings, notes },
    dateFormatCandidates: choice.candidates,
  };
}

/** Earliest and latest date of the rows the plan will build. */
export function planDateRange(plan: TablePlan): [string, string] {
  let min = '';
  let max = '';
  for (const at of new Set(plan.survey.rowDate)) {
    const date = must(plan.postDates[at], 'every row date is a distinct date cell');
    if (min === '' || date < min) min = date;
    if (max === '' || date > max) max = date;
  }
  return [min, max];
}

/**
 * Pass 2: the data records tokenised again, each transaction built into its row as the survey
 * decided, checked (finish.ts) and answered in chunks.
 */
export function* tableRows(
  data: Chunks,
  plan: TablePlan,
  layout: Layout,
  delimiter: string,
  options: ReadOptions,
): RowChunks {
  const s = plan.survey;
  const cols = columnsOf(layout.columns, options.fractionDigits);
  const flip = Boolean(options.flipAmounts);
  const finisher = new RowFinisher(options);
  const skipped = s.skipped;
  let k = 0;
  while (k < s.lines.length) {
    const next = data.next();
    if (next.done) break;
    const out: CsvRow[] = [];
    for (const r of next.value) {
      if (k >= s.lines.length || r.line !== s.lines.at(k)) continue;
      const code = s.signs.at(k);
      const sign = code > 1 ? code - 3 : code;
      let cents = s.cents.at(k);
      const postDate = must(plan.postDates[s.rowDate.at(k)], 'a distinct date cell');
      k += 1;
      if (sign !== 0) cents = sign * Math.abs(cents);
      else if (plan.unmarkedSign !== 0) cents = plan.unmarkedSign * Math.abs(cents);
      // A sign a CR/DR mark states is never flipped; a signed column's or a debit/credit pair's is.
      if (flip && code <= 1 && plan.unmarkedSign === 0) cents = -cents;
      let description = plan.describe.text(r, cents);
      const extra = plan.extra.get(r.line);
      if (extra) description = squashSpaces([description, ...extra].join(' '));
      if (BALANCE_ROW.test(description)) {
        skipped.push({ line: r.line, text: lineText(r, delimiter), reason: 'a balance line, not a transaction' });
        continue;
      }
      const currency = cell(r, cols.currency).toUpperCase();
      const original =
        cols.originalAmount === undefined || cols.originalCurrency === undefined
          ? null
          : readOriginal(cell(r, cols.originalAmount), cell(r, cols.originalCurrency), cents, options.currency);
      const raw: CsvRow = {
        line: r.line,
        postDate,
        amount: cents === 0 ? 0 : cents,
        description,
        category: textCell(r, cols.category) || null,
        currency: /^[A-Z]{3}$/.test(currency) ? currency : null,
        ...(original ?? {}),
      };
      const finished = finisher.add(raw, () => lineText(r, delimiter));
      if (finished === null) continue;
      if ('ok' in finished) return finished;
      out.push(finished);
    }
    yield out;
  }
  return endOfTable(plan, finisher);
}

function endOfTable(plan: TablePlan, finisher: RowFinisher): RowsEnd | CsvReadFailure {
  const skipped = [...plan.survey.skipped, ...finisher.skipped].sort((a, b) => a.line - b.line);
  if (finisher.count === 0) return noRowsLeft(skipped, 'No transactions were found under the header.');
  return { skipped, warnings: [...plan.warnings, ...finisher.warnings()], notes: plan.notes };
}
