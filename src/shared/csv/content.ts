/**
 * Column roles told by what the cells hold, for the columns header words do not name (or files
 * without a header): a column of dates in one format is the date; two number columns never filled
 * on the same row are money out and money in; a number column filled on every row is the amount;
 * a number column that moves by the amount from row to row is a running balance, never an amount;
 * a column of the same few words is a type; a varying text column is a counterparty or description.
 */
import { readAmount } from '../money/read-amount';
import { normalizeHeader, excludedHeader, type ColumnAssignment, type ColumnRole } from './columns';
import { dateFormatCandidates, looksLikeDate } from './dates';

/** Data rows looked at. */
const PROFILE_ROWS = 200;

/** The cells of one column over the data rows (trimmed; '' when the row is shorter). */
type Cells = string[];

const filledOf = (cells: Cells) => cells.filter((c) => c !== '');

/** An amount as banks write one: digits with decimals, a sign, brackets or a currency. */
function amountShaped(value: string): boolean {
  if (!/\d/.test(value) || !/[.,]\d{1,2}(?!\d)|^[-+(−]|[-)]$|[$€£¥]|[A-Z]{3}|\b(CR|DR)\b/.test(value)) return false;
  return readAmount(value, 'csv').ok;
}

/** Cents of an amount cell, 0 when empty or unreadable. */
function centsOf(value: string): number {
  const parsed = readAmount(value, 'csv');
  return parsed.ok ? parsed.cents : 0;
}

/** Nearly every filled cell is a date (a footer line may not be), and one date format reads them all. */
function isDateColumn(cells: Cells): boolean {
  const filled = filledOf(cells);
  if (filled.length === 0 || filled.length * 2 < cells.length) return false;
  const dates = filled.filter(looksLikeDate);
  const misses = filled.length - dates.length;
  return misses <= Math.max(1, filled.length * 0.1) && dates.length > misses && dateFormatCandidates(dates).length > 0;
}

/** A header's date column holds dates on most rows (a footer or a note line may hold something else). */
function mostlyDates(cells: Cells): boolean {
  const filled = filledOf(cells);
  return filled.length > 0 && filled.filter(looksLikeDate).length * 2 >= filled.length;
}

/** Most filled cells are amounts. */
function isAmountColumn(cells: Cells): boolean {
  const filled = filledOf(cells);
  return filled.length > 0 && filled.filter(amountShaped).length >= filled.length * 0.9;
}

/** Most filled cells hold letters (and are neither dates nor amounts). */
function isTextColumn(cells: Cells): boolean {
  const filled = filledOf(cells);
  if (filled.length === 0) return false;
  const text = filled.filter((c) => /\p{L}/u.test(c) && !looksLikeDate(c) && !amountShaped(c));
  return text.length >= filled.length * 0.6;
}

/**
 * `balance` moves by `amount` from one row to the next (oldest first or newest first): it is a
 * running balance of those amounts.
 */
function isRunningBalance(balance: readonly number[], amount: readonly number[]): boolean {
  if (balance.length < 3) return false;
  let fits = 0;
  for (let i = 1; i < balance.length; i += 1) {
    const step = Math.abs((balance[i] ?? 0) - (balance[i - 1] ?? 0));
    if (step === Math.abs(amount[i] ?? 0) || step === Math.abs(amount[i - 1] ?? 0)) fits += 1;
  }
  return fits >= (balance.length - 1) * 0.8;
}

/**
 * The signed direction of a running balance: +1 when it rises with `net`, -1 when it falls with it, 0 unknown.
 * Each reading (oldest first or newest first, rising or falling) is scored on its own: mixing them per step lets
 * two equal amounts in a row fit the wrong direction.
 */
function balanceDirection(balance: readonly number[], net: readonly number[]): number {
  const fits = { oldestRising: 0, oldestFalling: 0, newestRising: 0, newestFalling: 0 };
  for (let i = 1; i < balance.length; i += 1) {
    const step = (balance[i] ?? 0) - (balance[i - 1] ?? 0);
    const later = net[i] ?? 0;
    const earlier = net[i - 1] ?? 0;
    if (step === later) fits.oldestRising += 1;
    if (step === -later) fits.oldestFalling += 1;
    if (step === -earlier) fits.newestRising += 1;
    if (step === earlier) fits.newestFalling += 1;
  }
  const rising = Math.max(fits.oldestRising, fits.newestRising);
  const falling = Math.max(fits.oldestFalling, fits.newestFalling);
  if (rising > falling) return 1;
  if (falling > rising) return -1;
  return 0;
}

export interface ContentRoles {
  columns: ColumnAssignment[];
  /** What was told by content, worth a sentence in the preview. */
  notes: string[];
}

