/**
 * Column mappings: for headerless files and columns the engine cannot name, a person says
 * which column holds what; the mapping is saved as the account's import profile and used
 * again for files of the same shape.
 */
import { parseAmountCell } from './amounts';
import { normalizeHeader, type ColumnAssignment, type ColumnRole } from './columns';
import { looksLikeDate } from './dates';
import { visibleText } from './finish';
import { isBlankRecord, type CsvRecord } from './tokenize';
import type { ColumnMapping, SavedMapping } from './types';

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
    if (isBlankRecord(records[i])) continue;
    out.push(records[i].cells.map((c) => visibleText(c.trim(), SAMPLE_CELL_CHARS)));
  }
  return out;
}

function usedColumns(mapping: ColumnMapping): { role: ColumnRole; index: number }[] {
  const out: { role: ColumnRole; index: number }[] = [{ role: 'date', index: mapping.date }];
  if (mapping.amount !== undefined) out.push({ role: 'amount', index: mapping.amount });
  if (mapping.debit !== undefined) out.push({ role: 'debit', index: mapping.debit });
  if (mapping.credit !== undefined) out.push({ role: 'credit', index: mapping.credit });
  if (mapping.category !== undefined) out.push({ role: 'category', index: mapping.category });
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
  if (outside) return `mapping: column ${outside.index} (${outside.role}) does not exist; the file has ${width} column${width === 1 ? '' : 's'} (0 to ${width - 1})`;
  const seen = new Map<number, ColumnRole>();
  for (const u of used) {
    const before = seen.get(u.index);
    if (before) return `mapping: column ${u.index} cannot be both ${before} and ${u.role}`;
    seen.set(u.index, u.role);
  }
  return null;
}

export function layoutFromMapping(records: readonly CsvRecord[], start: number, mapping: ColumnMapping, saved: boolean): Layout {
  const width = records[start]?.cells.length ?? 0;
  const headerCells = mapping.header ? records[start].cells.map((c) => c.trim()) : [];
  const headers = mapping.header ? headerCells : Array.from({ length: width }, () => '');
  const columns = usedColumns(mapping)
    .map(({ role, index }) => ({ index, role, header: headers[index] ?? '' }))
    .sort((a, b) => a.index - b.index);
  return {
    headerLine: mapping.header ? records[start].line : 0,
    headers,
    columns,
    dataStart: mapping.header ? start + 1 : start,
    headerIndex: start,
    mapping: { mapping, columnCount: width, headers: headerCells },
    usedSavedMapping: saved,
  };
}

/** A saved mapping is used for a file of the same shape: as many columns, and the same header if it had one. */
export function savedMappingFits(saved: SavedMapping, records: readonly CsvRecord[], start: number): boolean {
  const first = records[start];
  if (!first || first.cells.length !== saved.columnCount) return false;
  if (!saved.mapping.header) return true;
  return first.cells.length === saved.headers.length && first.cells.every((c, i) => normalizeHeader(c) === normalizeHeader(saved.headers[i]));
}

/** A first guess for the picker: the date-shaped column, the amount-shaped column, the widest text column. */
export function suggestMapping(records: readonly CsvRecord[], start: number): ColumnMapping | null {
  const rows = sampleRows(records, start);
  if (rows.length === 0) return null;
  const header = !rows[0].some((c) => looksLikeDate(c));
  const data = header ? rows.slice(1) : rows;
  if (data.length === 0) return null;
  const width = Math.max(...data.map((r) => r.length));
  const share = (i: number, test: (v: string) => boolean) => {
    const filled = data.map((r) => r[i] ?? '').filter(Boolean);
    return filled.length === 0 ? 0 : filled.filter(test).length / filled.length;
  };
  const indexes = Array.from({ length: width }, (_, i) => i);
  const date = indexes.find((i) => share(i, looksLikeDate) >= 0.8);
  if (date === undefined) return null;
  const isAmount = (v: string) => /\d/.test(v) && /[.,]\d{1,2}\b|^[-+(]|[-)]$/.test(v) && (parseAmountCell(v) as { ok: boolean }).ok;
  const amount = indexes.find((i) => i !== date && share(i, isAmount) >= 0.8);
  if (amount === undefined) return null;
  const textLength = (i: number) => data.reduce((sum, r) => sum + (/[A-Za-z]/.test(r[i] ?? '') ? (r[i] ?? '').length : 0), 0);
  const description = indexes.filter((i) => i !== date && i !== amount && textLength(i) > 0).sort((a, b) => textLength(b) - textLength(a)).slice(0, 1);
  return { header, date, amount, description };
}
