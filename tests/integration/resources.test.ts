import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { data, ok, signUp } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe('categories', () => {
  it('creates trimmed names, refuses duplicates regardless of case and empty names, lists by name', async () => {
    const user = await signUp(server.url);
    const created = await user.post('/api/categories', { name: '  Groceries ' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: expect.any(Number), name: 'Groceries' });
    const dup = await user.post('/api/categories', { name: 'groceries' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe("Category 'Groceries' already exists");
    const empty = await user.post('/api/categories', { name: '   ' });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('Category name is required');
    ok(await user.post('/api/categories', { name: 'auto' }));
    expect(ok(await user.get('/api/categories')).map((c: { name: string }) => c.name)).toEqual(['auto', 'Groceries']);
    expect(data(await user.trpc.categories.list.query())).toHaveLength(2);
    expect((await user.trpc.categories.create.mutate({ name: '' })).error?.message).toContain(
      'Category name is required',
    );
  });
});

describe('accounts', () => {
  it('creates, lists, updates and deletes; refuses duplicates, bad types and deleting an account in use', async () => {
    const user = await signUp(server.url);
    const res = await user.post('/api/accounts', { name: 'Main', type: 'checking', balance: 123456 });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      id: expect.any(Number),
      name: 'Main',
      type: 'checking',
      currency: 'USD',
      balance: 123456,
      openingBalance: 123456,
      openingDate: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
      applySuggestions: true,
      lastImport: null,
    });
    expect(ok(await user.post('/api/accounts', { name: 'Wallet', type: 'cash' })).balance).toBe(0);
    expect((await user.post('/api/accounts', { name: 'MAIN', type: 'savings' })).status).toBe(409);
    const badType = await user.post('/api/accounts', { name: 'X', type: 'crypto' });
    expect(badType.status).toBe(400);
    expect(badType.body.error).toContain('type');
    expect((await user.post('/api/accounts', { name: 'X', type: 'cash', balance: 1.25 })).status).toBe(400);

    const id = res.body.id;
    expect(ok(await user.put(`/api/accounts/${id}`, { name: 'Main checking', balance: -5 }))).toMatchObject({
      name: 'Main checking',
      balance: -5,
    });
    expect(ok(await user.get('/api/accounts')).map((a: { name: string }) => a.name)).toEqual([
      'Main checking',
      'Wallet',
    ]);

    ok(
      await user.post('/api/transactions', {
        postDate: '2024-01-01',
        description: 'x',
        amount: -1,
        account: 'Main checking',
      }),
    );
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-01-02',
        description: 'y',
        amount: -1,
        account: 'Main checking',
      }),
    );
    const inUse = await user.del(`/api/accounts/${id}`);
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toContain('still has 2 transactions');
    const wallet = ok(await user.get('/api/accounts')).find((a: { name: string }) => a.name === 'Wallet');
    ok(await user.del(`/api/accounts/${wallet.id}`));
    expect(ok(await user.get('/api/accounts'))).toHaveLength(1);
  });
});

