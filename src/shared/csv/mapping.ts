/**
 * Column mappings: for headerless files and columns the engine cannot name, a person says
 * which column holds what; the mapping is saved as the account's import profile and used
 * again for files of the same shape.
 */
import { readAmount } from '../money/read-amount';
import { assignColumns, normalizeHeader, type ColumnAssignment, type ColumnRole } from './columns';
import { inferRoles } from './content';
import { mappingOfColumns } from './content-layout';
import { dateFormatCandidates, findDateFormat, looksLikeDate, parseDateWith } from './dates';
import { visibleText } from './finish';
import { isBlankRecord, type CsvRecord } from './tokenize';
import type { ColumnMapping, SavedMapping } from './types';
import { must } from '../must';

export interface Layout {
  /** 1-based line of the header, 0 when the table has none. */
  headerLine: number;
  headers: string[];
  columns: ColumnAssignment[];
  /** Index in `records` of the first record after the header. */
  dataStart: number;
  /** Index of the header record (or of the first data record without one). */
  headerIndex: number;
  mapping: SavedMapping | null;
  usedSavedMapping: boolean;
  /** Worth saying in the preview: why the account's saved mapping was not used. */
  note?: string;
  /** Worth saying in the preview: which roles the columns' content told. */
  contentNotes?: string[];
}

/** Rows shown to a person choosing a mapping, and their widest cell. */
export const SAMPLE_ROWS = 20;
const SAMPLE_CELL_CHARS = 100;

/**
 * Where the table starts: the first record with the most common number of cells (so a
 * preamble of shorter lines is not taken for the table).
 */
export function tableStart(records: readonly CsvRecord[]): number {
  const counts = new Map<number, number>();
  let seen = 0;
  for (const r of records) {
    if (isBlankRecord(r)) continue;
    if (++seen > 200) break;
    counts.set(r.cells.length, (counts.get(r.cells.length) ?? 0) + 1);
  }
  let modal = 0;
  let best = 0;
  for (const [cells, times] of counts) {
    if (times > best || (times === best && cells > modal)) {
      modal = cells;
      best = times;
    }
  }
  const index = records.findIndex((r) => !isBlankRecord(r) && r.cells.length === modal);
  return index < 0 ? 0 : index;
}

/** The first rows of the table as text, for the mapping picker. */
export function sampleRows(records: readonly CsvRecord[], start: number): string[][] {
  const out: string[][] = [];
  for (let i = start; i < records.length && out.length < SAMPLE_ROWS; i += 1) {
    const record = must(records[i], 'i < records.length');
    if (isBlankRecord(record)) continue;
    out.push(record.cells.map((c) => visibleText(c.trim(), SAMPLE_CELL_CHARS)));
  }
  return out;
}

function usedColumns(mapping: ColumnMapping): { role: ColumnRole; index: number }[] {
  const out: { role: ColumnRole; index: number }[] = [{ role: 'date', index: mapping.date }];
  if (mapping.amount !== undefined) out.push({ role: 'amount', index: mapping.amount });
  if (mapping.debit !== undefined) out.push({ role: 'debit', index: mapping.debit });
  if (mapping.credit !== undefined) out.push({ role: 'credit', index: mapping.credit });
  if (mapping.category !== undefined) out.push({ role: 'category', index: mapping.category });
  if (mapping.indicator !== undefined) out.push({ role: 'indicator', index: mapping.indicator });
  if (mapping.currency !== undefined) out.push({ role: 'currency', index: mapping.currency });
  if (mapping.originalAmount !== undefined) out.push({ role: 'original-amount', index: mapping.originalAmount });
  if (mapping.originalCurrency !== undefined) out.push({ role: 'original-currency', index: mapping.originalCurrency });
  for (const index of mapping.description) out.push({ role: 'description', index });
  return out;
}

