/**
 * CAMT.053 bank-to-customer statements (versions .001.02 to .001.08): one transaction per
 * Ntry, dated by BookgDt, Amt signed by CdtDbtInd (a reversal's CdtDbtInd already says which
 * way its booking went), described by the counterparty (Cdtr for money out, Dbtr for money
 * in, swapped for reversals; v08 nests it in Pty) then the Ustrd lines; AcctSvcrRef for duplicates.
 */
import { readAmount } from '../money/read-amount';
import { originalFromRate, readOriginal, type OriginalAmount } from '../import/original-amount';
import { toIsoDate } from '../dates/calendar';
import { joinDescription } from '../csv/describe';
import { squashSpaces } from '../csv/finish';
import type { Steps } from '../csv/steps';
import { must } from '../must';
import { fail, type CsvReadFailure, type CsvRow } from '../csv/types';
import { lineCounter, MarkupError, readMarkup } from './markup';
import { severalAccountsWarning, StatementList, type StatementRead } from './ofx';

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
  /** InstdAmt: what was paid in the shop's currency, and that currency. */
  originalAmount: string;
  originalCurrency: string;
  /** CcyXchg: the rate the booked amount came from its source currency at. */
  sourceCurrency: string;
  targetCurrency: string;
  exchangeRate: string;
}

const endsWith = (path: readonly string[], ...tail: string[]) =>
  tail.every((name, i) => path[path.length - tail.length + i] === name);

interface CamtState {
  path: string[];
  rows: CsvRow[];
  statements: StatementList;
  /** The statement being read: its account (IBAN, else another id) once the file names it. */
  statement: number;
  /** The first row of the statement being read. */
  firstRow: number;
  entry: Entry | null;
  tx: TxDetails | null;
  problem: CsvReadFailure | null;
  /** Decimals of the account's currency, which Amt is read in. */
  fractionDigits: number;
}

function newEntry(line: number): Entry {
  return {
    line,
    amount: '',
    currency: '',
    indicator: '',
    reversal: false,
    bookingDate: '',
    valueDate: '',
    info: '',
    reference: '',
    details: [],
    originalAmount: '',
    originalCurrency: '',
    sourceCurrency: '',
    targetCurrency: '',
    exchangeRate: '',
  };
}

function openElement(state: CamtState, name: string, attributes: Record<string, string>, line: () => number): void {
  const { path } = state;
  path.push(name);
  const parent = path[path.length - 2];
  if (name === 'Stmt') {
    state.statement = state.statements.indexOf('');
    state.firstRow = state.rows.length;
  } else if (name === 'Ntry' && parent === 'Stmt') state.entry = newEntry(line());
  else if (name === 'TxDtls' && state.entry) state.tx = { debtor: '', creditor: '', ustrd: [] };
  else if (name === 'Amt' && state.entry && parent === 'Ntry')
    state.entry.currency = (attributes.Ccy ?? '').toUpperCase();
  else if (name === 'Amt' && state.entry && parent === 'InstdAmt' && !state.entry.originalCurrency)
    state.entry.originalCurrency = (attributes.Ccy ?? '').toUpperCase();
}

/** A party's name (v08 nests it in Pty) or a remittance line of the transaction details being read. */
function closeDetail(state: CamtState, t: TxDetails, name: string, value: string): boolean {
  const { path } = state;
  const party = (role: string) =>
    endsWith(path, 'RltdPties', role, 'Nm') || endsWith(path, 'RltdPties', role, 'Pty', 'Nm');
  if (name === 'Nm' && party('Dbtr')) t.debtor ||= value;
  else if (name === 'Nm' && party('Cdtr')) t.creditor ||= value;
  else if (name === 'Ustrd' && path[path.length - 2] === 'RmtInf') {
    if (value) t.ustrd.push(value);
  } else return false;
  return true;
}

/** A field of the entry being read. */
function closeEntryField(state: CamtState, e: Entry, name: string, value: string): void {
  const { path } = state;
  if (path[path.length - 2] === 'Ntry') {
    if (name === 'Amt') e.amount = value;
    else if (name === 'CdtDbtInd') e.indicator = value.toUpperCase();
    else if (name === 'RvslInd') e.reversal = value.toLowerCase() === 'true';
    else if (name === 'AddtlNtryInf') e.info = value;
    else if (name === 'AcctSvcrRef') e.reference = value;
    else if (name === 'NtryRef' && !e.reference) e.reference = value;
  } else if (endsWith(path, 'BookgDt', 'Dt') || endsWith(path, 'BookgDt', 'DtTm')) e.bookingDate ||= value;
  else if (name === 'Amt' && endsWith(path, 'InstdAmt', 'Amt')) e.originalAmount ||= value;
  else if (endsWith(path, 'CcyXchg', name)) closeExchange(e, name, value);
  else if (endsWith(path, 'ValDt', 'Dt') || endsWith(path, 'ValDt', 'DtTm')) e.valueDate ||= value;
}

