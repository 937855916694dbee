import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  computeBudgetOverview,
  groupOverviewTransactions,
  overviewFromGroups,
  type OverviewLineItem,
  type OverviewTransaction,
} from '../../src/shared/budget';
import { LINE_ITEM_TYPES } from '../../src/shared/schemas/budgets';
import { TRANSACTION_TYPES } from '../../src/shared/schemas/transactions';

/**
 * The overview the server builds from SQL groups (overviewFromGroups) equals the reference,
 * computeBudgetOverview over every row, on generated rows: split parents and parts, categories
 * in any case and spacing, uncategorised rows, categories related to several line items, types
 * outside the list, dates and ids in any mix.
 */
const CATEGORIES = [null, 'Food', ' food ', 'FOOD', 'Rent', 'Fun', 'Salary', 'Other'];
type Row = OverviewTransaction & { postDate: string };

const rowsArb = fc
  .array(
    fc.record({
      day: fc.integer({ min: 1, max: 9 }),
      amount: fc.integer({ min: -50_000, max: 50_000 }),
      category: fc.constantFrom(...CATEGORIES),
      type: fc.constantFrom(...TRANSACTION_TYPES, 'legacy'),
      kind: fc.constantFrom('plain', 'plain', 'parent', 'part'),
    }),
    { maxLength: 60 },
  )
  .chain((specs) =>
    fc
      .shuffledSubarray(
        specs.map((_, i) => i + 1),
        { minLength: specs.length, maxLength: specs.length },
      )
      .map((ids) => ({ specs, ids })),
  )
  .map(({ specs, ids }) => {
    const rows: Row[] = specs.map((spec, i) => ({
      id: ids[i] ?? i + 1,
      postDate: `2024-01-0${spec.day}`,
      amount: spec.amount,
      category: spec.category,
      type: spec.type as Row['type'],
      isSplit: spec.kind === 'parent',
      parentTransactionId: spec.kind === 'part' ? 1000 + i : null,
    }));
    // The server's list order: newest first, then highest id first.
    return rows.sort((a, b) => (a.postDate !== b.postDate ? (a.postDate < b.postDate ? 1 : -1) : b.id - a.id));
  });

const itemsArb = fc.array(
  fc.record({
    name: fc.constantFrom('A', 'B', 'C'),
    amount: fc.integer({ min: 0, max: 100_000 }),
    type: fc.constantFrom(...LINE_ITEM_TYPES),
    relatedCategories: fc.subarray(['food', 'Rent ', 'FUN', 'Uncategorized', 'salary', 'Nothing']),
  }),
  { maxLength: 5 },
);

describe('overviewFromGroups', () => {
  it('equals computeBudgetOverview of the same rows', () => {
    fc.assert(
      fc.property(rowsArb, itemsArb, (rows, specs) => {
        const items: OverviewLineItem[] = specs.map((spec, i) => ({ id: i + 1, ...spec }));
        const { groups, countedRows } = groupOverviewTransactions(rows);
        expect(overviewFromGroups(groups, countedRows, items)).toEqual(computeBudgetOverview(rows, items));
      }),
      { numRuns: 300 },
    );
  });

  it('lists a line item’s ids in list order across its categories and types', () => {
    const rows: Row[] = [
      {
        id: 3,
        postDate: '2024-01-09',
        amount: -1,
        category: 'Rent',
        type: 'debit',
        isSplit: false,
        parentTransactionId: null,
      },
      {
        id: 9,
        postDate: '2024-01-05',
        amount: 5,
        category: 'Food',
        type: 'credit',
        isSplit: false,
        parentTransactionId: null,
      },
      {
        id: 4,
        postDate: '2024-01-05',
        amount: -2,
        category: 'rent',
        type: 'debit',
        isSplit: false,
        parentTransactionId: null,
      },
      {
        id: 8,
        postDate: '2024-01-01',
        amount: -3,
        category: 'FOOD',
        type: 'debit',
        isSplit: false,
        parentTransactionId: null,
      },
    ];
    const items: OverviewLineItem[] = [
      { id: 1, name: 'Home', amount: 0, type: 'Fixed', relatedCategories: ['food', 'rent'] },
    ];
    const { groups, countedRows } = groupOverviewTransactions(rows);
    const overview = overviewFromGroups(groups, countedRows, items);
    expect(overview.lineItems[0]?.transactionIds).toEqual([3, 9, 4, 8]);
    expect(overview.lineItems[0]?.actual).toBe(1);
  });
});
