/**
 * OFX 1.x (SGML), OFX 2.x (XML) and QFX statements: one transaction per STMTTRN, dated by
 * the first 8 digits of DTPOSTED as printed (never shifted by its time zone), signed as
 * TRNAMT says (never by TRNTYPE), described by NAME then MEMO, with FITID for duplicates.
 * Every statement of a file (several accounts) goes into the chosen account, with a warning.
 */
import { readAmount } from '../money/read-amount';
import { toIsoDate } from '../dates/calendar';
import { joinDescription } from '../csv/describe';
import type { Steps } from '../csv/steps';
import { fail, type CsvReadFailure, type CsvRow } from '../csv/types';
import { lineCounter, MarkupError, readMarkup } from './markup';

export interface StatementRead {
  rows: CsvRow[];
  warnings: string[];
  /** What dates were read from, for the preview. */
  dateColumn: string;
  dateFormat: string;
  /** Date formats that read every date (QIF), for the preview's choice. */
  candidates?: string[];
}

interface Pending {
  line: number;
  fields: Map<string, string>;
}

/** YYYYMMDD… -> YYYY-MM-DD, or null. */
export function ofxDate(raw: string): string | null {
  const m = /^\s*(\d{4})(\d{2})(\d{2})/.exec(raw);
  return m ? toIsoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

export function* readOfxSteps(text: string): Steps<StatementRead | CsvReadFailure> {
  const start = text.search(/<OFX[\s>]/i);
  if (start < 0) return fail('BAD_STATEMENT', 'This OFX file has no <OFX> element.');
  const lineAt = lineCounter(text);
  const rows: CsvRow[] = [];
  const accounts: string[] = [];
  let currency: string | null = null;
  let current: Pending | null = null;
  let inAccount = false;
  // Set by the handler's callbacks, which control-flow narrowing cannot follow: a property, not a `let`.
  const found: { problem: CsvReadFailure | null } = { problem: null };
  const handler = {
    open(raw: string, _attributes: Record<string, string>, offset: number) {
      const name = raw.toUpperCase();
      if (name === 'STMTTRN') current = { line: lineAt(offset), fields: new Map() };
      else if (name === 'STMTRS' || name === 'CCSTMTRS') currency = null;
      else if (name === 'BANKACCTFROM' || name === 'CCACCTFROM') inAccount = true;
    },
    close(raw: string, value: string) {
      const name = raw.toUpperCase();
      const pending = current;
      if (name === 'STMTTRN' && pending) {
        current = null;
        if (found.problem) return;
        const row = toRow(pending, currency);
        if ('ok' in row) found.problem = row;
        else rows.push(row);
        return;
      }
      if (pending) {
        if (value && !pending.fields.has(name)) pending.fields.set(name, value);
        return;
      }
      if (name === 'CURDEF' && value) currency = value.toUpperCase();
      else if (name === 'ACCTID' && inAccount && value && !accounts.includes(value)) accounts.push(value);
      else if (name === 'BANKACCTFROM' || name === 'CCACCTFROM') inAccount = false;
    },
  };
  try {
    yield* readMarkup(text, start, handler);
  } catch (error) {
    if (error instanceof MarkupError) return fail('BAD_STATEMENT', error.message);
    throw error;
  }
  if (found.problem) return found.problem;
  const warnings: string[] = [];
  if (accounts.length > 1) {
    warnings.push(
      `This file holds statements of ${accounts.length} accounts (${accounts.join(', ')}); all their transactions go into the chosen account.`,
    );
  }
  return { rows, warnings, dateColumn: 'DTPOSTED', dateFormat: 'YYYYMMDD' };
}

function toRow(pending: Pending, currency: string | null): CsvRow | CsvReadFailure {
  const field = (name: string) => pending.fields.get(name) ?? '';
  const rawDate = field('DTPOSTED') || field('DTUSER');
  const postDate = ofxDate(rawDate);
  if (!postDate)
    return fail('BAD_DATE', `Line ${pending.line}: the date '${rawDate.slice(0, 40)}' cannot be read.`, {
      line: pending.line,
      value: rawDate.slice(0, 40),
    });
  const rawAmount = field('TRNAMT');
  const parsed = readAmount(rawAmount.trim(), 'csv');
  if (!parsed.ok) {
    return fail('BAD_AMOUNT', `Line ${pending.line}: the amount '${rawAmount.slice(0, 40)}' cannot be read.`, {
      line: pending.line,
      value: rawAmount.slice(0, 40),
    });
  }
  const rowCurrency = currency;
  return {
    line: pending.line,
    postDate,
    amount: parsed.cents === 0 ? 0 : parsed.cents,
    description: joinDescription(field('NAME'), field('MEMO')),
    category: null,
    currency: rowCurrency ? rowCurrency.toUpperCase() : null,
    fitid: field('FITID').slice(0, 255) || null,
  };
}
