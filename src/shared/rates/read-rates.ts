/**
 * Exchange-rate files to rows `(date, base, quote, rate)`: the European Central Bank's reference
 * rates (`eurofxref-hist.csv` / `eurofxref.csv`, or their XML), whose base is EUR, and a plain CSV
 * with the header `date,base,quote,rate`. Rates stay decimal text, exactly as the file wrote them.
 * Read stepwise (csv/steps.ts): the ECB's whole history is some 200,000 rates.
 */
import { runSteps, type Steps } from '../csv/steps';
import { isIsoDate } from '../dates/calendar';
import { isCurrencyCode } from '../money/currencies';
import { decimalText, parseDecimal } from '../money/decimal';

export interface RateRow {
  date: string;
  base: string;
  quote: string;
  /** Units of `quote` for one unit of `base`, as exact decimal text ("1.0856"). */
  rate: string;
}

export type RatesRead =
  | { ok: true; format: 'ecb-csv' | 'ecb-xml' | 'csv'; rows: RateRow[]; skipped: number; ignoredCurrencies: string[] }
  | { ok: false; message: string };

/** The most rows one file may hold (the ECB's history since 1999 holds about 200,000). */
export const MAX_RATE_ROWS = 1_000_000;

function rate(text: string): string | null {
  const value = parseDecimal(text);
  return value && value.units > 0n ? decimalText(value) : null;
}

/** Rates read between two steps. */
const RATES_PER_STEP = 5_000;

export function readRates(text: string): RatesRead {
  return runSteps(readRatesSteps(text));
}

export function* readRatesSteps(text: string): Steps<RatesRead> {
  const body = text.replace(/^\uFEFF/, '').trim();
  if (body === '') return { ok: false, message: 'The file is empty.' };
  if (body.startsWith('<')) return yield* readEcbXml(body);
  const lines = body.split(/\r?\n/);
  const header = (lines[0] ?? '').split(',').map((cell) => cell.trim().toLowerCase());
  if (header.join(',') === 'date,base,quote,rate') return yield* readPlainCsv(lines);
  if (header[0] === 'date' && header.length > 1) return yield* readEcbCsv(lines);
  return {
    ok: false,
    message:
      "This is not a rates file: expected the ECB's eurofxref CSV or XML, or a CSV with the header date,base,quote,rate.",
  };
}

function result(
  format: 'ecb-csv' | 'ecb-xml' | 'csv',
  rows: RateRow[],
  skipped: number,
  ignored: Set<string>,
): RatesRead {
  if (rows.length === 0) return { ok: false, message: 'No exchange rates were found in this file.' };
  if (rows.length > MAX_RATE_ROWS)
    return { ok: false, message: `This file holds more than ${MAX_RATE_ROWS} rates; split it.` };
  return { ok: true, format, rows, skipped, ignoredCurrencies: [...ignored].sort() };
}

/** The ECB's CSV: `Date,USD,JPY,...` then one line per day; `N/A` or empty where a currency had no rate. */
function* readEcbCsv(lines: readonly string[]): Steps<RatesRead> {
  const codes = (lines[0] ?? '').split(',').map((cell) => cell.trim().toUpperCase());
  const ignored = new Set<string>();
  for (const code of codes.slice(1)) if (code !== '' && !isCurrencyCode(code)) ignored.add(code);
  const rows: RateRow[] = [];
  let skipped = 0;
  const linesPerStep = Math.max(1, Math.floor(RATES_PER_STEP / codes.length));
  for (let i = 1; i < lines.length; i += 1) {
    if (i % linesPerStep === 0) yield;
    const cells = (lines[i] ?? '').split(',');
    const date = (cells[0] ?? '').trim();
    if (date === '') continue;
    if (!isIsoDate(date))
      return { ok: false, message: `Line ${i + 1}: the date '${date.slice(0, 20)}' is not YYYY-MM-DD.` };
    for (let c = 1; c < cells.length; c += 1) {
      const code = codes[c] ?? '';
      const cell = (cells[c] ?? '').trim();
      if (!isCurrencyCode(code) || code === 'EUR' || cell === '' || cell === 'N/A') continue;
      const value = rate(cell);
      if (value === null) skipped += 1;
      else rows.push({ date, base: 'EUR', quote: code, rate: value });
    }
  }
  return result('ecb-csv', rows, skipped, ignored);
}

const CUBE = /<Cube\s+(time|currency)="([^"]{0,40})"(?:\s+rate="([^"]{0,40})")?/g;

/** The ECB's XML: `<Cube time="2024-01-05"><Cube currency="USD" rate="1.0921"/>...</Cube>`. */
function* readEcbXml(text: string): Steps<RatesRead> {
  const rows: RateRow[] = [];
  const ignored = new Set<string>();
  let skipped = 0;
  let date: string | null = null;
  let read = 0;
  for (const match of text.matchAll(CUBE)) {
    if (++read % RATES_PER_STEP === 0) yield;
    const [, kind, value = '', rateText = ''] = match;
    if (kind === 'time') {
      if (!isIsoDate(value)) return { ok: false, message: `The date '${value}' is not YYYY-MM-DD.` };
      date = value;
      continue;
    }
    const code = value.toUpperCase();
    if (date === null) continue;
    if (!isCurrencyCode(code)) {
      ignored.add(code);
      continue;
    }
    const parsed = rate(rateText);
    if (parsed === null) skipped += 1;
    else rows.push({ date, base: 'EUR', quote: code, rate: parsed });
  }
  if (rows.length === 0 && !text.includes('Cube'))
    return { ok: false, message: "This XML file is not the ECB's reference rates (no <Cube> elements)." };
  return result('ecb-xml', rows, skipped, ignored);
}

/** `date,base,quote,rate`, one rate per line; a line that cannot be read is refused with its number. */
function* readPlainCsv(lines: readonly string[]): Steps<RatesRead> {
  const rows: RateRow[] = [];
  for (let i = 1; i < lines.length; i += 1) {
    if (i % RATES_PER_STEP === 0) yield;
    const line = (lines[i] ?? '').trim();
    if (line === '') continue;
    const [date = '', base = '', quote = '', rateText = '', ...rest] = line.split(',').map((cell) => cell.trim());
    const problem = rowProblem(date, base.toUpperCase(), quote.toUpperCase(), rateText);
    if (problem || rest.length > 0)
      return { ok: false, message: `Line ${i + 1}: ${problem ?? 'expected four cells: date,base,quote,rate'}.` };
    rows.push({ date, base: base.toUpperCase(), quote: quote.toUpperCase(), rate: rate(rateText) ?? '' });
  }
  return result('csv', rows, 0, new Set());
}

/** What is wrong with one rate, in words; null when it is a rate. */
export function rowProblem(date: string, base: string, quote: string, rateText: string): string | null {
  if (!isIsoDate(date)) return `the date '${date.slice(0, 20)}' is not YYYY-MM-DD`;
  if (!isCurrencyCode(base)) return `'${base.slice(0, 10)}' is not an ISO 4217 currency code`;
  if (!isCurrencyCode(quote)) return `'${quote.slice(0, 10)}' is not an ISO 4217 currency code`;
  if (base === quote) return 'base and quote are the same currency';
  if (rate(rateText) === null) return `the rate '${rateText.slice(0, 20)}' is not a positive decimal number`;
  return null;
}
