import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { findSharedCategories, sharedCategoryMessage } from '../../src/shared/budget';

const item = (name: string, ...relatedCategories: string[]) => ({ name, relatedCategories });

describe('findSharedCategories', () => {
  it.each([
    ['none shared', [item('Food', 'Groceries', 'Dining'), item('Home', 'Rent')], []],
    ['repeated in one item only', [item('Food', 'Groceries', 'groceries ')], []],
    [
      'shared regardless of case and blanks',
      [item('Food', 'Groceries'), item('Variable', 'Coffee', ' GROCERIES ')],
      [{ category: 'GROCERIES', firstIndex: 0, firstName: 'Food', index: 1, name: 'Variable' }],
    ],
    [
      'Uncategorized counts like any category',
      [item('Misc', 'Uncategorized'), item('Other', 'uncategorized')],
      [{ category: 'uncategorized', firstIndex: 0, firstName: 'Misc', index: 1, name: 'Other' }],
    ],
    [
      'a third item repeating it names the first owner',
      [item('A', 'x'), item('B', 'X'), item('C', 'x')],
      [
        { category: 'X', firstIndex: 0, firstName: 'A', index: 1, name: 'B' },
        { category: 'x', firstIndex: 0, firstName: 'A', index: 2, name: 'C' },
      ],
    ],
    ['blank names are ignored', [item('A', ' ', ''), item('B', ' ')], []],
  ])('%s', (_label, items, expected) => {
    expect(findSharedCategories(items)).toEqual(expected);
  });

  it('words the refusal with the category and the line item that has it', () => {
    expect(sharedCategoryMessage({ category: 'Groceries', firstName: 'Food' })).toBe(
      "Category 'Groceries' is already related to line item 'Food'; a category can belong to one line item of a budget",
    );
  });

  it('finds nothing exactly when every category key belongs to one item', () => {
    const names = fc.constantFrom('Food', 'food', 'Rent', 'Pay', 'Gym', 'Uncategorized', 'GYM ');
    fc.assert(
      fc.property(fc.array(fc.array(names, { maxLength: 4 }), { maxLength: 5 }), (lists) => {
        const items = lists.map((list, i) => item(`Item ${i}`, ...list));
        const owners = new Map<string, Set<number>>();
        lists.forEach((list, i) =>
          list.forEach((name) =>
            owners.set(name.trim().toLowerCase(), (owners.get(name.trim().toLowerCase()) ?? new Set()).add(i)),
          ),
        );
        const shared = [...owners.values()].some((set) => set.size > 1);
        expect(findSharedCategories(items).length > 0).toBe(shared);
      }),
    );
  });
});
