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

/**
 * A side of a linked transfer between two on-plan accounts: money moved, neither income nor spending.
 * Every account counts as on-plan until accounts carry an on-plan flag; then a side whose other side is
 * off-plan stops being internal here (money leaving the plan is spending). The SQL form is
 * `internalTransferSql` in src/server/db/sql.ts.
 */
export function isInternalTransfer(tx: { transferId?: number | null }): boolean {
  return tx.transferId !== undefined && tx.transferId !== null;
}

/**
 * The rule of every income-and-spending total (reports, payees, the budget overview, envelopes, a
 * search's total): counted, and not an internal transfer. Account balances count transfers
 * (isCountedTransaction alone).
 */
export function countsAsIncomeOrSpending(
  tx: Pick<TransactionDto, 'isSplit'> & { transferId?: number | null },
): boolean {
  return isCountedTransaction(tx) && !isInternalTransfer(tx);
}
