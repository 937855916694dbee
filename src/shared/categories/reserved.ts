/**
 * 'Uncategorized' means "no category" everywhere: in search filters, the budget overview,
 * envelopes and the transaction table. So no category may carry that name, in any letter
 * case: creating one is refused, and an import row in 'Uncategorized' is stored without one.
 */
import { UNCATEGORIZED_KEY } from '../envelopes/envelopes';
import { nameKey } from '../names';

/** How screens name "no category". */
export const UNCATEGORIZED_LABEL = 'Uncategorized';

/** True for 'Uncategorized' in any letter case, with any surrounding blanks. */
export function isReservedCategoryName(name: string | null | undefined): boolean {
  return nameKey(name) === UNCATEGORIZED_KEY;
}

/** Refusal when a category named so would be created (Categories screen, POST /api/categories). */
export function reservedCategoryMessage(name: string): string {
  return `'${name.trim()}' is reserved for transactions without a category: choose another name`;
}

/** Refusal when a transaction (or a split part) is given that category name. */
export function reservedCategoryOnTransactionMessage(name: string): string {
  return `'${name.trim()}' is reserved for transactions without a category: leave the category empty instead`;
}
