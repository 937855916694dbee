import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsv, type CsvReadSuccess } from '../../src/shared/csv';

/** Every real bank export of ../shared/fixtures/bank-csv reads exactly as its manifest says. */
const dir = path.resolve('../shared/fixtures/bank-csv');
const manifestFile = path.join(dir, 'MANIFEST.json');

interface Expected {
  line: number;
  date: string;
  amount_cents: number;
  description: string;
}
interface Entry {
  file: string;
  transaction_rows: number;
  date_format: string;
  amount: { style: string };
  note?: string;
  first: Expected;
  last: Expected;
  sum_amount_cents: number;
}

const entries: Entry[] = existsSync(manifestFile) ? JSON.parse(readFileSync(manifestFile, 'utf8')) : [];
if (entries.length === 0) console.warn(`bank CSV fixtures not found at ${dir}: manifest tests skipped`);
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * Options a person would pick: the date order only where the manifest calls it ambiguous; flip
 * only for charges-positive exports without any mark (a card export with CR marks on its
 * credits, such as John Lewis's, reads right with no option).
 */
export function manifestOptions(entry: Entry): { dateFormat?: string; flipAmounts?: boolean } {
  const ambiguous = /ambiguous/i.test(entry.note ?? '') || /ambiguous/i.test(entry.date_format);
  const format = entry.date_format.split(' ')[0].replace(/^M\/D\/YYYY$/, 'MM/DD/YYYY').replace(/^D\/M\/YYYY$/, 'DD/MM/YYYY');
  return {
    ...(ambiguous ? { dateFormat: format } : {}),
    ...(/^single_charges_positive$/.test(entry.amount.style) ? { flipAmounts: true } : {}),
  };
}

describe.skipIf(entries.length === 0)('bank CSV fixtures (MANIFEST.json)', () => {
  it.each(entries.map((e) => [e.file, e] as const))('%s', (file, entry) => {
    const result = readCsv(new Uint8Array(readFileSync(path.join(dir, file))), manifestOptions(entry));
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    const ok = result;
    expect(ok.rows.length).toBe(entry.transaction_rows);
    const first = ok.rows[0];
    const last = ok.rows[ok.rows.length - 1];
    expect([first.postDate, first.amount]).toEqual([entry.first.date, entry.first.amount_cents]);
    expect([last.postDate, last.amount]).toEqual([entry.last.date, entry.last.amount_cents]);
    expect(squash(first.description)).toContain(squash(entry.first.description));
    expect(squash(last.description)).toContain(squash(entry.last.description));
    expect(first.line).toBe(entry.first.line);
    expect(ok.rows.reduce((sum, row) => sum + row.amount, 0)).toBe(entry.sum_amount_cents);
  });
});