/** What is wrong with a mapping for this file, in words; null when it fits. */
export function mappingProblem(mapping: ColumnMapping, records: readonly CsvRecord[], start: number): string | null {
  const width = records[start]?.cells.length ?? 0;
  if (mapping.amount === undefined && mapping.debit === undefined && mapping.credit === undefined) {
    return 'mapping: choose an amount column (or debit and credit columns)';
  }
  if (mapping.amount !== undefined && (mapping.debit !== undefined || mapping.credit !== undefined)) {
    return 'mapping: choose either an amount column or debit and credit columns, not both';
  }
  const used = usedColumns(mapping);
  const outside = used.find((u) => u.index >= width);
  if (outside)
    return `mapping: column ${outside.index} (${outside.role}) does not exist; the file has ${width} column${width === 1 ? '' : 's'} (0 to ${width - 1})`;
  const seen = new Map<number, ColumnRole>();
  for (const u of used) {
    const before = seen.get(u.index);
    if (before) return `mapping: column ${u.index} cannot be both ${before} and ${u.role}`;
    seen.set(u.index, u.role);
  }
  return null;
}

export function layoutFromMapping(
  records: readonly CsvRecord[],
  start: number,
  mapping: ColumnMapping,
  saved: boolean,
): Layout {
  const startRecord = records[start];
  const width = startRecord?.cells.length ?? 0;
  const headerCells = mapping.header ? (startRecord?.cells.map((c) => c.trim()) ?? []) : [];
  const headers = mapping.header ? headerCells : Array.from({ length: width }, () => '');
  const columns = usedColumns(mapping)
    .map(({ role, index }) => ({ index, role, header: headers[index] ?? '' }))
    .sort((a, b) => a.index - b.index);
  return {
    headerLine: mapping.header ? (startRecord?.line ?? 0) : 0,
    headers,
    columns,
    dataStart: mapping.header ? start + 1 : start,
    headerIndex: start,
    mapping: { mapping, columnCount: width, headers: headerCells },
    usedSavedMapping: saved,
  };
}

/** Records looked at for a saved header, and rows checked against a saved mapping. */
const SAVED_HEADER_SEARCH = 60;
const FIT_ROWS = SAMPLE_ROWS;

/** Index of the record that is the saved mapping's header (any letter case or spacing), or -1. */
export function savedHeaderIndex(saved: SavedMapping, records: readonly CsvRecord[]): number {
  const wanted = saved.headers.map(normalizeHeader);
  const limit = Math.min(records.length, SAVED_HEADER_SEARCH);
  for (let i = 0; i < limit; i += 1) {
    const cells = must(records[i], 'i < records.length').cells;
    if (cells.length === wanted.length && cells.every((c, j) => normalizeHeader(c) === wanted[j])) return i;
  }
  return -1;
}

/** A cell written the way amounts are: digits with decimals, a sign or brackets. */
function amountShaped(value: string): boolean {
  return /\d/.test(value) && /[.,]\d{1,2}\b|^[-+(]|[-)]$/.test(value) && readAmount(value, 'csv').ok;
}

const quoted = (value: string) => `'${visibleText(value, 40)}'`;

/**
 * Why the rows from `start` do not read under a saved mapping, in words naming the column as a
 * person counts it (from 1), or null when they do: most rows' date cells are dates (in the saved
 * date format, when it has one), every dated row's amount cells are amounts, and no description
 * column holds only amounts. A file of another layout with as many columns is never misread.
 */
