import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/knex';
import { transactionCsvHeader, transactionCsvRecord } from '../../../shared/export/transactions-csv';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { readsOf } from '../../db/transaction-reads';

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
  const pages = readsOf(em).exportPages(userId, filters, EXPORT_PAGE_ROWS);
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
