/** Envelope membership: transactions link to an envelope through their category. */
import type { TransactionDto } from '../schemas/transactions';

export const UNCATEGORIZED_KEY = 'uncategorized';

type Linkable = Pick<TransactionDto, 'amount' | 'category' | 'isSplit' | 'postDate'>;

export function categoryKeyOf(category: string | null | undefined): string {
  const trimmed = (category ?? '').trim().toLowerCase();
  return trimmed || UNCATEGORIZED_KEY;
}

/**
 * Transactions of an envelope: category among the envelope's categories (trimmed, any
 * case), within the inclusive date range, split parents excluded (their parts count).
 */
export function envelopeTransactions<T extends Linkable>(
  transactions: readonly T[],
  categories: readonly string[],
  range: { startDate?: string; endDate?: string } = {},
): T[] {
  const keys = new Set(categories.map((c) => c.trim().toLowerCase()).filter(Boolean));
  return transactions.filter(
    (tx) =>
      !tx.isSplit &&
      keys.has(categoryKeyOf(tx.category)) &&
      (!range.startDate || tx.postDate >= range.startDate) &&
      (!range.endDate || tx.postDate <= range.endDate),
  );
}

export function summarizeEnvelope(transactions: readonly Pick<TransactionDto, 'amount'>[]): { transactionCount: number; total: number } {
  let total = 0;
  for (const tx of transactions) total += tx.amount;
  return { transactionCount: transactions.length, total };
}

/** "Food, dining,, FOOD " -> ['Food', 'dining']: split on commas, trimmed, empties dropped, first spelling kept. */
export function parseCategoryList(text: string): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const part of text.split(',')) {
    const name = part.trim();
    const key = name.toLowerCase();
    if (!name || seen.has(key)) continue;
    seen.add(key);
    out.push(name);
  }
  return out;
}
