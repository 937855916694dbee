/**
 * Categories can be tidied (renamed, given a kind, hidden, merged, deleted with their uses moved)
 * and accounts can be kept off the plan, over REST and tRPC on a real server: every transaction,
 * split part, rule, line item, envelope and schedule keeps its link, and a refusal changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryDto } from '../../src/shared/schemas/categories';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function categories(user: ApiUser): Promise<CategoryDto[]> {
  return ok<CategoryDto[]>(await user.get('/api/categories'));
}

async function categoryId(user: ApiUser, name: string): Promise<number> {
  const found = (await categories(user)).find((category) => category.name === name);
  if (!found) throw new Error(`no category ${name}`);
  return found.id;
}

async function transactions(user: ApiUser): Promise<TransactionDto[]> {
  return ok(await user.get('/api/transactions?start_date=1900-01-01&end_date=2100-12-31'));
}

/** A household whose category 'Food' is used by a transaction, a split part, a rule, a line item, an envelope and a schedule. */
async function household(): Promise<{ user: ApiUser; food: number; budget: number; parentId: number }> {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  const tx = { account: 'Checking', postDate: '2024-03-05' };
  ok(await user.post('/api/transactions', { ...tx, description: 'Shop', amount: -2500, category: 'food' }));
  ok(await user.post('/api/transactions', { ...tx, description: 'Bakery', amount: -700, category: 'Eating out' }));
  const parent = ok<TransactionDto>(
    await user.post('/api/transactions', { ...tx, description: 'Market', amount: -1000 }),
  );
  ok(
    await user.post(`/api/transactions/${parent.id}/split`, {
      splits: [
        { amount: -400, category: 'Food' },
        { amount: -600, category: 'Home' },
      ],
    }),
  );
  ok(
    await user.post('/api/rules', {
      name: 'Shops',
      conditions: [{ field: 'description', op: 'contains', value: 'shop' }],
      actions: { category: 'FOOD' },
    }),
  );
  const budget = ok<{ id: number }>(
    await user.post('/api/budgets', { name: 'March', startDate: '2024-03-01', endDate: '2024-03-31' }),
  ).id;
  ok(
    await user.post('/api/line-items', {
      budgetId: budget,
      name: 'Groceries',
      amount: -30000,
      relatedCategories: ['food', 'Home'],
    }),
  );
  ok(await user.post('/api/envelopes', { name: 'Eating', categories: ['Food', 'Eating out'] }));
  ok(
    await user.post('/api/schedules', {
      name: 'Veg box',
      account: 'Checking',
      description: 'Veg box',
      amount: -1500,
      category: 'Food',
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1',
      mode: 'expect',
      startDate: '2024-01-01',
    }),
  );
  return { user, food: await categoryId(user, 'food'), budget, parentId: parent.id };
}

/** Everything that names a category, as the user's own lists show it. */
async function references(user: ApiUser, budget: number) {
  const txs = (await transactions(user)).sort((a, b) => a.amount - b.amount);
  return {
    transactions: txs.filter((row) => row.parentTransactionId === null && !row.isSplit).map((row) => row.category),
    parts: txs.filter((row) => row.parentTransactionId !== null).map((row) => row.category),
    rules: ok<{ actions: { category?: string } }[]>(await user.get('/api/rules')).map((rule) => rule.actions.category),
    lineItems: ok<{ relatedCategories: string[] }[]>(await user.get(`/api/budgets/${budget}/line-items`)).map(
      (item) => item.relatedCategories,
    ),
    envelopes: ok<{ categories: string[] }[]>(await user.get('/api/envelopes')).map((e) => e.categories),
    schedules: ok<{ category: string | null }[]>(await user.get('/api/schedules')).map((s) => s.category),
  };
}

