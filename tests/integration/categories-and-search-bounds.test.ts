/**
 * Rules that every path must read the same way, over HTTP on a real server.
 * - 'Uncategorized' (any letter case) is reserved: no path creates a category so named;
 *   in an import it means no category; in filters, budgets and envelopes it means no category.
 * - A category is related to one line item of a budget at most.
 * - Search bounds are magnitudes (Min -150, Max -50 finds sizes 50 to 150).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, testDatabase, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function userWithAccount(): Promise<ApiUser> {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  return user;
}

async function addTx(user: ApiUser, body: Record<string, unknown>): Promise<TransactionDto> {
  return ok(await user.post('/api/transactions', { account: 'Checking', postDate: '2024-03-05', ...body }));
}

async function all(user: ApiUser): Promise<TransactionDto[]> {
  return ok(await user.get('/api/transactions?start_date=1900-01-01&end_date=2100-12-31'));
}

async function categoryNames(user: ApiUser): Promise<string[]> {
  return ok<{ name: string }[]>(await user.get('/api/categories')).map((c) => c.name);
}

const SPELLINGS = ['Uncategorized', 'uncategorized', 'UNCATEGORIZED', '  UnCategorized  '];

describe("the reserved category name 'Uncategorized'", () => {
  it.each(SPELLINGS)('refuses creating the category %j over REST and tRPC, naming the problem', async (name) => {
    const user = await signUp(server.url);
    const res = await user.post('/api/categories', { name });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe(
      `'${name.trim()}' is reserved for transactions without a category: choose another name`,
    );
    expect(res.body.message).toBe(res.body.error);
    const viaTrpc = await user.trpc.categories.create.mutate({ name });
    expect(viaTrpc.error?.data.httpStatus).toBe(400);
    expect(viaTrpc.error?.message).toContain('is reserved for transactions without a category');
    expect(await categoryNames(user)).toEqual([]);
    // A name that merely contains it is fine.
    expect((await user.post('/api/categories', { name: 'Uncategorized bills' })).status).toBe(201);
  });

  it('refuses it on transaction create, edit, bulk edit and split, changing nothing', async () => {
    const user = await userWithAccount();
    const coffee = await addTx(user, { description: 'Coffee', amount: -450, category: 'Dining' });
    const tea = await addTx(user, { description: 'Tea', amount: -300 });
    const before = await all(user);

    const created = await user.post('/api/transactions', {
      postDate: '2024-03-06',
      description: 'Lunch',
      amount: -900,
      category: 'UNCATEGORIZED',
    });
    expect(created.status).toBe(400);
    expect(created.body.error).toBe(
      "'UNCATEGORIZED' is reserved for transactions without a category: leave the category empty instead",
    );
    const viaTrpc = await user.trpc.transactions.create.mutate({
      postDate: '2024-03-06',
      description: 'Lunch',
      amount: -900,
      category: 'uncategorized',
    });
    expect(viaTrpc.error?.data.httpStatus).toBe(400);

    const edited = await user.put(`/api/transactions/${coffee.id}`, {
      category: 'Uncategorized',
      description: 'Coffee beans',
    });
    expect(edited.status).toBe(400);
    const bulk = await user.put('/api/transactions/bulk', {
      transactionIds: [coffee.id, tea.id],
      updates: { category: ' uncategorized ', type: 'charge' },
    });
    expect(bulk.status).toBe(400);
    const split = await user.post(`/api/transactions/${coffee.id}/split`, {
      splits: [
        { amount: -200, category: 'Dining' },
        { amount: -250, category: 'Uncategorized' },
      ],
    });
    expect(split.status).toBe(400);
    expect(split.body.error).toContain("'Uncategorized' is reserved");

    expect(await all(user)).toEqual(before);
    expect(await categoryNames(user)).toEqual(['Dining']);
    // No category at all is still how a transaction goes without one.
    expect(ok(await user.put(`/api/transactions/${coffee.id}`, { category: null })).category).toBeNull();
  });

  it('an imported row in category Uncategorized is stored without a category, and found as uncategorized', async () => {
    const user = await userWithAccount();
    const csv =
      'Date,Description,Amount,Category\n2024-03-01,Kiosk,-2.50,Uncategorized\n2024-03-02,Bakery,-3.10,UNCATEGORIZED\n2024-03-03,Market,-9.99,Groceries\n';
    const body = new FormData();
    body.append('file', new Blob([csv]), 'statement.csv');
    body.append('account', 'Checking');
    body.append('transactionType', 'debit');
    const res = await rest(server.url, 'POST', '/api/upload', { token: user.token, body });
    expect(res.status).toBe(201);
    expect(await categoryNames(user)).toEqual(['Groceries']);
    const rows = await all(user);
    expect(Object.fromEntries(rows.map((tx) => [tx.description, tx.category]))).toEqual({
      Kiosk: null,
      Bakery: null,
      Market: 'Groceries',
    });
    const found: TransactionDto[] = ok(
      await user.get('/api/transactions?start_date=2024-03-01&end_date=2024-03-31&categories=Uncategorized'),
    );
    expect(found.map((tx) => tx.description).sort()).toEqual(['Bakery', 'Kiosk']);
  });

  it('means no category alike in search, envelopes and the budget overview', async () => {
    const user = await userWithAccount();
    await addTx(user, { description: 'Cash', amount: -4000 });
    await addTx(user, { description: 'Coffee', amount: -450, category: 'Dining' });
    const found: TransactionDto[] = ok(
      await user.get('/api/transactions?start_date=2024-03-01&end_date=2024-03-31&categories=uncategorized'),
    );
    expect(found.map((tx) => tx.description)).toEqual(['Cash']);
    const envelope = ok(await user.post('/api/envelopes', { name: 'Loose cash', categories: ['Uncategorized'] }));
    expect(envelope).toMatchObject({ transactionCount: 1, total: -4000 });
    const saved = ok(
      await user.post('/api/budgets/save', {
        name: 'March',
        startDate: '2024-03-01',
        endDate: '2024-03-31',
        lineItems: [{ name: 'Misc', amount: 5000, type: 'Variable' as const, relatedCategories: ['UNCATEGORIZED'] }],
      }),
    );
    const overview = ok(await user.get(`/api/budgets/${saved.budget.id}/overview`));
    expect(overview.overview.lineItems[0]).toMatchObject({ name: 'Misc', actual: 4000, transactionCount: 1 });
  });

  // The migration runs again on SQLite (the only dialect whose databases predate it).
  it.skipIf(testDatabase !== 'sqlite')(
    'an upgrade turns a category stored as Uncategorized into no category',
    async () => {
      const user = await userWithAccount();
      const tx = await addTx(user, { description: 'Old row', amount: -100, category: 'Legacy' });
      const em = server.app.orm.em.fork();
      const connection = em.getConnection();
      await connection.execute(
        "update category set name = 'UNCATEGORIZED', name_key = 'uncategorized' where user_id = ?",
        [user.userId],
        'run',
      );
      expect((await all(user))[0].category).toBe('UNCATEGORIZED');
      // Run the migration again, as an upgrade from a database that had such a category would.
      const migration = 'Migration20261123183932_reserve_uncategorized';
      await connection.execute('delete from mikro_orm_migrations where name = ?', [migration], 'run');
      await server.app.orm.migrator.up({ migrations: [migration] });
      expect(await categoryNames(user)).toEqual([]);
      const [after] = await all(user);
      expect(after).toMatchObject({ id: tx.id, category: null, description: 'Old row', amount: -100 });
    },
  );
});

describe('a category belongs to one line item of a budget', () => {
  const groceries = {
    name: 'Food',
    amount: 40000,
    type: 'Variable' as const,
    relatedCategories: ['Groceries', 'Dining'],
  };

  it('refuses a save that relates a category to two line items, naming both, and saves nothing', async () => {
    const user = await signUp(server.url);
    const res = await user.post('/api/budgets/save', {
      name: 'March',
      startDate: '2024-03-01',
      endDate: '2024-03-31',
      lineItems: [
        groceries,
        { name: 'Variable', amount: 10000, type: 'Variable' as const, relatedCategories: ['Coffee', ' groceries '] },
      ],
    });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(
      "Category 'groceries' is already related to line item 'Food'; a category can belong to one line item of a budget",
    );
    expect(ok(await user.get('/api/budgets'))).toEqual([]);
    const viaTrpc = await user.trpc.budgets.save.mutate({
      name: 'March',
      startDate: '2024-03-01',
      endDate: '2024-03-31',
      lineItems: [groceries, { name: 'Other', amount: 1, relatedCategories: ['DINING'] }],
    });
    expect(viaTrpc.error?.data.httpStatus).toBe(409);
    expect(viaTrpc.error?.message).toContain("Category 'DINING' is already related to line item 'Food'");
  });

  it('checks against the stored line items on create, update and save, and allows moving a category', async () => {
    const user = await signUp(server.url);
    const saved = data(
      await user.trpc.budgets.save.mutate({
        name: 'March',
        startDate: '2024-03-01',
        endDate: '2024-03-31',
        lineItems: [groceries, { name: 'Fun', amount: 5000, type: 'Variable' as const, relatedCategories: ['Cinema'] }],
      }),
    );
    const budgetId = saved.budget.id;
    const [food, fun] = saved.lineItems;

    const created = await user.post('/api/line-items', {
      budgetId,
      name: 'Treats',
      amount: 100,
      relatedCategories: ['dining'],
    });
    expect(created.status).toBe(409);
    expect(created.body.error).toContain("Category 'dining' is already related to line item 'Food'");
    const updated = await user.put(`/api/line-items/${fun.id}`, { relatedCategories: ['Cinema', 'Groceries'] });
    expect(updated.status).toBe(409);
    expect(updated.body.error).toContain("line item 'Food'");
    // A save that leaves Food untouched still sees its categories.
    const partial = await user.post('/api/budgets/save', {
      id: budgetId,
      name: 'March',
      startDate: '2024-03-01',
      endDate: '2024-03-31',
      lineItems: [
        { id: fun.id, name: 'Fun', amount: 5000, type: 'Variable' as const, relatedCategories: ['Cinema', 'Dining'] },
      ],
    });
    expect(partial.status).toBe(409);
    const items = ok(await user.get(`/api/line-items/${budgetId}`));
    expect(items.map((i: { relatedCategories: string[] }) => i.relatedCategories)).toEqual([
      ['Groceries', 'Dining'],
      ['Cinema'],
    ]);

    // Moving Dining from Food to Fun in one save is fine; so is the same category in another budget.
    const moved = ok(
      await user.post('/api/budgets/save', {
        id: budgetId,
        name: 'March',
        startDate: '2024-03-01',
        endDate: '2024-03-31',
        lineItems: [
          { id: food.id, name: 'Food', amount: 40000, type: 'Variable' as const, relatedCategories: ['Groceries'] },
          { id: fun.id, name: 'Fun', amount: 5000, type: 'Variable' as const, relatedCategories: ['Cinema', 'Dining'] },
        ],
      }),
    );
    expect(moved.lineItems.map((i: { relatedCategories: string[] }) => i.relatedCategories)).toEqual([
      ['Groceries'],
      ['Cinema', 'Dining'],
    ]);
    const other = ok(
      await user.post('/api/budgets', { name: 'April', startDate: '2024-04-01', endDate: '2024-04-30' }),
    );
    expect(
      (
        await user.post('/api/line-items', {
          budgetId: other.id,
          name: 'Food',
          amount: 1,
          relatedCategories: ['Groceries'],
        })
      ).status,
    ).toBe(201);
    // Deleting the owner in the same save frees the category.
    const freed = await user.post('/api/budgets/save', {
      id: budgetId,
      name: 'March',
      startDate: '2024-03-01',
      endDate: '2024-03-31',
      lineItems: [
        {
          id: fun.id,
          name: 'Fun',
          amount: 5000,
          type: 'Variable' as const,
          relatedCategories: ['Cinema', 'Dining', 'Groceries'],
        },
      ],
      deletedLineItemIds: [food.id],
    });
    expect(freed.status).toBe(200);
  });
});

describe('search bounds are magnitudes', () => {
  it('Min -150 and Max -50 find the amounts of size 50 to 150, of either sign', async () => {
    const user = await userWithAccount();
    for (const [description, amount] of [
      ['Too small', -4999],
      ['Low edge', -5000],
      ['Middle', -9900],
      ['Refund', 7500],
      ['High edge', -15000],
      ['Too big', -15001],
    ] as const) {
      await addTx(user, { description, amount });
    }
    const expected = ['High edge', 'Low edge', 'Middle', 'Refund'];
    for (const [min, max] of [
      ['-150', '-50'],
      ['150', '50'],
      ['-50', '150'],
      ['50', '-150'],
    ]) {
      const rows: TransactionDto[] = ok(
        await user.get(
          `/api/transactions?start_date=2024-01-01&end_date=2024-12-31&min_amount=${min}&max_amount=${max}`,
        ),
      );
      expect(rows.map((tx) => tx.description).sort(), `${min}..${max}`).toEqual(expected);
    }
    const viaTrpc = data(
      await user.trpc.transactions.list.query({
        startDate: '2024-01-01',
        endDate: '2024-12-31',
        minAmount: -15000,
        maxAmount: -5000,
      }),
    );
    expect(viaTrpc.map((tx) => tx.description).sort()).toEqual(expected);
  });
});
