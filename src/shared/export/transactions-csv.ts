/**
 * The transactions CSV of GET /api/transactions/export.csv (RFC 4180): UTF-8 with a byte order
 * mark, CRLF line ends, a header row, fields quoted when they hold a comma, a quote, CR or LF.
 * Amounts are decimals with a dot ("-12.34"); every other cell is guarded against spreadsheet
 * formula injection (the Amount column keeps its own minus sign).
 */
import { guardFormula } from '../csv/formula';
import { centsToDecimalString } from '../money';
import type { TransactionDto } from '../schemas/transactions';

export const TRANSACTION_CSV_COLUMNS = [
  'Date',
  'Description',
  'Amount',
  'Category',
  'Type',
  'Account',
  'Split of',
  'Batch',
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

/** A transaction's cells in column order, guarded. */
export function transactionCsvCells(
  tx: Pick<
    TransactionDto,
    'postDate' | 'description' | 'amount' | 'category' | 'type' | 'account' | 'parentTransactionId' | 'batchId'
  >,
): string[] {
  const cells = [
    tx.postDate,
    tx.description,
    centsToDecimalString(tx.amount),
    tx.category ?? '',
    tx.type,
    tx.account ?? '',
    tx.parentTransactionId === null ? '' : String(tx.parentTransactionId),
    tx.batchId ?? '',
  ];
  return cells.map((cell, i) => (i === AMOUNT_COLUMN ? cell : guardFormula(cell)));
}

export function transactionCsvRecord(tx: Parameters<typeof transactionCsvCells>[0]): string {
  return csvRecord(transactionCsvCells(tx));
}
