/**
 * The categorising step of an import, between reading a file and storing its rows: every new
 * row goes through the user's rules. A category from the bank's file is kept unless a rule sets
 * one. `categoryOrigin` says where each row's category came from; a later step (learned
 * suggestions) may fill rows whose origin is still null, before the rows are stored.
 */
import { must } from '../must';
import { isReservedCategoryName } from '../categories/reserved';
import type { Steps } from '../csv/steps';
import type { CsvRow } from '../csv/types';
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

/** A row as a reader gives it. */
export type SourceRow = CsvRow;

/** A row as it will be stored: read from a file, then through the rules. */
export interface PlannedImportRow extends PlannedFields {
  line: number;
  postDate: string;
  amount: number;
  currency: string | null;
  /** What was paid in another currency, when the file says (minor units of originalCurrency). */
  originalAmount: number | null;
  originalCurrency: string | null;
  fitid: string | null;
}

/** Rows per step before pausing (see csv/steps.ts). */
const ROWS_PER_STEP = 2000;

/**
 * Plans each row: rules first (lowest priority first, the first match per field wins), then the
 * bank's category, then the type `typeOf` gives by amount. Yields every ROWS_PER_STEP rows, and after each
 * rule with a regular expression (RuleSet.applySteps).
 * Each planned row is built field by field (one object shape): spreading a row and adding
 * fields costs V8 far more per row, which a 100,000-row import feels.
 */
export function* planImportRows(
  rows: readonly SourceRow[],
  rules: RuleSet,
  account: string | null,
  typeOf: (amount: number) => TransactionType,
): Steps<PlannedImportRow[]> {
  const out = new Array<PlannedImportRow>(rows.length);
  /** The bank's category names, checked once each against the reserved name. */
  const bankCategories = new Map<string, string | null>();
  for (let i = 0; i < rows.length; i += 1) {
    if (i > 0 && i % ROWS_PER_STEP === 0) yield;
    const row = must(rows[i], 'i is below rows.length');
    const outcome = yield* rules.applySteps({ description: row.description, amount: row.amount, account });
    let bankCategory: string | null = null;
    if (row.category) {
      const known = bankCategories.get(row.category);
      if (known !== undefined) bankCategory = known;
      else {
        bankCategory = isReservedCategoryName(row.category) ? null : row.category;
        bankCategories.set(row.category, bankCategory);
      }
    }
    const ruleCategory = outcome.actions.category;
    out[i] = {
      line: row.line,
      postDate: row.postDate,
      amount: row.amount,
      currency: row.currency ?? null,
      originalAmount: row.originalAmount ?? null,
      originalCurrency: row.originalCurrency ?? null,
      fitid: row.fitid ?? null,
      description: outcome.actions.description ?? row.description,
      bankDescription: row.description,
      category: ruleCategory ?? bankCategory,
      categoryOrigin: ruleCategory ? 'rule' : bankCategory ? 'bank' : null,
      type: outcome.actions.type ?? typeOf(row.amount),
      ruleIds: outcome.ruleIds,
    };
  }
  return out;
}
