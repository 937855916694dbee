/** Envelope membership: transactions link to an envelope through their category. */
import { dedupeNames } from '../schemas/budgets';
import type { TransactionDto } from '../schemas/transactions';
import { sumCents } from '../money';
import { countsAsIncomeOrSpending } from '../transactions/counted';
import { nameKey } from '../names';

export const UNCATEGORIZED_KEY = 'uncategorized';

type Linkable = Pick<TransactionDto, 'amount' | 'category' | 'isSplit' | 'postDate'>;

/** Category name -> key: trimmed, lower-case; null, empty or blank -> 'uncategorized'. */
export function categoryKeyOf(category: string | null | undefined): string {
  return nameKey(category) || UNCATEGORIZED_KEY;
}

/**
 * Transactions of an envelope: category among the envelope's categories (trimmed, any
 * case; 'uncategorized' catches transactions without a category), within the inclusive date
 * range (`YYYY-MM-DD`, compared as strings; either bound may be omitted), split parents excluded
 * (their parts count). Keeps the input order; returns the same objects.
 */
export function envelopeTransactions<T extends Linkable>(
  transactions: readonly T[],
  categories: readonly string[],
  range: { startDate?: string; endDate?: string } = {},
): T[] {
  const keys = new Set(categories.map(nameKey).filter(Boolean));
  return transactions.filter(
    (tx) =>
      countsAsIncomeOrSpending(tx) &&
      keys.has(categoryKeyOf(tx.category)) &&
      (!range.startDate || tx.postDate >= range.startDate) &&
      (!range.endDate || tx.postDate <= range.endDate),
  );
}

export interface EnvelopeSummary {
  transactionCount: number;
  /** Signed sum in cents (negative when money went out). */
  total: number;
}

/** Count and signed total of an envelope's transactions (pass the result of envelopeTransactions). */
export function summarizeEnvelope(transactions: readonly Pick<TransactionDto, 'amount'>[]): EnvelopeSummary {
  return { transactionCount: transactions.length, total: sumCents(transactions.map((tx) => tx.amount)) };
}

/**
 * Comma-separated category text -> names, for the budget editor's Related Categories and the
 * envelope form: split on commas, trimmed, empties dropped, duplicates (compared regardless of
 * case) dropped keeping the first spelling. "Food, dining,, FOOD " -> ['Food', 'dining'].
 * Same rule as the schemas' `dedupeNames`, so what the form shows is what the server stores.
 */
export function parseCategoryList(text: string): string[] {
  return dedupeNames(text.split(','));
}
