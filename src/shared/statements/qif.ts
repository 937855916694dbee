/**
 * QIF (`!Type:Bank`, `!Type:CCard`, `!Type:Cash`, ...): records of `D T P M L N` lines ended
 * by `^`. Split lines (S, E, $) belong to their transaction, never rows of their own; lists
 * (`!Type:Cat`, `!Account` blocks, ...) are not transactions. Dates such as `1/5'24`,
 * `6/ 1/94` and `01/05/2024` are read with one format for the whole file, chosen as for CSV
 * (an ambiguous day/month order is settled by the account's last format or refused).
 */
import { readAmount } from '../money/read-amount';
import { chooseDateFormat, parseDateWith } from '../csv/dates';
import { joinDescription } from '../csv/describe';
import type { Steps } from '../csv/steps';
import { RECORDS_PER_STEP } from '../csv/tokenize';
import { fail, type CsvReadFailure, type CsvRow, type ReadOptions } from '../csv/types';
import type { StatementRead } from './ofx';
import { must } from '../must';

interface QifRecord {
  line: number;
  date: string;
  amount: string;
  payee: string;
  memo: string;
  category: string;
  /** Investment sections: the action (N) and the security (Y), which say what a row was when no payee does. */
  action: string;
  security: string;
}

/** Transaction sections; other `!Type:` sections (Cat, Class, Memorized, ...) are lists. */
const TRANSACTION_TYPES = /^(bank|ccard|cash|oth a|oth l|invst|invoice)$/i;

/** `6/ 1/94` -> `6/1/94`; `1/5'24` -> `1/5/2024` (Quicken writes years from 2000 after an apostrophe). */
export function normalizeQifDate(raw: string): string {
  const compact = raw.replace(/\s+/g, '');
  return compact.replace(/'(\d{1,2})$/, (_m, year: string) => `/${2000 + Number(year)}`);
}

/** Where the reader is: in a transaction section, an investment one, an `!Account` block. */
interface QifSection {
  inTransactions: boolean;
  investments: boolean;
  inAccountBlock: boolean;
}

/** A `!` line: the section it opens. */
function enterSection(section: QifSection, header: string): void {
  const type = /^!Type:(.*)$/i.exec(header);
  if (type) {
    const [, typeName = ''] = type;
    section.inTransactions = TRANSACTION_TYPES.test(typeName.trim());
    section.investments = /^invst$/i.test(typeName.trim());
    section.inAccountBlock = false;
  } else if (/^!Account/i.test(header)) section.inAccountBlock = true;
}

/** One field line of a transaction into its record. */
function addField(record: QifRecord, code: string | undefined, value: string, investments: boolean): void {
  switch (code) {
    case 'D':
      record.date ||= value;
      break;
    case 'T':
    case 'U':
      record.amount ||= value;
      break;
    case 'P':
      record.payee ||= value;
      break;
    case 'M':
      record.memo ||= value;
      break;
    case 'L':
      record.category ||= value;
      break;
    case 'N':
      if (investments) record.action ||= value;
      break;
    case 'Y':
      if (investments) record.security ||= value;
      break;
    default:
      // C (cleared), A (address), S/E/$ (splits of this transaction) and others; N is a cheque number outside investments.
      break;
  }
}

/** The transaction records of a QIF text, line by line. */
function* qifRecords(text: string): Steps<QifRecord[] | CsvReadFailure> {
  const records: QifRecord[] = [];
  const section: QifSection = { inTransactions: true, investments: false, inAccountBlock: false };
  let current: QifRecord | null = null;
  let start = 0;
  let lineNo = 0;
  while (start <= text.length) {
    let stop = text.indexOf('\n', start);
    if (stop < 0) stop = text.length;
    lineNo += 1;
    const line = text.slice(start, stop).replace(/\r$/, '');
    start = stop + 1;
    if (lineNo % RECORDS_PER_STEP === 0) yield;
    if (line.trim() === '') continue;
    if (line.startsWith('!')) {
      enterSection(section, line.trim());
      current = null;
      continue;
    }
    const code = line[0];
    const value = line.slice(1).trim();
    if (code === '^') {
      if (current && section.inTransactions && !section.inAccountBlock) records.push(current);
      section.inAccountBlock = false;
      current = null;
      continue;
    }
    if (!section.inTransactions || section.inAccountBlock) continue;
    current ??= { line: lineNo, date: '', amount: '', payee: '', memo: '', category: '', action: '', security: '' };
    addField(current, code, value, section.investments);
    if (value.length > 64 * 1024)
      return fail('LINE_TOO_LONG', `Line ${lineNo} is longer than 64 KB; a statement's lines are far shorter.`, {
        line: lineNo,
      });
  }
  if (current && section.inTransactions && current.date) records.push(current);
  return records;
}

export function* readQifSteps(text: string, options: ReadOptions): Steps<StatementRead | CsvReadFailure> {
  const records = yield* qifRecords(text);
  if (!Array.isArray(records)) return records;
  if (records.length === 0) return fail('NO_ROWS', 'No transactions were found in this QIF file.');

  const undated = records.find((r) => !r.date);
  if (undated)
    return fail('BAD_DATE', `Line ${undated.line}: the transaction has no date (D line).`, { line: undated.line });
  const choice = chooseDateFormat(
    records.map((r) => ({ line: r.line, value: normalizeQifDate(r.date) })),
    options,
  );
  if (!choice.ok) return fail(choice.code, choice.message, choice.details);
  const rows: CsvRow[] = [];
  for (let i = 0; i < records.length; i += 1) {
    if (i > 0 && i % RECORDS_PER_STEP === 0) yield;
    const r = must(records[i], 'i < records.length');
    const parsed = readAmount(r.amount, 'csv', { fractionDigits: options.fractionDigits });
    if (!parsed.ok)
      return fail('BAD_AMOUNT', `Line ${r.line}: the amount '${r.amount.slice(0, 40)}' cannot be read.`, {
        line: r.line,
        value: r.amount.slice(0, 40),
      });
    // A category in brackets is a transfer to another account, not a category.
    const category = r.category && !/^\[.*\]$/.test(r.category) ? r.category : null;
    rows.push({
      line: r.line,
      postDate: must(
        parseDateWith(choice.format, normalizeQifDate(r.date)) ?? undefined,
        'the date format was chosen to read every date',
      ),
      amount: parsed.cents === 0 ? 0 : parsed.cents,
      description: joinDescription(r.payee || [r.action, r.security].filter(Boolean).join(' '), r.memo),
      category,
    });
  }
  return {
    rows,
    warnings: choice.warning ? [choice.warning] : [],
    dateColumn: 'D',
    dateFormat: choice.format.name,
    candidates: choice.candidates,
  };
}
