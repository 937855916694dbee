/**
 * A large "all my data" document, as GET /api/export writes one after years of use: a few accounts, categories
 * and batches, and `transactions` rows of which about a third are split parents with two parts each. With
 * `partsFirst`, every split's parts come before their parent (a document written by hand or another tool);
 * `unbalanced` makes every split's parts miss their parent's amount by a cent. The JSON is about 270 bytes a row
 * (more with `descriptionLength`).
 */
export interface LargeExportOptions {
  transactions: number;
  partsFirst?: boolean;
  unbalanced?: boolean;
  /** Each description padded to this many characters (a bank's long texts), so the rows weigh more. */
  descriptionLength?: number;
  /** Transfers that all link its first two transactions (refused, but only once all are read and checked). */
  repeatedTransfers?: number;
}

const CREATED = '2024-01-01T09:30:00.000Z';

function day(i: number): string {
  return `${2016 + (i % 9)}-${String((i % 12) + 1).padStart(2, '0')}-${String((i % 28) + 1).padStart(2, '0')}`;
}

function transactionRows(options: LargeExportOptions): object[] {
  const rows: object[] = [];
  let id = 1;
  while (rows.length < options.transactions) {
    const accountId = (id % 3) + 1;
    const base = {
      postDate: day(id),
      description: `Card payment ${id % 900} at shop ${id % 700} ref ${id}`.padEnd(
        options.descriptionLength ?? 0,
        '.x',
      ),
      amount: -((id % 5000) + 300),
      type: 'debit',
      accountId,
      categoryId: (id % 8) + 1,
      categorySource: 'user',
      isSplit: false,
      parentId: null,
      splitNote: null,
      batchId: `batch-${accountId}`,
      createdAt: CREATED,
    };
    if (id % 3 === 0 && rows.length + 3 <= options.transactions) {
      const parent = { ...base, id, categoryId: null, categorySource: null, isSplit: true };
      const first = { ...base, id: id + 1, amount: -100, parentId: id, splitNote: 'first part' };
      const second = {
        ...base,
        id: id + 2,
        amount: base.amount + 100 + (options.unbalanced ? 1 : 0),
        parentId: id,
        categoryId: ((id + 1) % 8) + 1,
      };
      if (options.partsFirst) rows.push(first, second, parent);
      else rows.push(parent, first, second);
      id += 3;
    } else {
      rows.push({ ...base, id });
      id += 1;
    }
  }
  return rows;
}

/** The document as JSON text. */
export function largeExportJson(options: LargeExportOptions): string {
  const accounts = ['Checking', 'Savings', 'Card'].map((name, i) => ({
    id: i + 1,
    name,
    type: i === 2 ? 'credit' : 'checking',
    balance: 0,
    openingBalance: 0,
    openingDate: '2015-12-31',
    applySuggestions: true,
    createdAt: CREATED,
  }));
  const categories = ['Groceries', 'Fuel', 'Dining', 'Rent', 'Travel', 'Books', 'Garden', 'Pets'].map((name, i) => ({
    id: i + 1,
    name,
    createdAt: CREATED,
  }));
  const batches = accounts.map((account) => ({
    id: `batch-${account.id}`,
    accountId: account.id,
    uploadDate: CREATED,
    transactionCount: 0,
    fileName: `${account.name.toLowerCase()}.csv`,
    dateFormat: 'YYYY-MM-DD',
  }));
  return JSON.stringify({
    format: 'budget-tracker',
    version: 1,
    exportedAt: CREATED,
    accounts,
    categories,
    batches,
    transactions: transactionRows(options),
    budgets: [
      {
        id: 1,
        name: 'Household',
        startDate: '2024-01-01',
        endDate: '2024-12-31',
        amount: 300000,
        createdAt: CREATED,
        lineItems: [{ id: 1, name: 'Food', amount: 50000, type: 'Variable', relatedCategories: ['Groceries'] }],
      },
    ],
    envelopes: [],
    rules: [],
    schedules: [],
    transfers: Array.from({ length: options.repeatedTransfers ?? 0 }, (_, i) => ({
      id: i + 1,
      transactionIds: [1, 2],
      origin: 'linked',
      createdAt: CREATED,
    })),
    transferCandidates: [],
  });
}
