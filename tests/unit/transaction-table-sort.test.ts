import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SORT,
  nextSort,
  sortTransactions,
  type SortState,
} from '../../src/client/components/transactions/sort';
import { QueryClient } from '@tanstack/react-query';
import { createTransactionCache } from '../../src/client/lib/transactionCache';
import { isSplitMember } from '../../src/client/lib/transactions';
import type { TransactionDto } from '../../src/shared/schemas/transactions';

let nextId = 1;
function tx(overrides: Partial<TransactionDto> = {}): TransactionDto {
  return {
    id: nextId++,
    postDate: '2024-01-01',
    description: 'Row',
    amount: -100,
    currency: null,
    originalAmount: null,
    originalCurrency: null,
    account: null,
    bank_account_id: null,
    category: null,
    categorySource: null,
    type: 'debit',
    isSplit: false,
    parentTransactionId: null,
    splitNote: null,
    memo: null,
    cleared: 'uncleared',
    batchId: null,
    transferId: null,
    transferCounterpartId: null,
    transferCounterpartAccount: null,
    accountOnBudget: false,
    transferCounterpartOnBudget: false,
    ...overrides,
  };
}

const a = tx({
  postDate: '2024-01-02',
  description: 'banana',
  amount: -500,
  category: 'Food',
  account: 'Checking',
  type: 'debit',
});
const b = tx({
  postDate: '2024-01-03',
  description: 'Apple',
  amount: 2500,
  category: null,
  account: 'savings',
  type: 'credit',
});
const c = tx({
  postDate: '2024-01-01',
  description: 'cherry',
  amount: -10,
  category: 'fuel',
  account: null,
  type: 'charge',
});
const d = tx({
  postDate: '2024-01-03',
  description: 'apple',
  amount: -10,
  category: 'Bills',
  account: 'Checking',
  type: 'transfer',
});
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

  it('sorts 20,000 rows by every column into order (its speed is in npm run bench)', () => {
    const many = Array.from({ length: 20_000 }, (_, i) =>
      tx({
        postDate: `2024-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`,
        description: `Row ${(i * 7919) % 20_000}`,
        amount: ((i * 31) % 9973) - 5000,
      }),
    );
    const byDate = sortTransactions(many, { key: 'postDate', direction: 'asc' });
    expect(byDate).toHaveLength(20_000);
    expect(byDate.every((row, i) => i === 0 || (byDate[i - 1]?.postDate ?? '') <= row.postDate)).toBe(true);
    const byAmount = sortTransactions(many, { key: 'amount', direction: 'desc' });
    expect(byAmount.every((row, i) => i === 0 || (byAmount[i - 1]?.amount ?? 0) >= row.amount)).toBe(true);
    for (const key of ['description', 'category', 'type', 'account'] as const) {
      expect(new Set(sortTransactions(many, { key, direction: 'asc' }))).toEqual(new Set(many));
    }
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

describe('the transaction cache (every cached list shows a changed row)', () => {
  function cacheWith(lists: Record<string, TransactionDto[]>, envelopes: TransactionDto[][]) {
    const queryClient = new QueryClient();
    for (const [input, list] of Object.entries(lists)) {
      queryClient.setQueryData([['transactions', 'list'], { input: JSON.parse(input), type: 'query' }], list);
    }
    queryClient.setQueryData(
      [['transactions', 'batchTransactions'], { input: { batchId: 'b1' }, type: 'query' }],
      [a, c],
    );
    queryClient.setQueryData(
      [['envelopes', 'list'], { input: {}, type: 'query' }],
      envelopes.map((transactions, i) => ({ id: i + 1, name: `E${i}`, transactions })),
    );
    const invalidated: string[] = [];
    const utils = {
      transactions: {
        invalidate: async () => void invalidated.push('transactions'),
        batches: { invalidate: async () => void invalidated.push('batches') },
      },
      envelopes: { list: { invalidate: async () => void invalidated.push('envelopes') } },
      reports: { invalidate: async () => void invalidated.push('reports') },
      accounts: {
        register: { invalidate: async () => void invalidated.push('register') },
        reconcile: { invalidate: async () => void invalidated.push('reconcile') },
      },
    };
    return { queryClient, invalidated, cache: createTransactionCache(queryClient, utils as never) };
  }
  const lists = (queryClient: QueryClient) =>
    [
      ['transactions', 'list'],
      ['transactions', 'batchTransactions'],
    ].flatMap((key) => queryClient.getQueriesData<TransactionDto[]>({ queryKey: [key] }).map(([, data]) => data));
  const envelopeRows = (queryClient: QueryClient) =>
    queryClient
      .getQueriesData<Array<{ transactions: TransactionDto[] }>>({ queryKey: [['envelopes', 'list']] })[0][1]!
      .map((e) => e.transactions);

  it('puts changed rows into every list that holds them, keeping order, ignoring unknown ids', () => {
    const { queryClient, cache } = cacheWith(
      { '{"startDate":"2024-01-01"}': rows, '{"startDate":"2023-01-01"}': [b] },
      [[a, b], [d]],
    );
    const changed = { ...a, category: 'Income' };
    cache.put([changed, tx()]);
    expect(lists(queryClient)).toEqual([[changed, b, c, d], [b], [changed, c]]);
    expect(envelopeRows(queryClient)).toEqual([[changed, b], [d]]);
  });

  it('takes deleted rows out of every list', () => {
    const { queryClient, cache } = cacheWith({ '{"startDate":"2024-01-01"}': rows }, [[a, b], [d]]);
    cache.remove([a.id, d.id]);
    expect(lists(queryClient)).toEqual([[b, c], [c]]);
    expect(envelopeRows(queryClient)).toEqual([[b], []]);
  });

  it('puts everything back from a snapshot (a refused optimistic change)', () => {
    const { queryClient, cache } = cacheWith({ '{"startDate":"2024-01-01"}': rows }, [[a, b]]);
    const before = cache.snapshot();
    cache.put([{ ...b, category: 'Wrong' }]);
    cache.remove([c.id]);
    cache.restore(before);
    expect(lists(queryClient)).toEqual([rows, [a, c]]);
    expect(envelopeRows(queryClient)).toEqual([[a, b]]);
  });

  it('fetches the lists again when more changed than the answer says', async () => {
    const { cache, invalidated } = cacheWith({}, []);
    await cache.refetch();
    expect(invalidated.sort()).toEqual(['envelopes', 'reconcile', 'register', 'reports', 'transactions']);
  });

  it('marks the figures computed from rows stale after a change the answer fully describes', async () => {
    const { cache, invalidated } = cacheWith({}, []);
    await cache.refreshTotals();
    expect(invalidated.sort()).toEqual(['batches', 'envelopes', 'reconcile', 'register', 'reports']);
  });
});

describe('split members', () => {
  it('knows split members', () => {
    expect(isSplitMember(tx({ isSplit: true }))).toBe(true);
    expect(isSplitMember(tx({ parentTransactionId: 4 }))).toBe(true);
    expect(isSplitMember(tx())).toBe(false);
  });
});

describe('sortTransactions on a kept list', () => {
  it('gives the same order the second time and in the other direction as a fresh sort would', () => {
    const list = [
      a,
      b,
      c,
      d,
      tx({ description: 'Apple', category: null, account: null }),
      tx({ description: 'apple', category: 'food' }),
    ];
    for (const key of ['postDate', 'description', 'amount', 'category', 'type', 'account'] as const) {
      const fresh = (direction: 'asc' | 'desc') => ids(sortTransactions([...list], { key, direction }));
      for (const direction of ['asc', 'desc', 'asc', 'desc'] as const) {
        expect(ids(sortTransactions(list, { key, direction })), `${key} ${direction}`).toEqual(fresh(direction));
      }
    }
  });

  it('answers a new array each time, so the caller may keep or change it', () => {
    const first = sortTransactions(rows, DEFAULT_SORT);
    first.pop();
    expect(sortTransactions(rows, DEFAULT_SORT)).toHaveLength(rows.length);
  });
});