interface Table {
  headers: readonly string[];
  columns: Cells[];
  width: number;
}

function tableOf(rows: readonly (readonly string[])[], headers: readonly string[]): Table {
  const width = Math.max(headers.length, ...rows.map((r) => r.length));
  const columns = Array.from({ length: width }, (_, i) => rows.map((r) => (r[i] ?? '').trim()));
  return { headers, columns, width };
}

const nameOf = (t: Table, index: number) => t.headers[index]?.trim() || `Column ${index + 1}`;

/**
 * The roles of a table's columns: the header's roles (`known`) where its content agrees, the rest
 * from content. `rows` are the data rows (up to PROFILE_ROWS are looked at).
 */
export function inferRoles(
  rows: readonly (readonly string[])[],
  headers: readonly string[],
  known: readonly ColumnAssignment[],
): ContentRoles {
  const t = tableOf(rows.slice(0, PROFILE_ROWS), headers);
  const notes: string[] = [];
  const columns = known.filter((c) => c.role !== 'date' || mostlyDates(t.columns[c.index] ?? []));
  const taken = () => new Set(columns.map((c) => c.index));
  const add = (index: number, role: ColumnRole) =>
    columns.push({ index, header: headers[index]?.trim() ?? '', role, byContent: true });
  if (!columns.some((c) => c.role === 'date')) {
    const date = t.columns.findIndex((cells, i) => !taken().has(i) && isDateColumn(cells));
    if (date >= 0) add(date, 'date');
  }
  if (!hasAmounts(columns)) notes.push(...inferAmounts(t, columns, taken(), add));
  if (!columns.some((c) => PRIMARY_TEXT.has(c.role))) inferTexts(t, columns, taken(), add);
  columns.sort((a, b) => a.index - b.index);
  const told = columns.filter((c) => c.byContent);
  if (told.length > 0)
    notes.unshift(
      `Told by their content: ${told.map((c) => `${nameOf(t, c.index)} as ${ROLE_WORDS[c.role]}`).join(', ')}.`,
    );
  return { columns, notes };
}

const ROLE_WORDS: Record<ColumnRole, string> = {
  date: 'the date',
  amount: 'the amount',
  debit: 'money out',
  credit: 'money in',
  indicator: 'the debit/credit mark',
  description: 'description',
  'description-fallback': 'the type',
  counterparty: 'the counterparty',
  payee: 'the payee',
  payer: 'the payer',
  category: 'the category',
  currency: 'the currency',
  'original-amount': 'the original amount',
  'original-currency': 'the original currency',
};

const PRIMARY_TEXT: ReadonlySet<ColumnRole> = new Set(['description', 'counterparty', 'payee', 'payer']);

function hasAmounts(columns: readonly ColumnAssignment[]): boolean {
  const has = (role: ColumnRole) => columns.some((c) => c.role === role);
  return has('amount') || (has('debit') && has('credit'));
}

/** Signed cents of a number column, row by row. */
const centsColumn = (cells: Cells) => cells.map(centsOf);

/**
 * The amount (or money out and money in) from the number columns no header word named: balances
 * (columns that move by another's amounts) are set aside first.
 */
function inferAmounts(
  t: Table,
  columns: ColumnAssignment[],
  taken: ReadonlySet<number>,
  add: (index: number, role: ColumnRole) => void,
): string[] {
  const rowCount = t.columns[0]?.length ?? 0;
  const numeric = t.columns
    .map((cells, index) => ({ index, cells }))
    .filter(({ index, cells }) => !taken.has(index) && !isDateColumn(cells) && isAmountColumn(cells));
  const balances = new Set<number>();
  const candidates = numeric.filter((c) => !excludedHeader(normalizeHeader(t.headers[c.index] ?? '')));
  for (const a of candidates) {
    if (filledOf(a.cells).length < rowCount * 0.9) continue;
    const amount = centsColumn(a.cells);
    for (const b of numeric) if (b !== a && isRunningBalance(centsColumn(b.cells), amount)) balances.add(b.index);
  }
  const open = candidates.filter((c) => !balances.has(c.index));
  const pair = complementaryPair(open.map((c) => c.cells));
  if (pair) {
    const [first, second] = pair.map((i) => open[i]?.index ?? -1) as [number, number];
    const named = columns.find((c) => c.index === first || c.index === second);
    const told = named
      ? { debitFirst: (named.role === 'debit') === (named.index === first), by: 'header' }
      : debitFirst(t, first, second);
    const debit = told.debitFirst ? first : second;
    const credit = told.debitFirst ? second : first;
    add(debit, 'debit');
    add(credit, 'credit');
    return told.by === 'order'
      ? [
          `${nameOf(t, debit)} and ${nameOf(t, credit)} are never filled on the same row: they were read as money out and money in, in the usual order. If they are the other way round, flip the signs.`,
        ]
      : [];
  }
  const full = open.filter(
    (c) => filledOf(c.cells).length >= rowCount * 0.9 && !columns.some((k) => k.index === c.index),
  );
  const signed = full.filter((c) => c.cells.some((v) => centsOf(v) < 0) && c.cells.some((v) => centsOf(v) > 0));
  // Two columns that could each be the amount: the content does not tell which, so a person is asked.
  const amount = signed.length === 1 ? signed[0] : signed.length === 0 && full.length === 1 ? full[0] : undefined;
  if (amount) add(amount.index, 'amount');
  return [];
}

