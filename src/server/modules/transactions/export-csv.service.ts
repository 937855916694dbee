import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/knex';
import { transactionCsvHeader, transactionCsvRecord } from '../../../shared/export/transactions-csv';
import type { TransactionFilters, TransactionType } from '../../../shared/schemas/transactions';
import { searchRowPages, type KeysetRow } from './transactions.query';

/** Just the columns a CSV record needs, named as transactionCsvRecord reads them (no per-row copy). */
export const EXPORT_COLUMNS = `t.id, t.post_date as "postDate", t.description, t.amount, t.type, t.parent_id as "parentTransactionId",
  t.batch_id as "batchId", a.name as account, c.name as category`;

interface ExportRow extends KeysetRow {
  description: string;
  amount: number;
  type: TransactionType;
  parentTransactionId: number | null;
  batchId: string | null;
  account: string | null;
  category: string | null;
}

/** Rows a page: a page's text is written before the next is read, so memory holds one page at a time. */
export const EXPORT_PAGE_ROWS = 2000;

/**
 * The search's rows as CSV (src/shared/export/transactions-csv.ts), streamed: pages of rows
 * are read one short query at a time as the client takes the text (the stream reads the next
 * page only when the socket has taken the last one), so memory stays flat however many rows
 * there are. The first page is read before the answer starts, so a failing query still answers
 * with an error status.
 */
export async function transactionsCsvStream(
  em: EntityManager,
  userId: number,
  filters: TransactionFilters,
): Promise<Readable> {
  const pages = searchRowPages<ExportRow>(em, userId, filters, EXPORT_COLUMNS, EXPORT_PAGE_ROWS);
  const first = await pages.next();
  async function* text(): AsyncGenerator<string> {
    yield transactionCsvHeader();
    if (first.done) return;
    yield first.value.map(transactionCsvRecord).join('');
    for await (const page of pages) yield page.map(transactionCsvRecord).join('');
  }
  return Readable.from(text(), { objectMode: false });
}

export function exportFileName(filters: Pick<TransactionFilters, 'startDate' | 'endDate'>): string {
  return `transactions-${filters.startDate}-to-${filters.endDate}.csv`;
}
