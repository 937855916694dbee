/**
 * An account register: the account's transactions, newest first, each with the balance after
 * it. The account's balance is its opening balance plus all its counted rows (the opening
 * balance is listed below them all), so the walk goes back from it: the balance after a row is
 * that balance minus the counted amounts of every row listed above it (newer ones). Split parents are listed with their parts right below them and are not
 * counted themselves (src/shared/transactions/counted.ts), so a parent shows the balance after
 * its whole split and no movement is counted twice.
 */
import type { TransactionDto } from '../schemas/transactions';
import { isCountedTransaction } from '../transactions/counted';

export type RegisterTransaction = Pick<
  TransactionDto,
  'id' | 'postDate' | 'amount' | 'isSplit' | 'parentTransactionId'
>;

export type RegisterRow<T extends RegisterTransaction = TransactionDto> = T & { runningBalance: number };

/**
 * Register order, newest first: by date; within a date by split family (a parent and its
 * parts together, newest family first); the parent before its parts; parts newest first.
 */
export function compareRegisterOrder(a: RegisterTransaction, b: RegisterTransaction): number {
  if (a.postDate !== b.postDate) return a.postDate < b.postDate ? 1 : -1;
  const familyA = a.parentTransactionId ?? a.id;
  const familyB = b.parentTransactionId ?? b.id;
  if (familyA !== familyB) return familyB - familyA;
  const partA = a.parentTransactionId === null ? 0 : 1;
  const partB = b.parentTransactionId === null ? 0 : 1;
  if (partA !== partB) return partA - partB;
  return b.id - a.id;
}

/**
 * Adds `runningBalance` to rows already in register order. `balanceAfterFirst` is the
 * balance after the first (newest) row: the account's balance minus the counted rows newer than
 * the page.
 */
export function withRunningBalance<T extends RegisterTransaction>(
  rows: readonly T[],
  balanceAfterFirst: number,
): RegisterRow<T>[] {
  let balance = balanceAfterFirst;
  return rows.map((row) => {
    const out = { ...row, runningBalance: balance === 0 ? 0 : balance };
    if (isCountedTransaction(row)) balance -= row.amount;
    return out;
  });
}

export interface ReconcileFigures {
  /** The register's balance at the end of the statement date. */
  registerBalance: number;
  /** Statement balance minus register balance: 0 when they agree. */
  difference: number;
  /** The account's balance that makes the register agree with the statement. */
  adjustedBalance: number;
}

/**
 * Reconciling against a bank statement. `laterTotal` is the sum of the counted rows dated
 * after the statement date: the register's balance on that date is the account's balance minus
 * them, and adjusting moves that balance by the difference.
 */
export function reconcileFigures(balance: number, laterTotal: number, statementBalance: number): ReconcileFigures {
  const registerBalance = balance - laterTotal;
  const difference = statementBalance - registerBalance;
  return { registerBalance, difference: difference || 0, adjustedBalance: balance + difference };
}
