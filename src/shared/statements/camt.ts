/**
 * CAMT.053 bank-to-customer statements (versions .001.02 to .001.08): one transaction per
 * Ntry, dated by BookgDt, Amt signed by CdtDbtInd (a reversal's CdtDbtInd already says which
 * way its booking went), described by the counterparty (Cdtr for money out, Dbtr for money
 * in, swapped for reversals; v08 nests it in Pty) then the Ustrd lines; AcctSvcrRef for duplicates.
 */
import { readAmount } from '../money/read-amount';
import { toIsoDate } from '../dates/calendar';
import { joinDescription } from '../csv/describe';
import { squashSpaces } from '../csv/finish';
import type { Steps } from '../csv/steps';
import { fail, type CsvReadFailure, type CsvRow } from '../csv/types';
import { lineCounter, MarkupError, readMarkup } from './markup';
import type { StatementRead } from './ofx';

interface TxDetails {
  debtor: string;
  creditor: string;
  ustrd: string[];
}

interface Entry {
  line: number;
  amount: string;
  currency: string;
  indicator: string;
  reversal: boolean;
  bookingDate: string;
  valueDate: string;
  info: string;
  reference: string;
  details: TxDetails[];
}

const endsWith = (path: readonly string[], ...tail: string[]) =>
  tail.every((name, i) => path[path.length - tail.length + i] === name);

export function* readCamtSteps(text: string): Steps<StatementRead | CsvReadFailure> {
  const start = text.indexOf('<');
  if (start < 0) return fail('BAD_STATEMENT', 'This CAMT file holds no XML.');
  const lineAt = lineCounter(text);
  const path: string[] = [];
  const rows: CsvRow[] = [];
  const accounts: string[] = [];
  let entry: Entry | null = null;
  let tx: TxDetails | null = null;
  // Set by the handler's callbacks, which control-flow narrowing cannot follow: a property, not a `let`.
  const found: { problem: CsvReadFailure | null } = { problem: null };
  const handler = {
    open(name: string, attributes: Record<string, string>, offset: number) {
      path.push(name);
      if (name === 'Ntry' && path.length >= 2 && path[path.length - 2] === 'Stmt') {
        entry = {
          line: lineAt(offset),
          amount: '',
          currency: '',
          indicator: '',
          reversal: false,
          bookingDate: '',
          valueDate: '',
          info: '',
          reference: '',
          details: [],
        };
      } else if (name === 'TxDtls' && entry) {
        tx = { debtor: '', creditor: '', ustrd: [] };
      } else if (name === 'Amt' && entry && path[path.length - 2] === 'Ntry') {
        entry.currency = (attributes.Ccy ?? '').toUpperCase();
      }
    },
    close(name: string, value: string) {
      const e = entry;
      const t = tx;
      if (e) {
        const parent = path[path.length - 2];
        if (name === 'Ntry' && parent === 'Stmt') {
          entry = null;
          if (!found.problem) {
            const row = toRow(e);
            if ('ok' in row) found.problem = row;
            else rows.push(row);
          }
        } else if (t && name === 'TxDtls') {
          e.details.push(t);
          tx = null;
        } else if (
          t &&
          name === 'Nm' &&
          (endsWith(path, 'RltdPties', 'Dbtr', 'Nm') || endsWith(path, 'RltdPties', 'Dbtr', 'Pty', 'Nm'))
        ) {
          t.debtor ||= value;
        } else if (
          t &&
          name === 'Nm' &&
          (endsWith(path, 'RltdPties', 'Cdtr', 'Nm') || endsWith(path, 'RltdPties', 'Cdtr', 'Pty', 'Nm'))
        ) {
          t.creditor ||= value;
        } else if (t && name === 'Ustrd' && parent === 'RmtInf') {
          if (value) t.ustrd.push(value);
        } else if (parent === 'Ntry') {
          if (name === 'Amt') e.amount = value;
          else if (name === 'CdtDbtInd') e.indicator = value.toUpperCase();
          else if (name === 'RvslInd') e.reversal = value.toLowerCase() === 'true';
          else if (name === 'AddtlNtryInf') e.info = value;
          else if (name === 'AcctSvcrRef') e.reference = value;
          else if (name === 'NtryRef' && !e.reference) e.reference = value;
        } else if (endsWith(path, 'BookgDt', 'Dt') || endsWith(path, 'BookgDt', 'DtTm')) {
          e.bookingDate ||= value;
        } else if (endsWith(path, 'ValDt', 'Dt') || endsWith(path, 'ValDt', 'DtTm')) {
          e.valueDate ||= value;
        }
      } else if (
        name === 'IBAN' &&
        endsWith(path, 'Stmt', 'Acct', 'Id', 'IBAN') &&
        value &&
        !accounts.includes(value)
      ) {
        accounts.push(value);
      }
      path.pop();
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
  if (accounts.length > 1)
    warnings.push(
      `This file holds statements of ${accounts.length} accounts (${accounts.join(', ')}); all their transactions go into the chosen account.`,
    );
  return { rows, warnings, dateColumn: 'BookgDt', dateFormat: 'YYYY-MM-DD' };
}

function describeEntry(e: Entry, moneyIn: boolean): string {
  const info = squashSpaces(e.info);
  if (e.details.length > 1) {
    if (info) return info;
    const texts = [...new Set(e.details.map((d) => squashSpaces(d.ustrd.join(' '))).filter(Boolean))];
    if (texts.length > 0) return texts.join(' / ');
    // A batch of payments with no text of its own: its parties say what it was.
    const fromDebtor = moneyIn !== e.reversal;
    const parties = [
      ...new Set(e.details.map((d) => squashSpaces(fromDebtor ? d.debtor : d.creditor)).filter(Boolean)),
    ];
    return parties.join(', ');
  }
  const d = e.details[0];
  if (!d) return info;
  // The other party: the debtor paid money in, the creditor received money out; a reversal swaps them.
  const fromDebtor = moneyIn !== e.reversal;
  const party = squashSpaces(fromDebtor ? d.debtor : d.creditor);
  const purpose = squashSpaces(d.ustrd.join(' '));
  if (!party && !purpose) return info;
  return joinDescription(party, purpose);
}

function toRow(e: Entry): CsvRow | CsvReadFailure {
  const rawDate = e.bookingDate || e.valueDate;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(rawDate);
  const postDate = m ? toIsoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
  if (!postDate)
    return fail('BAD_DATE', `Line ${e.line}: the booking date '${rawDate.slice(0, 40)}' cannot be read.`, {
      line: e.line,
      value: rawDate.slice(0, 40),
    });
  const parsed = readAmount(e.amount, 'csv');
  if (!parsed.ok)
    return fail('BAD_AMOUNT', `Line ${e.line}: the amount '${e.amount.slice(0, 40)}' cannot be read.`, {
      line: e.line,
      value: e.amount.slice(0, 40),
    });
  if (e.indicator !== 'CRDT' && e.indicator !== 'DBIT') {
    return fail('BAD_AMOUNT', `Line ${e.line}: the entry does not say whether it is a credit or a debit (CdtDbtInd).`, {
      line: e.line,
    });
  }
  const moneyIn = e.indicator === 'CRDT';
  const cents = Math.abs(parsed.cents);
  return {
    line: e.line,
    postDate,
    amount: cents === 0 ? 0 : moneyIn ? cents : -cents,
    description: describeEntry(e, moneyIn),
    category: null,
    currency: e.currency || null,
    fitid: e.reference.slice(0, 255) || null,
  };
}
