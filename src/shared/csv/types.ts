/** Shapes every reader (CSV, OFX/QFX, QIF, CAMT.053) answers in, so one pipeline imports them all. */
import type { ColumnAssignment } from './columns';

export type ImportFormat = 'csv' | 'ofx' | 'qif' | 'camt053';

/**
 * Which column holds what, chosen by a person for a file the engine cannot read by itself
 * (or saved as an account's import profile). Column indexes start at 0.
 */
export interface ColumnMapping {
  /** The table's first line is a header (skipped), not a transaction. */
  header: boolean;
  date: number;
  /** Joined in this order with spaces. */
  description: number[];
  amount?: number;
  debit?: number;
  credit?: number;
  category?: number;
  /** A column of CR/DR (or D/C, Af/Bij) marks that says which way each amount went. */
  indicator?: number;
  currency?: number;
  /** What was paid in another currency, and that currency (both, or neither is used). */
  originalAmount?: number;
  originalCurrency?: number;
  dateFormat?: string;
}

export interface ReadOptions {
  /** Decimals of the account's currency (2 by default; 0 for JPY): what the file's amounts are read in. */
  fractionDigits?: number;
  /** The account's currency: an original amount in it is no original amount. */
  currency?: string;
  /** Overrides detection, e.g. 'DD/MM/YYYY'. */
  dateFormat?: string | null;
  /** The format this account's last import used; settles day/month ambiguity. */
  preferredDateFormat?: string | null;
  /** Negates amounts of a single signed column (card exports showing charges as positive). */
  flipAmounts?: boolean;
  /** A person's (or the account's saved) column mapping; CSV only. */
  mapping?: ColumnMapping | null;
  /** The saved mapping: used when the file has the shape it was made for. */
  savedMapping?: SavedMapping | null;
  /** A file of several accounts' statements: only the rows of these statements (indexes in `statements`). */
  onlyStatements?: readonly number[] | null;
  /** A file of several accounts' statements: the rows of every statement but these. */
  skipStatements?: readonly number[] | null;
}

/** One account's statement in a file of several, as the preview lists it. */
export interface StatementSummary {
  /** Its index: rows carry it in `statement`. */
  index: number;
  /** The account number as the file gives it ('' when it gives none). */
  account: string;
  currency: string | null;
  rows: number;
  /** Earliest and latest date of its rows (null when it has none). */
  dateRange: [string, string] | null;
}

/** A mapping with the shape of the file it was made for. */
export interface SavedMapping {
  mapping: ColumnMapping;
  /** Number of columns of the table. */
  columnCount: number;
  /** The header cells when `mapping.header`, else []. */
  headers: string[];
}

export interface CsvRow {
  /** 1-based physical line where the record starts. */
  line: number;
  postDate: string;
  /** Integer cents; negative is money out. */
  amount: number;
  description: string;
  category: string | null;
  /** ISO currency code when the file names one per row. */
  currency?: string | null;
  /** What was paid in another currency, in its minor units, when the file says (a card payment abroad). */
  originalAmount?: number | null;
  originalCurrency?: string | null;
  /** The bank's own id of the transaction (OFX FITID, CAMT AcctSvcrRef), for duplicate detection. */
  fitid?: string | null;
  /** Statements of several accounts: the index of the row's statement in the read's `statements`. */
  statement?: number;
}

export interface SkippedLine {
  line: number;
  text: string;
  reason: string;
}

export interface CsvReadSuccess {
  ok: true;
  format: ImportFormat;
  encoding: string;
  delimiter: string;
  headerLine: number;
  headers: string[];
  columns: ColumnAssignment[];
  /** The header of the column dates were read from ('' for an unnamed one), or the statement field. */
  dateColumn: string;
  dateFormat: string;
  dateFormatCandidates: string[];
  rows: CsvRow[];
  skipped: SkippedLine[];
  warnings: string[];
  /** How the file was read, worth saying in a preview (e.g. how unmarked amounts were signed). */
  notes: string[];
  /** The mapping the file was read with (a given or saved one), else null. */
  mapping: SavedMapping | null;
  /** True when the account's saved mapping was used. */
  usedSavedMapping: boolean;
  /** The first rows of the table when a mapping was used, so a person can change it. */
  sample?: string[][];
  /** A statement file of several accounts: each account's statement (at most MAX_STATEMENTS_LISTED). */
  statements?: StatementSummary[];
}

/** Statements a preview lists one by one; the rest of a file of more accounts go into the chosen account. */
export const MAX_STATEMENTS_LISTED = 50;

export type CsvErrorCode =
  | 'EMPTY'
  | 'NOT_CSV'
  | 'NO_HEADER'
  | 'NO_DATE_COLUMN'
  | 'NO_AMOUNT_COLUMN'
  | 'NEEDS_MAPPING'
  | 'BAD_MAPPING'
  | 'NO_ROWS'
  | 'AMBIGUOUS_DATE'
  | 'UNKNOWN_DATE_FORMAT'
  | 'BAD_DATE'
  | 'BAD_AMOUNT'
  | 'TOO_MANY_COLUMNS'
  | 'LINE_TOO_LONG'
  | 'BAD_STATEMENT';

export interface CsvReadFailure {
  ok: false;
  code: CsvErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export type CsvReadResult = CsvReadSuccess | CsvReadFailure;

export function fail(code: CsvErrorCode, message: string, details?: Record<string, unknown>): CsvReadFailure {
  return { ok: false, code, message, ...(details ? { details } : {}) };
}

/** What a streamed read ends with, once its last rows were taken. */
export interface RowsEnd {
  skipped: SkippedLine[];
  warnings: string[];
  notes: string[];
}

/**
 * The rows of a streamed read, in chunks (a chunk may be empty: a pause point); the generator
 * returns what only the whole file tells, or the failure that ends the read.
 */
export type RowChunks = Generator<CsvRow[], RowsEnd | CsvReadFailure, void>;

/**
 * A read whose rows are still to come: what the file says before its rows (the header, the date
 * format), what the rows will need (their date range, whether they carry bank ids, whether any may
 * lack a category of its own) and the rows as chunks. Reading them to the end gives exactly
 * the rows, skipped lines, warnings and notes of the whole-file read.
 */
export interface CsvReadHead extends Omit<CsvReadSuccess, 'rows' | 'skipped' | 'warnings' | 'notes'> {
  /** Earliest and latest date of the rows to come (every row's date is in it). */
  dateRange: [string, string];
  /** Some row carries a bank id (FITID). */
  hasFitids: boolean;
  /** Some row may come without a category of its own (none, or a reserved name). */
  mayLackCategory: boolean;
  rows: RowChunks;
}

export type CsvReadStream = CsvReadHead | CsvReadFailure;
