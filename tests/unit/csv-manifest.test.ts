import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readCsv } from '../../src/shared/csv';
import {
  BANK_CSV_DIR as dir,
  BANK_LAYOUTS_DIR,
  bankCsvEntries,
  bankLayoutEntries,
  manifestOptions,
  type BankCsvEntry,
} from '../helpers/fixture-manifests';

/** Every real bank export of ../shared/fixtures/bank-csv reads exactly as its manifest says. */
const entries = bankCsvEntries();
if (entries.length === 0) console.warn(`bank CSV fixtures not found at ${dir}: manifest tests skipped`);
const squash = (text: string) => text.replace(/\s+/g, ' ').trim();

function expectManifestRows(folder: string, entry: BankCsvEntry) {
  {
    const result = readCsv(new Uint8Array(readFileSync(path.join(folder, entry.file))), manifestOptions(entry));
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
    expect(ok.rows.every((row) => row.description !== '')).toBe(true);
  }
}

describe.skipIf(entries.length === 0)('bank CSV fixtures (MANIFEST.json)', () => {
  it.each(entries.map((e) => [e.file, e] as const))('%s', (_file, entry) => expectManifestRows(dir, entry));
});

describe('bank layouts outside the shared fixtures, read by header words and content (tests/fixtures/bank-layouts)', () => {
  it.each(bankLayoutEntries().map((e) => [e.file, e] as const))('%s', (_file, entry) =>
    expectManifestRows(BANK_LAYOUTS_DIR, entry),
  );
});
