import { describe, expect, it } from 'vitest';
import { DEFAULT_SORT, nextSort, sortTransactions, type SortState } from '../../src/client/components/transactions/sort';
import { isSplitMember, mergeById, removeByIds } from '../../src/client/lib/transactions';
import type { TransactionDto } from '../../src/shared/schemas/transactions';

let nextId = 1;
function tx(overrides: Partial<TransactionDto> = {}): TransactionDto {
  return {
    id: nextId++,
    postDate: '2024-01-01',
    description: 'Row',
    amount: -100,
    account: null,
    bank_account_id: null,
    category: null,
    categorySource: null,
    type: 'debit',
    isSplit: false,
    parentTransactionId: null,
    splitNote: null,
    batchId: null,
    ...overrides,
  };
}

const a = tx({ postDate: '2024-01-02', description: 'banana', amount: -500, category: 'Food', account: 'Checking', type: 'debit' });
const b = tx({ postDate: '2024-01-03', description: 'Apple', amount: 2500, category: null, account: 'savings', type: 'credit' });
const c = tx({ postDate: '2024-01-01', description: 'cherry', amount: -10, category: 'fuel', account: null, type: 'charge' });
const d = tx({ postDate: '2024-01-03', description: 'apple', amount: -10, category: 'Bills', account: 'Checking', type: 'transfer' });
const rows = [a, b, c, d];
const ids = (list: TransactionDto[]) => list.map((row) => row.id);

describe('sortTransactions', () => {
  it.each<[string, SortState, TransactionDto[]]>([
    ['default: newest date first, ties newest id first', DEFAULT_SORT, [d, b, a, c]],
    ['date ascending, ties by id', { key: 'postDate', direction: 'asc' }, [c, a, b, d]],
    ['amount ascending (money out first)', { key: 'amount', direction: 'asc' }, [a, c, d, b]],
    ['amount descending', { key: 'amount', direction: 'desc' }, [b, d, c, a]],
    ['description ignores case', { key: 'description', direction: 'asc' }, [b, d, a, c]],
    ['category ascending, empty last', { key: 'category', direction: 'asc' }, [d, a, c, b]],
    ['category descending, empty still last', { key: 'category', direction: 'desc' }, [c, a, d, b]],
    ['account ascending, empty last', { key: 'account', direction: 'asc' }, [a, d, b, c]],
    ['type ascending', { key: 'type', direction: 'asc' }, [c, b, a, d]],
  ])('%s', (_name, sort, expected) => {
    expect(ids(sortTransactions(rows, sort))).toEqual(ids(expected));
  });

  it('does not mutate its input', () => {
    const input = [...rows];
    sortTransactions(input, { key: 'amount', direction: 'asc' });
    expect(input).toEqual(rows);
  });

  it('sorts 20,000 rows quickly', () => {
    const many = Array.from({ length: 20_000 }, (_, i) =>
      tx({ postDate: `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`, description: `Row ${(i * 7919) % 20_000}`, amount: ((i * 31) % 9973) - 5000 }),
    );
    const started = performance.now();
    for (const key of ['postDate', 'description', 'amount', 'category', 'type', 'account'] as const) {
      const sorted = sortTransactions(many, { key, direction: 'asc' });
      expect(sorted).toHaveLength(20_000);
    }
    expect(performance.now() - started).toBeLessThan(1500);
  });
});

describe('nextSort', () => {
  it.each<[SortState, Parameters<typeof nextSort>[1], SortState]>([
    [DEFAULT_SORT, 'postDate', { key: 'postDate', direction: 'asc' }],
    [{ key: 'postDate', direction: 'asc' }, 'postDate', { key: 'postDate', direction: 'desc' }],
    [DEFAULT_SORT, 'description', { key: 'description', direction: 'asc' }],
    [DEFAULT_SORT, 'amount', { key: 'amount', direction: 'desc' }],
    [{ key: 'category', direction: 'asc' }, 'category', { key: 'category', direction: 'desc' }],
  ])('%o then %s gives %o', (current, key, expected) => {
    expect(nextSort(current, key)).toEqual(expected);
  });
});

describe('mergeById and removeByIds', () => {
  it('merges one row or many by id, keeping order and ignoring unknown ids', () => {
    const changed = { ...b, category: 'Income' };
    expect(mergeById(rows, changed)).toEqual([a, changed, c, d]);
    const unknown = tx();
    expect(mergeById(rows, [{ ...d, type: 'debit' }, unknown, { ...a, amount: 1 }])).toEqual([{ ...a, amount: 1 }, b, c, { ...d, type: 'debit' }]);
  });

  it('answers the same list when nothing changed', () => {
    expect(mergeById(rows, [])).toBe(rows);
    expect(mergeById(rows, [a])).toBe(rows);
    expect(removeByIds(rows, [])).toBe(rows);
    expect(removeByIds(rows, [999_999])).toBe(rows);
  });

  it('removes rows by id', () => {
    expect(removeByIds(rows, [b.id, d.id])).toEqual([a, c]);
    expect(removeByIds(rows, new Set([a.id]))).toEqual([b, c, d]);
  });

  it('knows split members', () => {
    expect(isSplitMember(tx({ isSplit: true }))).toBe(true);
    expect(isSplitMember(tx({ parentTransactionId: 4 }))).toBe(true);
    expect(isSplitMember(tx())).toBe(false);
  });
});
