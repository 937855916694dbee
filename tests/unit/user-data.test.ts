import { describe, expect, it } from 'vitest';
import { userDataDocumentSchema, userDataProblems, type UserDataDocument } from '../../src/shared/schemas/user-data';

/** A small consistent document: one account, two categories, a split of -10.00 into -6.00 and -4.00. */
function doc(): UserDataDocument {
  const tx = (id: number, amount: number, extra: Partial<UserDataDocument['transactions'][number]> = {}) => ({
    id,
    postDate: '2024-01-02',
    description: `row ${id}`,
    amount,
    type: 'debit' as const,
    accountId: 1,
    categoryId: 10,
    isSplit: false,
    parentId: null,
    splitNote: null,
    batchId: null,
    ...extra,
  });
  return {
    format: 'budget-tracker',
    version: 1,
    accounts: [{ id: 1, name: 'Main', type: 'checking', balance: 0 }],
    categories: [
      { id: 10, name: 'Food' },
      { id: 11, name: 'Fun' },
    ],
    batches: [
      {
        id: 'b1',
        accountId: 1,
        uploadDate: '2024-01-03T00:00:00.000Z',
        transactionCount: 1,
        fileName: 'a.csv',
        dateFormat: 'YYYY-MM-DD',
      },
    ],
    transactions: [
      tx(100, -1000, { isSplit: true, batchId: 'b1' }),
      tx(101, -600, { parentId: 100 }),
      tx(102, -400, { parentId: 100, categoryId: 11 }),
    ],
    budgets: [
      {
        id: 5,
        name: 'Jan',
        startDate: '2024-01-01',
        endDate: '2024-01-31',
        amount: 0,
        lineItems: [{ id: 7, name: 'Food', amount: 100, type: 'Variable', relatedCategories: ['Food'] }],
      },
    ],
    envelopes: [{ id: 3, name: 'E', description: null, categories: ['Fun'], color: '#4CAF50', isActive: true }],
  };
}

type Doc = ReturnType<typeof doc>;
const messages = (d: Doc) => userDataProblems(d).map((p) => `${p.path.join('.')}: ${p.message}`);

describe('userDataProblems', () => {
  it('finds nothing wrong with a consistent document, and the schema takes it', () => {
    expect(messages(doc())).toEqual([]);
    expect(userDataDocumentSchema.safeParse(doc()).success).toBe(true);
  });

  it.each<[string, (d: Doc) => void, string]>([
    [
      'a newer version',
      (d) => (d.version = 3),
      'version: 3 was written by a newer Budget Tracker; this one reads version 1',
    ],
    [
      'an unknown account',
      (d) => (d.transactions[0].accountId = 9),
      'transactions.0.accountId: refers to no account (9)',
    ],
    [
      'an unknown category',
      (d) => (d.transactions[2].categoryId = 99),
      'transactions.2.categoryId: refers to no category (99)',
    ],
    [
      'an unknown batch',
      (d) => (d.transactions[0].batchId = 'nope'),
      'transactions.0.batchId: refers to no batch (nope)',
    ],
    [
      'a batch of an unknown account',
      (d) => (d.batches[0].accountId = 4),
      'batches.0.accountId: refers to no account (4)',
    ],
    ['a duplicate id', (d) => (d.transactions[2].id = 101), 'transactions.2.id: 101 appears twice'],
    [
      'a duplicate name in any case',
      (d) => (d.categories[1].name = 'FOOD'),
      "categories.1.name: 'FOOD' appears twice (names are compared regardless of case)",
    ],
    [
      'parts not summing to the parent',
      (d) => (d.transactions[2].amount = -401),
      'transactions.0: split of transaction 100: Split amounts must sum to 10.00',
    ],
    [
      'a part on another date',
      (d) => (d.transactions[1].postDate = '2024-01-05'),
      "transactions.1: a split part shares its parent's date, account and type (parent 100)",
    ],
    [
      'a part of a row that is not split',
      (d) => (d.transactions[0].isSplit = false),
      'transactions.1.parentId: transaction 100 is not a split parent',
    ],
    [
      'a part that is split itself',
      (d) => (d.transactions[1].isSplit = true),
      'transactions.1.isSplit: a split part cannot itself be split',
    ],
    [
      'a budget ending before it starts',
      (d) => (d.budgets[0].endDate = '2023-12-31'),
      'budgets.0.endDate: Start date must not be after end date',
    ],
    [
      'import profiles',
      (d) => (d.importProfiles = [{}]),
      'importProfiles: cannot be restored by this version of Budget Tracker yet; nothing was restored',
    ],
  ])('names %s', (_name, spoil, message) => {
    const d = doc();
    spoil(d);
    expect(messages(d)).toContain(message);
    expect(userDataDocumentSchema.safeParse(d).success).toBe(false);
  });

  it('accepts a split parent whose parts are gone, and empty reserved sections', () => {
    const d = doc();
    d.transactions = [d.transactions[0]];
    d.importProfiles = [];
    d.rules = [];
    expect(messages(d)).toEqual([]);
  });

  it('names at most 20 problems and says there are more', () => {
    const d = doc();
    d.transactions = Array.from({ length: 40 }, (_, i) => ({
      ...d.transactions[1],
      id: 1000 + i,
      parentId: null,
      accountId: 99,
    }));
    const found = messages(d);
    expect(found).toHaveLength(21);
    expect(found.at(-1)).toBe(': and more problems');
  });
});