describe('a category', () => {
  it('is an expense category, shown, never rolling, without a target, until told otherwise', async () => {
    const user = await signUp(server.url);
    const created = ok<CategoryDto>(await user.post('/api/categories', { name: 'Rent' }));
    expect(created).toEqual({
      id: created.id,
      name: 'Rent',
      kind: 'expense',
      hidden: false,
      rollsOverspendingFrom: null,
      target: null,
    });
    const salary = ok<CategoryDto>(await user.post('/api/categories', { name: 'Salary', kind: 'income' }));
    expect(salary.kind).toBe('income');
    expect(await categories(user)).toEqual([created, salary]);
  });

  it('takes a kind, hidden, the month overspending rolls over from and each kind of target', async () => {
    const user = await signUp(server.url);
    const id = ok<CategoryDto>(await user.post('/api/categories', { name: 'Car' })).id;
    const targets = [
      { type: 'monthly', amount: 5000 },
      { type: 'refill', amount: 20000 },
      { type: 'byDate', amount: 120000, date: '2025-06-30' },
    ] as const;
    for (const target of targets) {
      const changed = ok<CategoryDto>(
        await user.put(`/api/categories/${id}`, { target, rollsOverspendingFrom: '2024-02' }),
      );
      expect(changed.target).toEqual(target);
      expect(changed.rollsOverspendingFrom).toBe('2024-02');
    }
    const viaTrpc = data(
      await user.trpc.categories.update.mutate({
        id,
        data: { kind: 'income', hidden: true, target: null, rollsOverspendingFrom: null },
      }),
    );
    expect(viaTrpc).toEqual({
      id,
      name: 'Car',
      kind: 'income',
      hidden: true,
      rollsOverspendingFrom: null,
      target: null,
    });
    expect(await categories(user)).toEqual([viaTrpc]);
  });

  it.each([
    [{ kind: 'savings' }, 'kind: must be one of income, expense'],
    [{ hidden: 'yes' }, 'hidden must be true or false'],
    [{ rollsOverspendingFrom: '2024-13' }, 'rollsOverspendingFrom: must be a month in YYYY-MM format'],
    [{ rollsOverspendingFrom: '2024-02-01' }, 'rollsOverspendingFrom: must be a month in YYYY-MM format'],
    [{ target: { type: 'weekly', amount: 100 } }, 'target'],
    [{ target: { type: 'byDate', amount: 100 } }, 'target.date'],
    [{ target: { type: 'monthly', amount: -100 } }, 'target.amount: must be more than zero'],
    [{ target: { type: 'monthly', amount: 1e15 } }, 'target.amount: must be a whole number of cents'],
    [{ name: '' }, 'Category name is required'],
    [{ name: 'uncategorized' }, 'is reserved'],
    [{ colour: 'red' }, 'colour'],
  ])('refuses %j with a 400 naming the problem, changing nothing', async (body, message) => {
    const user = await signUp(server.url);
    const before = ok<CategoryDto>(await user.post('/api/categories', { name: 'Car' }));
    const res = await user.put(`/api/categories/${before.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    expect(await categories(user)).toEqual([before]);
  });

  it('answers 404 for a category that is not there', async () => {
    const user = await signUp(server.url);
    expect((await user.put('/api/categories/999999', { name: 'x' })).status).toBe(404);
    expect((await user.get('/api/categories/999999/usage')).status).toBe(404);
    expect((await user.del('/api/categories/999999')).status).toBe(404);
  });
});

describe('renaming a category', () => {
  it('carries every transaction, split part, rule, line item, envelope and schedule with it', async () => {
    const { user, food, budget } = await household();
    const renamed = ok<CategoryDto>(await user.put(`/api/categories/${food}`, { name: 'Groceries' }));
    expect(renamed).toMatchObject({ id: food, name: 'Groceries' });
    expect(await references(user, budget)).toEqual({
      transactions: ['Groceries', 'Eating out'],
      parts: ['Home', 'Groceries'],
      rules: ['Groceries'],
      lineItems: [['Groceries', 'Home']],
      envelopes: [['Groceries', 'Eating out']],
      schedules: ['Groceries'],
    });
  });

  it('may change only the letter case, and refuses a name another category has in any case (409)', async () => {
    const { user, food, budget } = await household();
    expect(ok<CategoryDto>(await user.put(`/api/categories/${food}`, { name: 'FOOD' })).name).toBe('FOOD');
    const before = await references(user, budget);
    const clash = await user.put(`/api/categories/${food}`, { name: 'eating OUT' });
    expect(clash.status).toBe(409);
    expect(clash.body.error).toBe("Category 'Eating out' already exists");
    expect(await references(user, budget)).toEqual(before);
  });
});

describe('merging a category into another', () => {
  it('moves everything that used it and removes it, saying what moved', async () => {
    const { user, food, budget } = await household();
    const home = await categoryId(user, 'Home');
    expect(ok(await user.get(`/api/categories/${food}/usage`))).toEqual({
      transactions: 2,
      rules: 1,
      lineItems: 1,
      envelopes: 1,
      schedules: 1,
      planMonths: 0,
    });
    const merged = ok<{ category: CategoryDto; moved: Record<string, number> }>(
      await user.post(`/api/categories/${food}/merge`, { into: home }),
    );
    expect(merged.category.name).toBe('Home');
    expect(merged.moved).toEqual({
      transactions: 2,
      rules: 1,
      lineItems: 1,
      envelopes: 1,
      schedules: 1,
      planMonths: 0,
    });
    expect((await categories(user)).map((c) => c.name)).toEqual(['Eating out', 'Home']);
    expect(await references(user, budget)).toEqual({
      transactions: ['Home', 'Eating out'],
      parts: ['Home', 'Home'],
      rules: ['Home'],
      lineItems: [['Home']],
      envelopes: [['Home', 'Eating out']],
      schedules: ['Home'],
    });
  });

  it('refuses itself (400), an unknown or another user’s category (404), changing nothing', async () => {
    const { user, food, budget } = await household();
    const stranger = await signUp(server.url);
    const theirs = ok<CategoryDto>(await stranger.post('/api/categories', { name: 'Theirs' })).id;
    const before = [await categories(user), await references(user, budget)];
    const self = await user.post(`/api/categories/${food}/merge`, { into: food });
    expect(self.status).toBe(400);
    expect(self.body.error).toContain('into: a category cannot be merged into itself');
    for (const into of [999999, theirs]) {
      const res = await user.post(`/api/categories/${food}/merge`, { into });
      expect(res.status).toBe(404);
      expect(res.body.error).toBe(`into: category ${into} not found`);
    }
    expect((await user.post(`/api/categories/${food}/merge`, { into: 'Home' })).status).toBe(400);
    expect([await categories(user), await references(user, budget)]).toEqual(before);
  });

  it('works the same over tRPC', async () => {
    const { user, food, budget } = await household();
    const home = await categoryId(user, 'Home');
    expect(data(await user.trpc.categories.usage.query({ id: food })).transactions).toBe(2);
    const merged = data(await user.trpc.categories.merge.mutate({ id: food, into: home }));
    expect(merged.moved.transactions).toBe(2);
    expect((await references(user, budget)).parts).toEqual(['Home', 'Home']);
  });
});

describe('deleting a category', () => {
  it('refuses while anything refers to it (409 naming what), changing nothing', async () => {
    const { user, food, budget } = await household();
    const before = [await categories(user), await references(user, budget)];
    const res = await user.del(`/api/categories/${food}`);
    expect(res.status).toBe(409);
    expect(res.body.error).toBe(
      "Category 'food' is still used by 2 transactions, 1 rule, 1 line item, 1 envelope, 1 schedule; name another category with ?reassignTo= to move them",
    );
    const viaTrpc = await user.trpc.categories.delete.mutate({ id: food });
    expect(viaTrpc.error?.data.httpStatus).toBe(409);
    expect([await categories(user), await references(user, budget)]).toEqual(before);
  });

  it('with ?reassignTo= moves everything to that category first', async () => {
    const { user, food, budget } = await household();
    const eatingOut = await categoryId(user, 'Eating out');
    const res = await user.del(`/api/categories/${food}?reassignTo=${eatingOut}`);
    expect(ok(res)).toEqual({ message: "Category 'food' deleted; what used it now uses 'Eating out'" });
    const refs = await references(user, budget);
    expect(refs.transactions).toEqual(['Eating out', 'Eating out']);
    expect(refs.envelopes).toEqual([['Eating out']]);
    expect(refs.lineItems).toEqual([['Eating out', 'Home']]);
  });

  it('refuses reassigning to itself (400) or to an unknown category (404), changing nothing', async () => {
    const { user, food, budget } = await household();
    const before = [await categories(user), await references(user, budget)];
    const self = await user.del(`/api/categories/${food}?reassignTo=${food}`);
    expect(self.status).toBe(400);
    expect(self.body.error).toContain('reassignTo');
    const unknown = await user.del(`/api/categories/${food}?reassignTo=999999`);
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toBe('reassignTo: category 999999 not found');
    expect((await user.del(`/api/categories/${food}?reassignTo=abc`)).status).toBe(400);
    expect([await categories(user), await references(user, budget)]).toEqual(before);
  });

  it('deletes a category nothing uses', async () => {
    const user = await signUp(server.url);
    const id = ok<CategoryDto>(await user.post('/api/categories', { name: 'Spare' })).id;
    expect(ok(await user.del(`/api/categories/${id}`))).toEqual({ message: "Category 'Spare' deleted" });
    expect(await categories(user)).toEqual([]);
  });
});

describe('accounts on and off the plan', () => {
  it('are on the plan by default, investment accounts off, and either can be changed', async () => {
    const user = await signUp(server.url);
    const checking = ok<{ id: number; onBudget: boolean }>(
      await user.post('/api/accounts', { name: 'Checking', type: 'checking' }),
    );
    const broker = ok<{ id: number; onBudget: boolean }>(
      await user.post('/api/accounts', { name: 'Broker', type: 'investment' }),
    );
    const savings = ok<{ id: number; onBudget: boolean }>(
      await user.post('/api/accounts', { name: 'Savings', type: 'savings', onBudget: false }),
    );
    expect([checking.onBudget, broker.onBudget, savings.onBudget]).toEqual([true, false, false]);
    expect(ok<{ onBudget: boolean }>(await user.put(`/api/accounts/${broker.id}`, { onBudget: true })).onBudget).toBe(
      true,
    );
    const viaTrpc = data(await user.trpc.accounts.update.mutate({ id: checking.id, data: { onBudget: false } }));
    expect(viaTrpc.onBudget).toBe(false);
    const listed = ok<{ name: string; onBudget: boolean }[]>(await user.get('/api/accounts'));
    expect(listed.map((a) => [a.name, a.onBudget])).toEqual([
      ['Broker', true],
      ['Checking', false],
      ['Savings', false],
    ]);
    const bad = await user.put(`/api/accounts/${broker.id}`, { onBudget: 'no' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('onBudget must be true or false');
  });
});
