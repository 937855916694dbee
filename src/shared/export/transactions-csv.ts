/**
 * The transactions CSV of GET /api/transactions/export.csv (RFC 4180): UTF-8 with a byte order
 * mark, CRLF line ends, a header row, fields quoted when they hold a comma, a quote, CR or LF.
 * Amounts are decimals with a dot in their account's currency ("-12.34", "-1500" yen); every other cell is guarded against spreadsheet
 * formula injection (the Amount column keeps its own minus sign).
 */
import { guardFormula } from '../csv/formula';
import { centsToDecimalString, minorUnitsOf } from '../money';
import type { TransactionDto } from '../schemas/transactions';

export const TRANSACTION_CSV_COLUMNS = [
  'Date',
  'Description',
  'Amount',
  'Category',
  'Type',
  'Account',
  'Split',
  'Split of',
  'Batch',
  'ID',
] as const;
export const UTF8_BOM = '\uFEFF';
const AMOUNT_COLUMN = TRANSACTION_CSV_COLUMNS.indexOf('Amount');

/** One RFC 4180 field: quoted (quotes doubled) when it holds a comma, quote, CR or LF. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

/** One record with its CRLF. */
export function csvRecord(fields: readonly string[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}

/** The header record, preceded by the byte order mark. */
export function transactionCsvHeader(): string {
  return UTF8_BOM + csvRecord(TRANSACTION_CSV_COLUMNS);
}

/** What the Split column says: `parent` for a split original, `part` for one of its parts, empty otherwise. */
export function splitRole(tx: { isSplit: boolean | number; parentTransactionId: number | null }): string {
  if (tx.isSplit) return 'parent';
  return tx.parentTransactionId === null ? '' : 'part';
}

/**
 * A transaction's cells in column order, guarded. A spreadsheet sum of the Amount column leaves out the rows
 * marked `parent` (their parts hold the same money); "Split of" is the ID of the part's original, a row of the
 * same file.
 */
export function transactionCsvCells(
  tx: Pick<
    TransactionDto,
    'id' | 'postDate' | 'description' | 'amount' | 'category' | 'type' | 'account' | 'parentTransactionId' | 'batchId'
  > & { isSplit: boolean | number; currency?: string | null },
): string[] {
  const cells = [
    tx.postDate,
    tx.description,
    centsToDecimalString(tx.amount, tx.currency ? minorUnitsOf(tx.currency) : 2),
    tx.category ?? '',
    tx.type,
    tx.account ?? '',
    splitRole(tx),
    tx.parentTransactionId === null ? '' : String(tx.parentTransactionId),
    tx.batchId ?? '',
    String(tx.id),
  ];
  return cells.map((cell, i) => (i === AMOUNT_COLUMN ? cell : guardFormula(cell)));
}

export function transactionCsvRecord(tx: Parameters<typeof transactionCsvCells>[0]): string {
  return csvRecord(transactionCsvCells(tx));
}