/** The first CcyXchg of an entry (the instructed amount's, or the transaction amount's). */
function closeExchange(e: Entry, name: string, value: string): void {
  if (name === 'SrcCcy') e.sourceCurrency ||= value.toUpperCase();
  else if (name === 'TrgtCcy') e.targetCurrency ||= value.toUpperCase();
  else if (name === 'XchgRate') e.exchangeRate ||= value;
}

/**
 * The entry's original amount: InstdAmt when it is in another currency than the booking, else the
 * booking converted back at CcyXchg's rate (one source unit is XchgRate target units).
 */
function originalOf(e: Entry, booked: number, fractionDigits: number): OriginalAmount | null {
  if (e.originalAmount && e.originalCurrency && e.originalCurrency !== e.currency)
    return readOriginal(e.originalAmount, e.originalCurrency, booked, e.currency);
  if (e.sourceCurrency && e.exchangeRate && e.sourceCurrency !== e.currency && e.targetCurrency === e.currency)
    return originalFromRate(booked, fractionDigits, e.exchangeRate, e.sourceCurrency);
  return null;
}

/** Outside entries: the statement's account and currency. */
function closeStatementField(state: CamtState, name: string, value: string): void {
  const { path } = state;
  if (!value) return;
  const isAccountId =
    (name === 'IBAN' && endsWith(path, 'Stmt', 'Acct', 'Id', 'IBAN')) ||
    (name === 'Id' && endsWith(path, 'Stmt', 'Acct', 'Id', 'Othr', 'Id'));
  if (isAccountId && state.statements.list[state.statement]?.account === '') {
    const index = state.statements.indexOf(value);
    for (let i = state.firstRow; i < state.rows.length; i += 1)
      must(state.rows[i], 'i < rows.length').statement = index;
    state.statement = index;
  } else if (name === 'Ccy' && endsWith(path, 'Stmt', 'Acct', 'Ccy')) {
    const info = state.statements.list[state.statement];
    if (info) info.currency ??= value.toUpperCase();
  }
}

function closeElement(state: CamtState, name: string, value: string): void {
  const e = state.entry;
  const t = state.tx;
  if (!e) closeStatementField(state, name, value);
  else if (name === 'Ntry' && state.path[state.path.length - 2] === 'Stmt') {
    state.entry = null;
    if (!state.problem) {
      const row = toRow(e, state.statement, state.fractionDigits);
      if ('ok' in row) state.problem = row;
      else state.rows.push(row);
    }
  } else if (t && name === 'TxDtls') {
    e.details.push(t);
    state.tx = null;
  } else if (!t || !closeDetail(state, t, name, value)) closeEntryField(state, e, name, value);
  state.path.pop();
}

export function* readCamtSteps(text: string, fractionDigits = 2): Steps<StatementRead | CsvReadFailure> {
  const start = text.indexOf('<');
  if (start < 0) return fail('BAD_STATEMENT', 'This CAMT file holds no XML.');
  const lineAt = lineCounter(text);
  const state: CamtState = {
    path: [],
    rows: [],
    statements: new StatementList(),
    statement: 0,
    firstRow: 0,
    entry: null,
    tx: null,
    problem: null,
    fractionDigits,
  };
  const handler = {
    open: (name: string, attributes: Record<string, string>, offset: number) =>
      openElement(state, name, attributes, () => lineAt(offset)),
    close: (name: string, value: string) => closeElement(state, name, value),
  };
  try {
    yield* readMarkup(text, start, handler);
  } catch (error) {
    if (error instanceof MarkupError) return fail('BAD_STATEMENT', error.message);
    throw error;
  }
  if (state.problem) return state.problem;
  const statements = state.statements.list;
  return {
    rows: state.rows,
    statements,
    warnings: severalAccountsWarning(statements),
    dateColumn: 'BookgDt',
    dateFormat: 'YYYY-MM-DD',
  };
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

function toRow(e: Entry, statement: number, fractionDigits: number): CsvRow | CsvReadFailure {
  const rawDate = e.bookingDate || e.valueDate;
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(rawDate);
  const postDate = m ? toIsoDate(Number(m[1]), Number(m[2]), Number(m[3])) : null;
  if (!postDate)
    return fail('BAD_DATE', `Line ${e.line}: the booking date '${rawDate.slice(0, 40)}' cannot be read.`, {
      line: e.line,
      value: rawDate.slice(0, 40),
    });
  const parsed = readAmount(e.amount, 'csv', { fractionDigits });
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
  const booked = cents === 0 ? 0 : moneyIn ? cents : -cents;
  return {
    line: e.line,
    postDate,
    amount: cents === 0 ? 0 : moneyIn ? cents : -cents,
    description: describeEntry(e, moneyIn),
    category: null,
    currency: e.currency || null,
    fitid: e.reference.slice(0, 255) || null,
    statement,
    ...(originalOf(e, booked, fractionDigits) ?? {}),
  };
}
