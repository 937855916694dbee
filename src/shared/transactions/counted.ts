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
 * What the internal-transfer rule reads of a row: its link and both sides' accounts' on-plan flags
 * (every answer carries them; absent, the link counts as unlinked and the flags as a pair within the plan).
 */
export type TransferSides = Partial<
  Pick<TransactionDto, 'transferId' | 'accountOnBudget' | 'transferCounterpartOnBudget'>
>;

/**
 * A side of a linked transfer that is neither income nor spending: every linked side except one whose
 * account is on the plan while the other side's is not. A pair between two on-plan accounts, or two
 * off-plan ones, moves money and counts nowhere; a pair between the plan and an off-plan account counts
 * once, on its on-plan side (spending when money leaves the plan, income when it comes in). The SQL
 * form is `internalTransferSql` in src/server/db/sql.ts; a test holds the two to the same rows.
 */
export function isInternalTransfer(tx: TransferSides): boolean {
  if (tx.transferId === undefined || tx.transferId === null) return false;
  return !(tx.accountOnBudget && !tx.transferCounterpartOnBudget);
}

/**
 * The rule of every income-and-spending total (reports, payees, the budget overview, envelopes, a
 * search's total, the plan): counted, and not an internal transfer. Account balances count transfers
 * (isCountedTransaction alone).
 */
export function countsAsIncomeOrSpending(tx: Pick<TransactionDto, 'isSplit'> & TransferSides): boolean {
  return isCountedTransaction(tx) && !isInternalTransfer(tx);
}
