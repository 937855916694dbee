import { describe, expect, it } from 'vitest';
import { countsText, layoutSplits, resultCounts } from '../../src/client/components/transactions/splitGroups';
import { filterSummary } from '../../src/client/features/transactions/filterSummary';
import { EMPTY_FORM } from '../../src/client/features/transactions/searchForm';

const row = (id: number, extra: { isSplit?: boolean; parentTransactionId?: number | null } = {}) => ({
  id,
  isSplit: extra.isSplit ?? false,
  parentTransactionId: extra.parentTransactionId ?? null,
});

describe('a split in the transaction list', () => {
  // Newest first, as the table sorts by default: parts (written after their original) come before it.
  const sorted = [
    row(9),
    row(12, { parentTransactionId: 5 }),
    row(11, { parentTransactionId: 5 }),
    row(13, { parentTransactionId: 5 }),
    row(8),
    row(5, { isSplit: true }),
    row(3),
    row(20, { parentTransactionId: 99 }),
  ];

  it('puts the parts right after their original, in the order written, other rows where the sort put them', () => {
    const layout = layoutSplits(sorted, new Set());
    expect(layout.rows.map((r) => r.id)).toEqual([9, 8, 5, 11, 12, 13, 3, 20]);
    expect([...layout.nested].sort()).toEqual([11, 12, 13]);
    expect(layout.partCounts.get(5)).toBe(3);
  });

  it('leaves a folded original’s parts out, and a part without its original in the list stays a row of its own', () => {
    const layout = layoutSplits(sorted, new Set([5]));
    expect(layout.rows.map((r) => r.id)).toEqual([9, 8, 5, 3, 20]);
    expect(layout.nested.size).toBe(0);
    expect(layout.partCounts.get(5)).toBe(3);
  });

  it('counts a split once and says how many parts it has; parts found without their original are named', () => {
    const counts = resultCounts(sorted);
    expect(counts).toEqual({ transactions: 5, splitParents: 1, parts: 3, looseParts: 1 });
    expect(countsText(counts)).toBe('5 transactions (1 split into 3 parts; 1 part of a split)');
    expect(countsText(resultCounts([row(1), row(2, { isSplit: true }), row(3, { parentTransactionId: 2 })]))).toBe(
      '2 transactions (1 split into 1 part)',
    );
    expect(countsText(resultCounts([row(1)]))).toBe('1 transaction');
    expect(countsText(resultCounts([]))).toBe('0 transactions');
  });
});

describe('the folded filters’ summary line', () => {
  const today = '2024-03-15';

  it('names the date preset, every narrowing filter and the count', () => {
    const form = { ...EMPTY_FORM, startDate: '2024-03-01', endDate: '2024-03-31', categories: ['Groceries'] };
    expect(filterSummary(form, {}, today, 191)).toBe('This month · Groceries · 191 found');
    const all = {
      ...form,
      startDate: '2024-01-02',
      endDate: '2024-02-29',
      categories: ['Groceries', 'Dining', 'Fuel', 'Rent'],
      account: 'Checking',
      description: ' coffee ',
      minAmount: '10',
      maxAmount: '',
      categorySource: 'suggested',
    };
    expect(filterSummary(all, { direction: 'out' }, today, null)).toBe(
      '2024-01-02 – 2024-02-29 · Groceries, Dining +2 · Suggested · Checking · “coffee” · Amount ≥ 10 · +1 from the link',
    );
    expect(filterSummary({ ...form, categories: [], maxAmount: '5' }, {}, today, 0)).toBe(
      'This month · Amount ≤ 5 · 0 found',
    );
  });
});
