/**
 * Amounts up to MAX_AMOUNT_CENTS (10^13 cents) are stored and read back exactly on both
 * databases: transactions, budgets, line items and account balances, written over the API and
 * by a CSV import, read through search, the account register, the budget overview and the CSV
 * export. (On PostgreSQL the money columns were 32-bit `int`: anything over 21,474,836.47 failed.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AMOUNT_CENTS } from '../../src/shared/limits';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

const MAX = MAX_AMOUNT_CENTS - 1; // 99,999,999,999.99
const BIG_DEBIT = -5_000_000_000; // -50,000,000.00
const IMPORTED = -12_345_678_901; // -123,456,789.01
const BALANCE = 3_000_000_000_000; // 30,000,000,000.00
const BUDGET = 7_000_000_000_000; // 70,000,000,000.00
const LINE_ITEM = 8_000_000_000_000; // 80,000,000,000.00
const RANGE = 'start_date=2024-05-01&end_date=2024-05-31';

let server: TestServer;
let user: ApiUser;
let accountId: number;
let budgetId: number;

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  accountId = ok<{ id: number }>(
    await user.post('/api/accounts', { name: 'Vault', type: 'savings', balance: BALANCE }),
  ).id;
  ok(
    await user.post('/api/transactions', {
      postDate: '2024-05-02',
      description: 'Windfall',
      amount: MAX,
      account: 'Vault',
      category: 'Income',
    }),
  );
  ok(
    await user.post('/api/transactions', {
      postDate: '2024-05-03',
      description: 'Yacht',
      amount: BIG_DEBIT,
      account: 'Vault',
      category: 'Toys',
    }),
  );
  const body = new FormData();
  body.append(
    'file',
    new Blob(['Date,Description,Amount,Category\n2024-05-04,Island,-123456789.01,Toys\n']),
    'statement.csv',
  );
  body.append('account', 'Vault');
  body.append('transactionType', 'debit');
  const imported = await rest(server.url, 'POST', '/api/upload', { token: user.token, body });
  expect(imported.status, JSON.stringify(imported.body)).toBe(201);
  budgetId = ok<{ id: number }>(
    await user.post('/api/budgets', { name: 'May', startDate: '2024-05-01', endDate: '2024-05-31', amount: BUDGET }),
  ).id;
  ok(
    await user.post('/api/line-items', {
      budgetId,
      name: 'Toys',
      amount: LINE_ITEM,
      type: 'Variable',
      relatedCategories: ['Toys'],
    }),
  );
});
afterAll(async () => {
  await server.close();
});

describe('amounts beyond 32 bits', () => {
  it('come back exactly from search', async () => {
    const rows = ok<TransactionDto[]>(await user.get(`/api/transactions?${RANGE}`));
    expect(Object.fromEntries(rows.map((r) => [r.description, r.amount]))).toEqual({
      Windfall: MAX,
      Yacht: BIG_DEBIT,
      Island: IMPORTED,
    });
    for (const r of rows) expect(typeof r.amount).toBe('number');
  });

  it('come back exactly from the account register, with exact running balances', async () => {
    const accounts = ok<{ id: number; balance: number }[]>(await user.get('/api/accounts'));
    // The opening balance plus every row.
    const total = BALANCE + MAX + BIG_DEBIT + IMPORTED;
    expect(accounts.find((a) => a.id === accountId)?.balance).toBe(total);
    const rows = ok<{ description: string; amount: number; runningBalance: number }[]>(
      await user.get(`/api/accounts/${accountId}/register`),
    );
    expect(rows.map((r) => [r.description, r.amount, r.runningBalance])).toEqual([
      ['Island', IMPORTED, total],
      ['Yacht', BIG_DEBIT, total - IMPORTED],
      ['Windfall', MAX, BALANCE + MAX],
    ]);
  });

  it('come back exactly from the budget overview', async () => {
    const answer = ok<{
      budget: { amount: number };
      lineItems: { name: string; amount: number }[];
      overview: { lineItems: { name: string; budgeted: number; actual: number }[]; total: number };
    }>(await user.get(`/api/budgets/${budgetId}/overview`));
    expect(answer.budget.amount).toBe(BUDGET);
    expect(answer.lineItems.map((l) => [l.name, l.amount])).toEqual([['Toys', LINE_ITEM]]);
    expect(answer.overview.lineItems.map((l) => [l.name, l.budgeted, l.actual])).toEqual([
      ['Toys', LINE_ITEM, -(BIG_DEBIT + IMPORTED)],
    ]);
    expect(answer.overview.total).toBe(MAX + BIG_DEBIT + IMPORTED);
  });

  it('come back exactly from the CSV export', async () => {
    const res = await fetch(`${server.url}/api/transactions/export.csv?${RANGE}`, {
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text).toContain('2024-05-02,Windfall,99999999999.99,');
    expect(text).toContain('2024-05-03,Yacht,-50000000.00,');
    expect(text).toContain('2024-05-04,Island,-123456789.01,');
  });
});
