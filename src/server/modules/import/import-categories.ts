import { isReservedCategoryName } from '../../../shared/categories';
import type { CategorySource } from '../../../shared/schemas/suggest';
import { CONFIDENT, memoNormalizer, suggest, type SuggestionModel } from '../../../shared/suggest';
import { must } from '../../../shared/must';

/** An imported row's category and where it came from. */
export interface RowCategory {
  category: string | null;
  source: CategorySource | null;
  /** Why a suggestion was applied (the learner's reason). */
  reason?: string;
}

export interface ImportRowLike {
  description: string;
  amount: number;
  category: string | null;
  /** Set by the rules step ('rule' or 'bank'); a category without one came from the bank's file. */
  categoryOrigin?: CategorySource | null;
}

/**
 * The last categorising step of an import, after the file's own categories (and rules, which run
 * before it): rows that still have no category get the learned suggestion when it is confident
 * (>= 0.9) and the account applies suggestions (`model` is null when it does not).
 */
export function categoriseImportRows(rows: readonly ImportRowLike[], model: SuggestionModel | null): RowCategory[] {
  const normalize = memoNormalizer(rows.length + 1);
  return rows.map((row) => categoriseRow(row, model, normalize));
}

/** The same, pausing every `chunk` rows so a large file does not hold the event loop. */
export async function categoriseImportRowsAsync(
  rows: readonly ImportRowLike[],
  model: SuggestionModel | null,
  pause: () => Promise<void>,
  chunk = 2000,
): Promise<RowCategory[]> {
  const normalize = memoNormalizer(rows.length + 1);
  const out: RowCategory[] = [];
  for (let i = 0; i < rows.length; i++) {
    out.push(categoriseRow(must(rows[i], 'i < rows.length'), model, normalize));
    if ((i + 1) % chunk === 0) await pause();
  }
  return out;
}

function categoriseRow(
  row: ImportRowLike,
  model: SuggestionModel | null,
  normalize: ReturnType<typeof memoNormalizer>,
): RowCategory {
  const named = row.category?.trim();
  if (named && !isReservedCategoryName(named)) return { category: named, source: row.categoryOrigin ?? 'bank' };
  if (!model || model.rows === 0) return { category: null, source: null };
  const suggestion = suggest(model, row, normalize);
  if (suggestion.category !== null && suggestion.confidence >= CONFIDENT) {
    return { category: suggestion.category, source: 'suggested', reason: suggestion.reason };
  }
  return { category: null, source: null };
}
