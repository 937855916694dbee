/**
 * OFX 1.x (SGML), OFX 2.x (XML) and QFX statements: one transaction per STMTTRN, dated by
 * the first 8 digits of DTPOSTED as printed (never shifted by its time zone), signed as
 * TRNAMT says (never by TRNTYPE), described by NAME then MEMO, with FITID for duplicates.
 * Each row names its statement (an account of the file), so a file of several accounts can be
 * split between accounts; a statement's currency (CURDEF) is its rows' currency wherever it stands.
 */
import { readAmount } from '../money/read-amount';
import { originalFromRate } from '../import/original-amount';
import { toIsoDate } from '../dates/calendar';
import { joinDescription } from '../csv/describe';
import type { Steps } from '../csv/steps';
import { fail, type CsvReadFailure, type CsvRow } from '../csv/types';
import { lineCounter, MarkupError, readMarkup } from './markup';
import { must } from '../must';

/** One account's statement in a file. */
export interface StatementInfo {
  /** The account number as the file gives it ('' when it gives none). */
  account: string;
  currency: string | null;
}

export interface StatementRead {
  rows: CsvRow[];
  /** The file's statements, in order; each row's `statement` is an index here. */
  statements?: StatementInfo[];
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

/** Statements of a file by account number: one entry per account, however many times it appears. */
export class StatementList {
  readonly list: StatementInfo[] = [];
  private readonly byAccount = new Map<string, number>();

