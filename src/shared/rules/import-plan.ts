/**
 * The categorising step of an import, between reading a file and storing its rows: every new
 * row goes through the user's rules. A category from the bank's file is kept unless a rule sets
 * one. `categoryOrigin` says where each row's category came from; a later step (learned
 * suggestions) may fill rows whose origin is still null, before the rows are stored.
 */
import { isReservedCategoryName } from '../categories/reserved';
import type { Steps } from '../csv/steps';
import type { TransactionType } from '../schemas/transactions';
import type { RuleSet } from './match';
import type { RuleActionField } from './schema';

/** Where an imported row's category came from: the bank's file, a rule, or nowhere (yet). */
export type CategoryOrigin = 'bank' | 'rule' | null;

export interface PlannedFields {
  /** The description to store (a rule may rename it). */
  description: string;
  /** The description as the file had it (duplicate detection also matches on it). */
  bankDescription: string;
  category: string | null;
  categoryOrigin: CategoryOrigin;
  type: TransactionType;
  /** The rule that set each field, when one did. */
  ruleIds: Partial<Record<RuleActionField, number>>;
}

export type PlannedImportRow<T> = Omit<T, keyof PlannedFields> & PlannedFields;

/** Rows per step before pausing (see csv/steps.ts). */
const ROWS_PER_STEP = 2000;

/**
 * Plans each row: rules first (lowest priority first, the first match per field wins), then the
 * bank's category, then the type `typeOf` gives by amount. Yields every ROWS_PER_STEP rows.
 */
export function* planImportRows<T extends { description: string; amount: number; category: string | null }>(
  rows: readonly T[],
  rules: RuleSet,
  account: string | null,
  typeOf: (amount: number) => TransactionType,
): Steps<PlannedImportRow<T>[]> {
  const out = new Array<PlannedImportRow<T>>(rows.length);
  for (const [i, row] of rows.entries()) {
    if (i > 0 && i % ROWS_PER_STEP === 0) yield;
    const outcome = rules.apply({ description: row.description, amount: row.amount, account });
    const bankCategory = row.category && !isReservedCategoryName(row.category) ? row.category : null;
    const category = outcome.actions.category ?? bankCategory;
    out[i] = {
      ...row,
      description: outcome.actions.description ?? row.description,
      bankDescription: row.description,
      category,
      categoryOrigin: outcome.actions.category ? 'rule' : bankCategory ? 'bank' : null,
      type: outcome.actions.type ?? typeOf(row.amount),
      ruleIds: outcome.ruleIds,
    };
  }
  return out;
}
