import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The real bank files of ../shared/fixtures (bank-csv/ and bank-statements/) and what their
 * MANIFEST.json files say they hold, for the tests that read them (unit: the parsers; integration:
 * an import through the server on each database). Absent fixtures give empty lists: the tests
 * that use them skip, saying so.
 */
export const BANK_CSV_DIR = path.resolve('../shared/fixtures/bank-csv');
export const BANK_STATEMENTS_DIR = path.resolve('../shared/fixtures/bank-statements');
/** Layouts of banks the shared fixtures do not cover, written for this repository (tests/fixtures/bank-layouts). */
export const BANK_LAYOUTS_DIR = path.resolve('tests/fixtures/bank-layouts');

export interface ManifestRow {
  line: number;
  date: string;
  amount_cents: number;
  description: string;
}

export interface BankCsvEntry {
  file: string;
  transaction_rows: number;
  date_format: string;
  amount: { style: string };
  note?: string;
  first: ManifestRow;
  last: ManifestRow;
  sum_amount_cents: number;
  /** The account type the file is imported into (checking when absent). */
  account_type?: string;
}

export interface StatementEntry {
  file: string;
  format: string;
  transaction_rows: number;
  sum_amount_cents: number;
  date_format: string;
  note?: string;
  transactions: ManifestRow[];
}

function readManifest<T>(dir: string): T[] {
  const file = path.join(dir, 'MANIFEST.json');
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as T[]) : [];
}

export const bankCsvEntries = (): BankCsvEntry[] => readManifest<BankCsvEntry>(BANK_CSV_DIR);
export const bankLayoutEntries = (): BankCsvEntry[] => readManifest<BankCsvEntry>(BANK_LAYOUTS_DIR);
export const statementEntries = (): StatementEntry[] => readManifest<StatementEntry>(BANK_STATEMENTS_DIR);

/**
 * Options a person would pick for a bank CSV: the date order only where the manifest calls it
 * ambiguous; flip only for charges-positive exports without any mark (a card export with CR marks
 * on its credits, such as John Lewis's, reads right with no option).
 */
export function manifestOptions(entry: BankCsvEntry): { dateFormat?: string; flipAmounts?: boolean } {
  const ambiguous = /ambiguous/i.test(entry.note ?? '') || /ambiguous/i.test(entry.date_format);
  const format = entry.date_format
    .split(' ')[0]
    .replace(/^M\/D\/YYYY$/, 'MM/DD/YYYY')
    .replace(/^D\/M\/YYYY$/, 'DD/MM/YYYY');
  return {
    ...(ambiguous ? { dateFormat: format } : {}),
    ...(/^single_charges_positive$/.test(entry.amount.style) ? { flipAmounts: true } : {}),
  };
}

/** The date order a person would pick for a statement where the manifest calls the file ambiguous (Quicken's US order). */
export function statementOptions(entry: StatementEntry): { dateFormat?: string } {
  return /order is AMBIGUOUS/.test(entry.note ?? '') && entry.format === 'qif' ? { dateFormat: 'MM/DD/YY' } : {};
}