  /** The index of the account's statement, added when new. */
  indexOf(account: string): number {
    let at = this.byAccount.get(account);
    if (at === undefined) {
      at = this.list.length;
      this.list.push({ account, currency: null });
      this.byAccount.set(account, at);
    }
    return at;
  }
}

/** Accounts named in one warning at most. */
const ACCOUNTS_LISTED = 5;

/** The warning for a file of several accounts, naming a few of them. */
export function severalAccountsWarning(statements: readonly StatementInfo[]): string[] {
  const named = statements.filter((s) => s.account !== '');
  if (named.length < 2) return [];
  const shown = named.slice(0, ACCOUNTS_LISTED).map((s) => s.account);
  const more = named.length > ACCOUNTS_LISTED ? ` and ${named.length - ACCOUNTS_LISTED} more` : '';
  return [
    `This file holds statements of ${named.length} accounts (${shown.join(', ')}${more}): choose where each goes, or all go into the chosen account.`,
  ];
}

interface OfxState {
  rows: CsvRow[];
  statements: StatementList;
  /** The statement being read, and its first row. */
  statement: { index: number; firstRow: number; currency: string | null } | null;
  current: Pending | null;
  inAccount: boolean;
  problem: CsvReadFailure | null;
}

/** A statement's currency for its rows that name none (CURDEF may come after them). */
function closeStatement(state: OfxState): void {
  const open = state.statement;
  if (!open) return;
  state.statement = null;
  const info = state.statements.list[open.index];
  if (info && open.currency) info.currency ??= open.currency;
  if (!open.currency) return;
  for (let i = open.firstRow; i < state.rows.length; i += 1) {
    const row = state.rows[i];
    if (row && !row.currency) row.currency = open.currency;
  }
}

/** Set on a transaction whose CURRATE and CURSYM sit in ORIGCURRENCY: TRNAMT was converted from them. */
const ORIGINAL_MARK = ' original';

function ofxHandler(state: OfxState, lineAt: (offset: number) => number, fractionDigits: number) {
  return {
    open(raw: string, _attributes: Record<string, string>, offset: number) {
      const name = raw.toUpperCase();
      if (name === 'STMTTRN') state.current = { line: lineAt(offset), fields: new Map() };
      else if (name === 'ORIGCURRENCY' && state.current) state.current.fields.set(ORIGINAL_MARK, 'yes');
      else if (name === 'STMTRS' || name === 'CCSTMTRS') {
        closeStatement(state);
        state.statement = { index: state.statements.indexOf(''), firstRow: state.rows.length, currency: null };
      } else if (name === 'BANKACCTFROM' || name === 'CCACCTFROM') state.inAccount = true;
    },
    close(raw: string, value: string) {
      const name = raw.toUpperCase();
      const pending = state.current;
      if (name === 'STMTTRN' && pending) {
        state.current = null;
        if (state.problem) return;
        const row = toRow(pending, state.statement?.currency ?? null, state.statement?.index ?? 0, fractionDigits);
        if ('ok' in row) state.problem = row;
        else state.rows.push(row);
      } else if (pending) {
        if (value && !pending.fields.has(name)) pending.fields.set(name, value);
      } else if (name === 'CURDEF' && value && state.statement) state.statement.currency = value.toUpperCase();
      else if (name === 'ACCTID' && state.inAccount && value && state.statement) moveToAccount(state, value);
      else if (name === 'BANKACCTFROM' || name === 'CCACCTFROM') state.inAccount = false;
      else if (name === 'STMTRS' || name === 'CCSTMTRS') closeStatement(state);
    },
  };
}

/** The statement being read belongs to this account (its rows so far, too). */
function moveToAccount(state: OfxState, account: string): void {
  const open = must(state.statement ?? undefined, 'inside a statement');
  const index = state.statements.indexOf(account);
  for (let i = open.firstRow; i < state.rows.length; i += 1) {
    const row = state.rows[i];
    if (row) row.statement = index;
  }
  open.index = index;
}

/** `fractionDigits`: decimals of the account's currency, which TRNAMT is read in. */
export function* readOfxSteps(text: string, fractionDigits = 2): Steps<StatementRead | CsvReadFailure> {
  const start = text.search(/<OFX[\s>]/i);
  if (start < 0) return fail('BAD_STATEMENT', 'This OFX file has no <OFX> element.');
  const state: OfxState = {
    rows: [],
    statements: new StatementList(),
    statement: null,
    current: null,
    inAccount: false,
    problem: null,
  };
  try {
    yield* readMarkup(text, start, ofxHandler(state, lineCounter(text), fractionDigits));
  } catch (error) {
    if (error instanceof MarkupError) return fail('BAD_STATEMENT', error.message);
    throw error;
  }
  closeStatement(state);
  if (state.problem) return state.problem;
  const statements = state.statements.list;
  return {
    rows: state.rows,
    statements,
    warnings: severalAccountsWarning(statements),
    dateColumn: 'DTPOSTED',
    dateFormat: 'YYYYMMDD',
  };
}

function toRow(
  pending: Pending,
  currency: string | null,
  statement: number,
  fractionDigits: number,
): CsvRow | CsvReadFailure {
  const field = (name: string) => pending.fields.get(name) ?? '';
  const rawDate = field('DTPOSTED') || field('DTUSER');
  const postDate = ofxDate(rawDate);
  if (!postDate)
    return fail('BAD_DATE', `Line ${pending.line}: the date '${rawDate.slice(0, 40)}' cannot be read.`, {
      line: pending.line,
      value: rawDate.slice(0, 40),
    });
  const rawAmount = field('TRNAMT');
  const parsed = readAmount(rawAmount.trim(), 'csv', { fractionDigits });
  if (!parsed.ok) {
    return fail('BAD_AMOUNT', `Line ${pending.line}: the amount '${rawAmount.slice(0, 40)}' cannot be read.`, {
      line: pending.line,
      value: rawAmount.slice(0, 40),
    });
  }
  const rowCurrency = currency;
  const original = pending.fields.has(ORIGINAL_MARK)
    ? originalFromRate(parsed.cents, fractionDigits, field('CURRATE'), field('CURSYM'))
    : null;
  return {
    line: pending.line,
    postDate,
    amount: parsed.cents === 0 ? 0 : parsed.cents,
    description: joinDescription(field('NAME'), field('MEMO')),
    category: null,
    currency: rowCurrency ? rowCurrency.toUpperCase() : null,
    fitid: field('FITID').slice(0, 255) || null,
    statement,
    ...(original ?? {}),
  };
}
