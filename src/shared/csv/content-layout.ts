/**
 * Layouts told (in part) by content: a header found by its words gets the roles its words missed
 * from the cells under it, a header split over two lines is read as one, and a table whose header
 * names nothing known (or that has none) is read from what its columns hold.
 */
import { readAmount } from '../money/read-amount';
import { assignColumns, hasDateAndAmount, isKeyValueLine, type ColumnAssignment } from './columns';
import { inferRoles } from './content';
import { looksLikeDate } from './dates';
import type { Layout } from './mapping';
import { must } from '../must';
import { isBlankRecord, type CsvRecord } from './tokenize';
import type { ColumnMapping } from './types';

/** Records looked at for the first transaction of a table read by content. */
const CONTENT_SEARCH = 60;
/** Data rows whose content tells the roles. */
const PROFILE_ROWS = 200;

const hasAmount = (cell: string) => {
  if (!/\d/.test(cell)) return false;
  return readAmount(cell.trim(), 'csv').ok;
};

/** A line of words: no date, no number, at least two cells with letters (a header or its second line). */
function isWordLine(cells: readonly string[]): boolean {
  if (isKeyValueLine(cells)) return false;
  if (cells.some((c) => /\d/.test(c) && (looksLikeDate(c) || hasAmount(c)))) return false;
  return cells.filter((c) => /\p{L}/u.test(c)).length >= 2;
}

/** A line under a header that only continues it: words or units, no digit at all. */
function continuesHeader(cells: readonly string[], width: number): boolean {
  return (
    cells.length === width && cells.every((c) => !/\d/.test(c)) && cells.filter((c) => c.trim() !== '').length >= 2
  );
}

/** Two header lines read as one: `Buchungs-` + `datum`, `Belastung` + `CHF`, `Amount` + `Debit`. */
export function joinHeaderLines(top: readonly string[], bottom: readonly string[]): string[] {
  return top.map((cell, i) => {
    const upper = cell.trim();
    const lower = (bottom[i] ?? '').trim();
    if (!lower) return upper;
    if (!upper) return lower;
    if (upper.endsWith('-')) return `${upper.slice(0, -1)}${lower}`;
    if (assignColumns([lower]).length > 0) return lower;
    return `${upper} ${lower}`;
  });
}

/** The data rows from `from` of the table's width, as trimmed cells. */
function dataRows(records: readonly CsvRecord[], from: number, width: number): string[][] {
  const rows: string[][] = [];
  for (let i = from; i < records.length && rows.length < PROFILE_ROWS; i += 1) {
    const r = must(records[i], 'i < records.length');
    if (isBlankRecord(r) || Math.abs(r.cells.length - width) > 1) continue;
    rows.push(r.cells.map((c) => c.trim()));
  }
  return rows;
}

/**
 * A header layout (found by its words) with what its words missed taken from content, and a
 * second header line (units, the rest of split words) read into it.
 */
export function refineHeaderLayout(records: readonly CsvRecord[], layout: Layout): Layout {
  let out = layout;
  const next = records[layout.dataStart];
  if (next && continuesHeader(next.cells, layout.headers.length)) {
    const headers = joinHeaderLines(layout.headers, next.cells);
    const columns = assignColumns(headers);
    if (hasDateAndAmount(columns)) out = { ...layout, headers, columns, dataStart: layout.dataStart + 1 };
  }
  const rows = dataRows(records, out.dataStart, out.headers.length);
  const inferred = inferRoles(rows, out.headers, out.columns);
  if (!hasDateAndAmount(inferred.columns)) return out;
  return { ...out, columns: inferred.columns, contentNotes: inferred.notes };
}

/**
 * A table read by content: its first transaction is the first line with a date and an amount; the
 * line of words right above it (and the one above that, for a header over two lines) is its header,
 * else it has none. Null when the content does not tell a date and an amount.
 */
export function contentLayout(records: readonly CsvRecord[]): Layout | null {
  const limit = Math.min(records.length, CONTENT_SEARCH);
  let first = -1;
  for (let i = 0; i < limit; i += 1) {
    const cells = must(records[i], 'i < limit').cells;
    if (cells.length >= 2 && cells.some(looksLikeDate) && cells.some((c) => !looksLikeDate(c) && hasAmount(c))) {
      first = i;
      break;
    }
  }
  if (first < 0) return null;
  const width = must(records[first], 'found above').cells.length;
  let headerIndex = -1;
  let headers: string[] = Array.from({ length: width }, () => '');
  const above = previousNonBlank(records, first);
  if (above >= 0 && must(records[above], 'found').cells.length === width && isWordLine(records[above]?.cells ?? [])) {
    headerIndex = above;
    headers = must(records[above], 'found').cells.map((c) => c.trim());
    const top = previousNonBlank(records, above);
    const topCells = top >= 0 ? must(records[top], 'found').cells : [];
    if (top >= 0 && topCells.length === width && isWordLine(topCells) && !hasDateAndAmount(assignColumns(headers))) {
      headerIndex = top;
      headers = joinHeaderLines(topCells, headers);
    }
  }
  const inferred = inferRoles(dataRows(records, first, width), headers, assignColumns(headers));
  if (!hasDateAndAmount(inferred.columns)) return null;
  const headerRecord = headerIndex >= 0 ? must(records[headerIndex], 'found') : null;
  return {
    headerLine: headerRecord?.line ?? 0,
    headers,
    columns: inferred.columns,
    dataStart: first,
    headerIndex: headerIndex >= 0 ? headerIndex : first,
    mapping: null,
    usedSavedMapping: false,
    contentNotes: inferred.notes,
  };
}

function previousNonBlank(records: readonly CsvRecord[], before: number): number {
  for (let i = before - 1; i >= 0; i -= 1) if (!isBlankRecord(must(records[i], 'i >= 0'))) return i;
  return -1;
}

/** A mapping that reads a layout's columns, for the picker and for a one-click change of a column's role. */
export function mappingOfColumns(columns: readonly ColumnAssignment[], header: boolean): ColumnMapping | null {
  const at = (role: ColumnAssignment['role']) => columns.find((c) => c.role === role)?.index;
  const date = at('date');
  if (date === undefined) return null;
  const text = columns
    .filter((c) => c.role === 'description' || c.role === 'counterparty' || c.role === 'payee' || c.role === 'payer')
    .map((c) => c.index);
  const fallback = columns.filter((c) => c.role === 'description-fallback').map((c) => c.index);
  const amount = at('amount');
  const debit = at('debit');
  const credit = at('credit');
  if (amount === undefined && (debit === undefined || credit === undefined)) return null;
  const category = at('category');
  const indicator = at('indicator');
  const currency = at('currency');
  const originalAmount = at('original-amount');
  const originalCurrency = at('original-currency');
  return {
    header,
    date,
    description: text.length > 0 ? text : fallback,
    ...(amount !== undefined ? { amount } : { debit, credit }),
    ...(category !== undefined ? { category } : {}),
    ...(indicator !== undefined ? { indicator } : {}),
    ...(currency !== undefined ? { currency } : {}),
    ...(originalAmount !== undefined && originalCurrency !== undefined ? { originalAmount, originalCurrency } : {}),
  };
}
