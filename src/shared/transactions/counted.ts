import type { TransactionDto } from '../schemas/transactions';

/**
 * The "counted row" rule every total uses (budget overview, envelopes, reports, account
 * registers): a split parent is never counted, its parts are. A part carries the parent's
 * date, account and type, so counting parts and skipping parents counts each movement of
 * money exactly once. The SQL form of this rule is `countedRowSql` in
 * src/server/db/sql.ts; a test holds the two to the same rows.
 */
export function isCountedTransaction(tx: Pick<TransactionDto, 'isSplit'>): boolean {
  return !tx.isSplit;
}
