import { Readable } from 'node:stream';
import type { EntityManager } from '@mikro-orm/knex';
import { transactionCsvHeader, transactionCsvRecord } from '../../../shared/export/transactions-csv';
import type { TransactionFilters } from '../../../shared/schemas/transactions';
import { searchTransactionPages } from './transactions.query';

/**
 * The search's rows as CSV (src/shared/export/transactions-csv.ts), streamed: pages of rows
 * are read one short query at a time as the client takes the text, so memory stays flat
 * however many rows there are. The first page is read before the answer starts, so a failing
 * query still answers with an error status.
 */
export async function transactionsCsvStream(em: EntityManager, userId: number, filters: TransactionFilters): Promise<Readable> {
  const pages = searchTransactionPages(em, userId, filters);
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