/** Indexes (in `cells`) of two columns never both filled on a row, one of them filled on nearly every row. */
function complementaryPair(cells: readonly Cells[]): [number, number] | null {
  for (let a = 0; a < cells.length; a += 1) {
    for (let b = a + 1; b < cells.length; b += 1) {
      const x = cells[a] ?? [];
      const y = cells[b] ?? [];
      let both = 0;
      let one = 0;
      let xs = 0;
      let ys = 0;
      for (let i = 0; i < x.length; i += 1) {
        const hasX = centsOf(x[i] ?? '') !== 0;
        const hasY = centsOf(y[i] ?? '') !== 0;
        if (hasX && hasY) both += 1;
        else if (hasX || hasY) one += 1;
        if (hasX) xs += 1;
        if (hasY) ys += 1;
      }
      if (both === 0 && xs > 0 && ys > 0 && one >= x.length * 0.9) return [a, b];
    }
  }
  return null;
}

/**
 * Whether the first of two complementary columns is money out: told by a running balance (it
 * falls by the money out), else by signs written in one of them, else the common order (out, then in).
 */
function debitFirst(t: Table, first: number, second: number): { debitFirst: boolean; by: string } {
  const x = centsColumn(t.columns[first] ?? []);
  const y = centsColumn(t.columns[second] ?? []);
  const net = x.map((v, i) => Math.abs(y[i] ?? 0) - Math.abs(v));
  for (let i = 0; i < t.width; i += 1) {
    if (i === first || i === second) continue;
    const cells = t.columns[i] ?? [];
    if (!isAmountColumn(cells) || isDateColumn(cells)) continue;
    const balance = centsColumn(cells);
    if (!isRunningBalance(balance, net)) continue;
    const direction = balanceDirection(balance, net);
    if (direction !== 0) return { debitFirst: direction > 0, by: 'balance' };
  }
  if (y.some((v) => v < 0) !== x.some((v) => v < 0)) return { debitFirst: x.some((v) => v < 0), by: 'signs' };
  return { debitFirst: true, by: 'order' };
}

/** Text columns no header word named: codes are the currency, a few repeated words the type, the rest text. */
function inferTexts(
  t: Table,
  columns: ColumnAssignment[],
  taken: ReadonlySet<number>,
  add: (index: number, role: ColumnRole) => void,
): void {
  const texts: { index: number; filled: string[]; distinct: number }[] = [];
  for (let index = 0; index < t.width; index += 1) {
    const cells = t.columns[index] ?? [];
    if (taken.has(index) || !isTextColumn(cells)) continue;
    if (excludedHeader(normalizeHeader(t.headers[index] ?? ''))) continue;
    const filled = filledOf(cells);
    texts.push({ index, filled, distinct: new Set(filled).size });
  }
  for (const c of texts) {
    if (c.filled.length >= 2 && c.distinct === 1) continue;
    if (c.filled.every((v) => /^[A-Z]{3}$/.test(v))) {
      if (!columns.some((k) => k.role === 'currency')) add(c.index, 'currency');
      continue;
    }
    if (c.filled.every((v) => /^(CR|DR|C|D|CRDT|DBIT)$/i.test(v))) continue;
    const fewWords = c.filled.length >= 4 && c.distinct <= Math.max(2, Math.floor(c.filled.length / 3));
    if (fewWords) {
      if (!columns.some((k) => k.role === 'description-fallback')) add(c.index, 'description-fallback');
      continue;
    }
    add(c.index, nameLike(c.filled) ? 'counterparty' : 'description');
  }
}

/** Short texts of a few words without digits: the names of people and shops. */
function nameLike(values: readonly string[]): boolean {
  const named = values.filter((v) => v.length <= 40 && v.split(/\s+/).length <= 5 && !/\d{3}/.test(v));
  return named.length >= values.length * 0.8;
}
