/**
 * A category may be related to one line item of a budget only: related to two, its
 * transactions would count in both (the overview's actuals and nets would count them twice).
 * The budget editor and the server both check with `findSharedCategories`.
 */
import { categoryKeyOf } from '../envelopes/envelopes';

export interface NamedLineItem {
  name: string;
  relatedCategories: readonly string[];
}

export interface SharedCategory {
  /** The category as the later line item spells it. */
  category: string;
  /** Position (0-based) and name of the line item that already has the category. */
  firstIndex: number;
  firstName: string;
  /** Position and name of the line item that relates it again. */
  index: number;
  name: string;
}

/**
 * Every category related to more than one of `items`, reported at each later item that
 * repeats it (categories compared trimmed and regardless of case; 'Uncategorized' is a
 * category like any other here). In item order, then category order.
 */
export function findSharedCategories(items: readonly NamedLineItem[]): SharedCategory[] {
  const owner = new Map<string, { index: number; name: string }>();
  const found: SharedCategory[] = [];
  items.forEach((item, index) => {
    const own = new Set<string>();
    for (const raw of item.relatedCategories) {
      const category = raw.trim();
      if (!category) continue;
      const key = categoryKeyOf(category);
      if (own.has(key)) continue;
      own.add(key);
      const first = owner.get(key);
      if (first === undefined) owner.set(key, { index, name: item.name.trim() });
      else found.push({ category, firstIndex: first.index, firstName: first.name, index, name: item.name.trim() });
    }
  });
  return found;
}

/** "Category 'Groceries' is already related to line item 'Food'; a category can belong to one line item of a budget" */
export function sharedCategoryMessage(shared: Pick<SharedCategory, 'category' | 'firstName'>): string {
  return `Category '${shared.category}' is already related to line item '${shared.firstName}'; a category can belong to one line item of a budget`;
}