describe('budgets and line items', () => {
  it('creates with amount 0, updates, lists line items, deletes with its line items', async () => {
    const user = await signUp(server.url);
    const created = await user.post('/api/budgets', { name: 'March', startDate: '2024-03-01', endDate: '2024-03-31' });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'March',
      startDate: '2024-03-01',
      endDate: '2024-03-31',
      amount: 0,
    });
    const budgetId = created.body.id;
    expect(
      (await user.post('/api/budgets', { name: 'Bad', startDate: '2024-04-01', endDate: '2024-03-01' })).status,
    ).toBe(400);
    expect((await user.put(`/api/budgets/${budgetId}`, { endDate: '2024-02-01' })).status).toBe(400);
    expect(ok(await user.put(`/api/budgets/${budgetId}`, { name: 'March 2024' })).name).toBe('March 2024');

    const item = await user.post('/api/line-items', {
      budgetId,
      name: 'Food',
      amount: 40000,
      relatedCategories: ['Groceries', ' dining ', 'GROCERIES'],
    });
    expect(item.status).toBe(201);
    expect(item.body).toEqual({
      id: expect.any(Number),
      budgetId,
      name: 'Food',
      amount: 40000,
      type: 'Variable',
      relatedCategories: ['Groceries', 'dining'],
    });
    expect((await user.post('/api/line-items', { budgetId, name: 'X', amount: 1, type: 'Weekly' })).status).toBe(400);
    expect(ok(await user.put(`/api/line-items/${item.body.id}`, { type: 'Fixed', amount: 1 }))).toMatchObject({
      type: 'Fixed',
      amount: 1,
    });
    ok(await user.post('/api/line-items', { budgetId, name: 'Pay', amount: 500000, type: 'Income' }));
    expect(ok(await user.get(`/api/line-items/${budgetId}`))).toHaveLength(2);
    ok(await user.del(`/api/line-items/${item.body.id}`));
    expect(ok(await user.get(`/api/line-items/${budgetId}`))).toHaveLength(1);

    ok(await user.del(`/api/budgets/${budgetId}`));
    expect(ok(await user.get('/api/budgets'))).toEqual([]);
    expect((await user.get(`/api/line-items/${budgetId}`)).status).toBe(404);
    const left = await server.sql('select count(*) as n from line_item where user_id = ?', [user.userId]);
    expect(Number(left[0].n)).toBe(0);
  });

  it('saves a budget with all its line items in one transaction, or nothing', async () => {
    const user = await signUp(server.url);
    const saved = data(
      await user.trpc.budgets.save.mutate({
        name: 'Year',
        startDate: '2024-01-01',
        endDate: '2024-12-31',
        lineItems: [
          { name: 'Rent', amount: 120000, type: 'Fixed', relatedCategories: ['Rent'] },
          { name: 'Food', amount: 50000, relatedCategories: ['Groceries'] },
        ],
      }),
    );
    expect(saved.budget).toMatchObject({ name: 'Year', amount: 0 });
    expect(saved.lineItems.map((i: { type: string }) => i.type)).toEqual(['Fixed', 'Variable']);
    const [rent, food] = saved.lineItems;

    const refused = await user.trpc.budgets.save.mutate({
      id: saved.budget.id,
      name: 'Renamed',
      startDate: '2024-01-01',
      endDate: '2024-12-31',
      lineItems: [
        { id: rent.id, name: 'Rent', amount: 1, type: 'Fixed', relatedCategories: [] },
        { id: 999999, name: 'Ghost', amount: 1 },
      ],
    });
    expect(refused.error?.data.httpStatus).toBe(404);
    const unchanged = data(await user.trpc.budgets.lineItems.query({ budgetId: saved.budget.id }));
    expect(unchanged.find((i) => i.id === rent.id)?.amount).toBe(120000);
    expect(data(await user.trpc.budgets.list.query())[0].name).toBe('Year');

    const edited = data(
      await user.trpc.budgets.save.mutate({
        id: saved.budget.id,
        name: 'Renamed',
        startDate: '2024-01-01',
        endDate: '2024-12-31',
        lineItems: [
          { id: rent.id, name: 'Rent', amount: 130000, type: 'Fixed', relatedCategories: ['Rent'] },
          { name: 'Pay', amount: 400000, type: 'Income' },
        ],
        deletedLineItemIds: [food.id],
      }),
    );
    expect(edited.budget.name).toBe('Renamed');
    expect(edited.lineItems.map((i: { name: string; amount: number }) => [i.name, i.amount])).toEqual([
      ['Rent', 130000],
      ['Pay', 400000],
    ]);
  });

  it('answers the overview from the shared module, counting parts and never split parents', async () => {
    const user = await signUp(server.url);
    const budget = ok(await user.post('/api/budgets', { name: 'May', startDate: '2024-05-01', endDate: '2024-05-31' }));
    ok(
      await user.post('/api/line-items', {
        budgetId: budget.id,
        name: 'Pay',
        amount: 300000,
        type: 'Income',
        relatedCategories: ['salary'],
      }),
    );
    ok(
      await user.post('/api/line-items', {
        budgetId: budget.id,
        name: 'Food',
        amount: 50000,
        type: 'Variable',
        relatedCategories: ['Groceries'],
      }),
    );
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-05-02',
        description: 'Pay',
        amount: 310000,
        category: 'Salary',
      }),
    );
    const shop = ok(
      await user.post('/api/transactions', { postDate: '2024-05-03', description: 'Shop', amount: -12000 }),
    );
    ok(
      await user.post(`/api/transactions/${shop.id}/split`, {
        splits: [
          { amount: -8000, category: 'groceries' },
          { amount: -4000, category: 'Fun' },
        ],
      }),
    );
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-06-01',
        description: 'Outside',
        amount: -1,
        category: 'Groceries',
      }),
    );
    const result = ok(await user.get(`/api/budgets/${budget.id}/overview`));
    expect(result.transactions).toHaveLength(4);
    expect(result.overview.total).toBe(310000 - 12000);
    const byName = Object.fromEntries(
      result.overview.lineItems.map((i: { name: string; actual: number }) => [i.name, i.actual]),
    );
    expect(byName).toEqual({ Pay: 310000, Food: 8000 });
    expect(result.overview.untracked).toMatchObject({ id: -1, categories: ['fun'], actual: 4000 });
    expect(result.overview.actual.net).toBe(310000 - 8000);
    expect(result.overview.budgeted.net).toBe(300000 - 50000);
  });
});