export function mappingMisfit(mapping: ColumnMapping, records: readonly CsvRecord[], start: number): string | null {
  const rows: string[][] = [];
  for (let i = start; i < records.length && rows.length < FIT_ROWS; i += 1) {
    const record = must(records[i], 'i < records.length');
    if (!isBlankRecord(record)) rows.push(record.cells.map((c) => c.trim()));
  }
  if (rows.length === 0) return 'the file has no rows under it';
  const format = mapping.dateFormat ? findDateFormat(mapping.dateFormat) : undefined;
  const isDate = (v: string) => (format ? parseDateWith(format, v) !== null : looksLikeDate(v));
  const dated = rows.filter((r) => isDate(r[mapping.date] ?? ''));
  if (dated.length === 0 || dated.length * 2 < rows.length) {
    const culprit = must(
      rows.find((r) => !isDate(r[mapping.date] ?? '')),
      'fewer than half the rows are dated, so one is not',
    );
    return `column ${mapping.date + 1} holds ${quoted(culprit[mapping.date] ?? '')}, not a date${format ? ` in ${format.name}` : ''}`;
  }
  for (const index of [mapping.amount, mapping.debit, mapping.credit]) {
    if (index === undefined) continue;
    const bad = dated.find((r) => {
      const reading = readAmount(r[index] ?? '', 'csv');
      return !reading.ok && reading.code !== 'EMPTY';
    });
    if (bad) return `column ${index + 1} holds ${quoted(bad[index] ?? '')}, not an amount`;
  }
  for (const index of mapping.description) {
    const filled = dated.map((r) => r[index] ?? '').filter(Boolean);
    const [first] = filled;
    if (first !== undefined && filled.every((v) => amountShaped(v) || looksLikeDate(v)))
      return `column ${index + 1} holds ${quoted(first)}, not a description`;
  }
  return null;
}

/**
 * The first record, from the table's start, whose date cell (under `mapping`) is a date: lines of
 * the table's width before it (a title, an unnamed header) are not transactions.
 */
export function firstDatedRecord(
  mapping: ColumnMapping,
  records: readonly CsvRecord[],
  start: number,
  lookahead: number,
): number {
  let looked = 0;
  for (let i = start; i < records.length && looked < lookahead; i += 1) {
    const record = must(records[i], 'i < records.length');
    if (isBlankRecord(record)) continue;
    looked += 1;
    if (looksLikeDate(record.cells[mapping.date] ?? '')) return i;
  }
  return start;
}

/**
 * A first guess for the picker: the roles the content tells (a debit and credit pair apart from a
 * signed amount), else the date-shaped column, the first amount-shaped column and the widest text column.
 */
export function suggestMapping(records: readonly CsvRecord[], start: number): ColumnMapping | null {
  const rows = sampleRows(records, start);
  const [firstRow] = rows;
  if (firstRow === undefined) return null;
  const header = !firstRow.some((c) => looksLikeDate(c));
  const data = header ? rows.slice(1) : rows;
  if (data.length === 0) return null;
  const headers = header ? firstRow : [];
  const inferred = mappingOfColumns(inferRoles(data, headers, assignColumns(headers)).columns, header);
  if (inferred) return inferred;
  const width = Math.max(...data.map((r) => r.length));
  const share = (i: number, test: (v: string) => boolean) => {
    const filled = data.map((r) => r[i] ?? '').filter(Boolean);
    return filled.length === 0 ? 0 : filled.filter(test).length / filled.length;
  };
  const indexes = Array.from({ length: width }, (_, i) => i);
  const date = indexes.find((i) => share(i, looksLikeDate) >= 0.8);
  if (date === undefined) return null;
  const amount = indexes.find((i) => i !== date && share(i, amountShaped) >= 0.8);
  if (amount === undefined) return null;
  const textLength = (i: number) =>
    data.reduce((sum, r) => sum + (/[A-Za-z]/.test(r[i] ?? '') ? (r[i] ?? '').length : 0), 0);
  const description = indexes
    .filter((i) => i !== date && i !== amount && textLength(i) > 0)
    .sort((a, b) => textLength(b) - textLength(a))
    .slice(0, 1);
  return { header, date, amount, description };
}

/**
 * The date formats a person can choose for a mapping's date column: those that read every
 * filled date cell of the sample's data rows, in the engine's order; [] when the column holds
 * no date any format reads.
 */
export function mappingDateFormats(
  sample: readonly (readonly string[])[],
  dateColumn: number,
  header: boolean,
): string[] {
  const cells = (header ? sample.slice(1) : sample).map((row) => (row[dateColumn] ?? '').trim()).filter(Boolean);
  if (cells.length === 0) return [];
  return dateFormatCandidates(cells).map((format) => format.name);
}
