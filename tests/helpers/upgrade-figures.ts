import { createHash } from 'node:crypto';

/**
 * The figures an upgrade must keep, read through the REST API only (so the same function
 * works against any release): counts and sums per account, every split with its parts, every
 * batch, budget overview and envelope, and a digest of every transaction. A release writes them
 * beside its fixture database (scripts/upgrade-fixture.ts); tests/integration/upgrade.test.ts
 * reads them again from the current code started on a copy of that database.
 */
export type ApiGet = <T = any>(path: string) => Promise<T>;

interface Tx {
  id: number;
  postDate: string;
  description: string;
  amount: number;
  account: string | null;
  category: string | null;
  type: string;
  isSplit: boolean;
  parentTransactionId: number | null;
  splitNote: string | null;
  batchId: string | null;
}

function digest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

function sum(values: number[]): number {
  return values.reduce((total, value) => total + value, 0);
}

export interface UserFigures {
  username: string;
  accounts: { id: number; name: string; type: string; balance: number; count: number; sum: number }[];
  categories: string[];
  transactions: {
    count: number;
    sum: number;
    countedCount: number;
    countedSum: number;
    withoutAccount: number;
    uncategorized: number;
    digest: string;
  };
  splits: {
    parentId: number;
    amount: number;
    parts: { id: number; amount: number; category: string | null; splitNote: string | null }[];
  }[];
  batches: {
    batchId: string;
    transactionCount: number;
    account: string | null;
    fileName: string | null;
    rows: number;
  }[];
  budgets: { id: number; name: string; startDate: string; endDate: string; lineItems: unknown[]; overview: unknown }[];
  envelopes: {
    name: string;
    categories: string[];
    color: string;
    isActive: boolean;
    transactionCount: number;
    total: number;
  }[];
}

const LATER_OVERVIEW_FIELDS = new Set(['currency', 'noRate']);

export async function collectFigures(username: string, get: ApiGet): Promise<UserFigures> {
  const all = await get<Tx[]>('/api/transactions?start_date=1900-01-01&end_date=9999-12-31');
  const counted = all.filter((tx) => !tx.isSplit);
  const accounts = await get<{ id: number; name: string; type: string; balance: number }[]>('/api/accounts');
  const categories = await get<{ name: string }[]>('/api/categories');
  const batches = await get<
    { batchId: string; transactionCount: number; account: string | null; fileName: string | null }[]
  >('/api/transactions/batches/list');
  const budgets = await get<{ id: number; name: string; startDate: string; endDate: string }[]>('/api/budgets');
  const envelopes = await get<
    {
      name: string;
      categories: string[];
      color: string;
      isActive: boolean;
      transactionCount: number;
      total: number;
    }[]
  >('/api/envelopes');

  const rows = [...all]
    .sort((a, b) => a.id - b.id)
    .map((tx) => [
      tx.id,
      tx.postDate,
      tx.description,
      tx.amount,
      tx.account,
      tx.category,
      tx.type,
      tx.isSplit,
      tx.parentTransactionId,
      tx.splitNote,
      tx.batchId,
    ]);
  const parents = all.filter((tx) => tx.isSplit).sort((a, b) => a.id - b.id);
  const budgetFigures = [];
  for (const budget of [...budgets].sort((a, b) => a.id - b.id)) {
    const answer = await get<{
      lineItems: unknown[];
      overview: { lineItems: { transactionIds: number[] }[]; untracked: { transactionIds: number[] } };
    }>(`/api/budgets/${budget.id}/overview`);
    // Transaction ids are kept as a digest: the fixture's JSON stays small. The figures a release recorded:
    // fields added to the overview later (its currency, the rows without a rate) are not part of them.
    const withoutIds = JSON.parse(
      JSON.stringify(answer.overview, (key, value: unknown) =>
        key === 'transactionIds'
          ? digest([...(value as number[])].sort((a, b) => a - b))
          : LATER_OVERVIEW_FIELDS.has(key)
            ? undefined
            : value,
      ),
    );
    budgetFigures.push({
      id: budget.id,
      name: budget.name,
      startDate: budget.startDate,
      endDate: budget.endDate,
      lineItems: answer.lineItems,
      overview: withoutIds,
    });
  }
  const batchFigures = [];
  for (const batch of batches) {
    const batchRows = await get<Tx[]>(`/api/transactions/batches/${batch.batchId}/transactions`);
    batchFigures.push({
      batchId: batch.batchId,
      transactionCount: batch.transactionCount,
      account: batch.account,
      fileName: batch.fileName,
      rows: batchRows.length,
    });
  }
  return {
    username,
    accounts: accounts.map((account) => {
      const own = all.filter((tx) => tx.account === account.name);
      // The figures a release recorded: fields added to accounts later are not part of them.
      return {
        id: account.id,
        name: account.name,
        type: account.type,
        balance: account.balance,
        count: own.length,
        sum: sum(own.filter((tx) => !tx.isSplit).map((tx) => tx.amount)),
      };
    }),
    categories: categories.map((c) => c.name),
    transactions: {
      count: all.length,
      sum: sum(all.map((tx) => tx.amount)),
      countedCount: counted.length,
      countedSum: sum(counted.map((tx) => tx.amount)),
      withoutAccount: all.filter((tx) => tx.account === null).length,
      uncategorized: all.filter((tx) => tx.category === null).length,
      digest: digest(rows),
    },
    splits: parents.map((parent) => ({
      parentId: parent.id,
      amount: parent.amount,
      parts: all
        .filter((tx) => tx.parentTransactionId === parent.id)
        .sort((a, b) => a.id - b.id)
        .map((tx) => ({ id: tx.id, amount: tx.amount, category: tx.category, splitNote: tx.splitNote })),
    })),
    batches: batchFigures.sort((a, b) => a.batchId.localeCompare(b.batchId)),
    budgets: budgetFigures,
    envelopes: envelopes.map(({ name, categories: names, color, isActive, transactionCount, total }) => ({
      name,
      categories: names,
      color,
      isActive,
      transactionCount,
      total,
    })),
  };
}