describe('envelopes', () => {
  it('creates with defaults, links transactions by category in a range, updates and deletes', async () => {
    const user = await signUp(server.url);
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-01-05',
        description: 'Cinema',
        amount: -1500,
        category: 'Fun',
      }),
    );
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-02-05',
        description: 'Games',
        amount: -2500,
        category: 'fun',
      }),
    );
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-02-06',
        description: 'Refund',
        amount: 500,
        category: 'FUN',
      }),
    );
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-02-07',
        description: 'Rent',
        amount: -90000,
        category: 'Rent',
      }),
    );
    const created = await user.post('/api/envelopes', { name: 'Fun money', categories: ['Fun', ' '] });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Fun money',
      description: null,
      categories: ['Fun'],
      color: '#4CAF50',
      isActive: true,
      transactionCount: 3,
      total: -3500,
    });
    expect((await user.post('/api/envelopes', { name: '', categories: ['x'] })).body.error).toContain(
      'Envelope name is required',
    );
    expect((await user.post('/api/envelopes', { name: 'x', categories: [] })).body.error).toContain(
      'At least one category is required',
    );
    expect((await user.post('/api/envelopes', { name: 'x', categories: ['a'], color: 'green' })).status).toBe(400);

    const ranged = ok(await user.get('/api/envelopes?start_date=2024-02-01&end_date=2024-02-28'));
    expect(ranged[0]).toMatchObject({ transactionCount: 2, total: -2000 });
    expect(ranged[0].transactions.map((t: TransactionDto) => t.description)).toEqual(['Refund', 'Games']);

    const id = created.body.id;
    const updated = ok(
      await user.put(`/api/envelopes/${id}`, {
        isActive: false,
        color: '#2196f3',
        description: 'Weekends',
        categories: ['Fun', 'Rent'],
      }),
    );
    expect(updated).toMatchObject({ isActive: false, color: '#2196F3', description: 'Weekends', transactionCount: 4 });
    expect(ok(await user.put(`/api/envelopes/${id}`, { name: 'Renamed' })).description).toBe('Weekends');
    ok(await user.del(`/api/envelopes/${id}`));
    expect(ok(await user.get('/api/envelopes'))).toEqual([]);
    // deleting the envelope changed no transaction
    expect(ok(await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'))).toHaveLength(4);
  });
});
