import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readImport } from '../../src/shared/import/read-file';
import { BANK_STATEMENTS_DIR as dir, statementEntries, statementOptions } from '../helpers/fixture-manifests';

/**
 * Every real statement of ../shared/fixtures/bank-statements (OFX/QFX, QIF, CAMT.053) reads
 * exactly as its MANIFEST.json says: count, sum, and every transaction's line, date, amount
 * and description. Skipped, saying so, when the fixtures are absent.
 */
const entries = statementEntries();
if (entries.length === 0) console.warn(`statement fixtures not found at ${dir}: manifest tests skipped`);

/** The manifest joins parts with ' — ' in places and ' - ' in others; compare both as one. */
const comparable = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/ — /g, ' - ');

describe.skipIf(entries.length === 0)('bank statement fixtures (MANIFEST.json)', () => {
  it.each(entries.map((e) => [e.file, e] as const))('%s', (file, entry) => {
    const result = readImport(new Uint8Array(readFileSync(path.join(dir, file))), statementOptions(entry));
    if (!result.ok) throw new Error(`${result.code}: ${result.message}`);
    expect(result.format).toBe(entry.format === 'qfx' ? 'ofx' : entry.format);
    expect(result.rows.length).toBe(entry.transaction_rows);
    expect(result.rows.reduce((sum, r) => sum + r.amount, 0)).toBe(entry.sum_amount_cents);
    expect(result.rows.map((r) => [r.line, r.postDate, r.amount, comparable(r.description)])).toEqual(
      entry.transactions.map((t) => [t.line, t.date, t.amount_cents, comparable(t.description)]),
    );
  });
});
