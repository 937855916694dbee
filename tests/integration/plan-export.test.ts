import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AccountDto } from '../../src/shared/schemas/accounts';
import type { CategoryDto } from '../../src/shared/schemas/categories';
import type { PlanDto } from '../../src/shared/schemas/plan';
import type { UserDataDocument } from '../../src/shared/schemas/user-data';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * The all-my-data export carries the plan: assigned amounts, moves, holds, each category's kind, hidden,
 * rollover month and target, and each account's place on the plan. Restored into a fresh user, every
 * month's plan answers the same figures; a document written before the plan still restores, with kinds
 * and on-plan flags as an upgrade would set them.
 */
let server: TestServer;
const MONTHS = ['2023-12', '2024-01', '2024-02', '2024-03', '2024-04', '2024-05', '2024-06', '2024-07'];

async function fill(user: ApiUser): Promise<void> {
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  ok(await user.post('/api/accounts', { name: 'Broker', type: 'investment' }));
  ok(await user.post('/api/accounts', { name: 'Side pot', type: 'savings', onBudget: false }));
  ok(await user.post('/api/categories', { name: 'Salary', kind: 'income' }));
  for (const name of ['Food', 'Rent', 'Fun', 'Old']) ok(await user.post('/api/categories', { name }));
  const ids = new Map(ok<CategoryDto[]>(await user.get('/api/categories')).map((c) => [c.name, c.id]));
  const id = (name: string) => ids.get(name)!;
  ok(
    await user.put(`/api/categories/${id('Food')}`, {
      rollsOverspendingFrom: '2024-02',
      target: { type: 'monthly', amount: 30_000 },
    }),
  );
  ok(
    await user.put(`/api/categories/${id('Rent')}`, {
      target: { type: 'byDate', amount: 240_000, date: '2024-06-30' },
    }),
  );
  ok(await user.put(`/api/categories/${id('Fun')}`, { target: { type: 'refill', amount: 10_000 } }));
  const tx = (postDate: string, amount: number, category: string, account = 'Checking') =>
    user.post('/api/transactions', { postDate, description: `${category} ${postDate}`, amount, category, account });
  for (const month of ['2024-01', '2024-02', '2024-03']) {
    ok(await tx(`${month}-01`, 250_000, 'Salary'));
    ok(await tx(`${month}-05`, -42_000, 'Food'));
    ok(await tx(`${month}-07`, -3_500, 'Fun'));
    ok(await tx(`${month}-09`, -99_999, 'Food', 'Broker'));
    ok(await tx(`${month}-10`, -5_000, 'Rent', 'Side pot'));
  }
  ok(await tx('2024-02-11', -1_200, 'Old'));
  ok(
    await user.post('/api/transactions', {
      postDate: '2024-02-12',
      description: 'Mystery',
      amount: -700,
      account: 'Checking',
    }),
  );
  ok(await user.put(`/api/categories/${id('Old')}`, { hidden: true }));
  for (const [month, name, amount] of [
    ['2024-01', 'Food', 30_000],
    ['2024-01', 'Rent', 80_000],
    ['2024-02', 'Fun', 5_000],
    ['2024-06', 'Rent', 10_000],
  ] as const)
    ok(await user.put(`/api/plan/${month}/assigned`, { category: id(name), amount }));
  ok(await user.post('/api/plan/2024-02/move', { from: id('Rent'), to: id('Food'), amount: 12_000 }));
  ok(await user.post('/api/plan/2024-02/move', { from: null, to: id('Fun'), amount: 1_000 }));
  ok(await user.post('/api/plan/2024-03/fill', { mode: 'targets' }));
  ok(await user.put('/api/plan/2024-03/hold', { amount: 20_000 }));
}

/** A month's plan with category ids replaced by names (a restore gives new ids). */
function byName(plan: PlanDto) {
  const names = new Map([...plan.categories, ...plan.incomeCategories].map((c) => [c.category, c.name]));
  const name = (id: number | null) => (id === null ? null : (names.get(id) ?? `unknown ${id}`));
  return {
    ...plan,
    categories: plan.categories.map(({ category: _id, ...rest }) => rest),
    incomeCategories: plan.incomeCategories.map(({ category: _id, ...rest }) => rest),
    overspentFrom: plan.overspentFrom.map(({ category: _id, ...rest }) => rest),
    moves: plan.moves.map(({ id: _id, from, to, ...rest }) => ({ ...rest, from: name(from), to: name(to) })),
  };
}

const withoutId = <T extends { id: number }>({ id: _id, ...rest }: T) => rest;

let owner: ApiUser;
let doc: UserDataDocument;

beforeAll(async () => {
  server = await startServer();
  owner = await signUp(server.url);
  await fill(owner);
  doc = ok<UserDataDocument>(await owner.get('/api/export'));
});
afterAll(async () => {
  await server.close();
});

describe('the plan in the export', () => {
  it('writes the assigned amounts, moves, holds, category settings and on-plan flags', () => {
    expect(doc.plan?.assigned.length).toBeGreaterThanOrEqual(5);
    expect(doc.plan?.moves.map((m) => m.amount)).toEqual([12_000, 1_000]);
    expect(doc.plan?.holds).toEqual([{ month: '2024-03', amount: 20_000 }]);
    const categories = new Map(doc.categories.map((c) => [c.name, c]));
    expect(categories.get('Salary')).toMatchObject({ kind: 'income', hidden: false, target: null });
    expect(categories.get('Food')).toMatchObject({
      kind: 'expense',
      rollsOverspendingFrom: '2024-02',
      target: { type: 'monthly', amount: 30_000 },
    });
    expect(categories.get('Rent')?.target).toEqual({ type: 'byDate', amount: 240_000, date: '2024-06-30' });
    expect(categories.get('Old')?.hidden).toBe(true);
    expect(doc.accounts.map((a) => [a.name, a.onBudget])).toEqual([
      ['Checking', true],
      ['Broker', false],
      ['Side pot', false],
    ]);
  });

  it('restores into a fresh user with the same plan in every month, and exports the same plan again', async () => {
    const copy = await signUp(server.url);
    const restored = await copy.post<{ imported: Record<string, number> }>('/api/import', doc);
    expect(restored.status).toBe(201);
    expect(restored.body.imported).toMatchObject({
      planAssigned: doc.plan?.assigned.length,
      planMoves: 2,
      planHolds: 1,
    });
    for (const month of MONTHS) {
      const [before, after] = [
        ok<PlanDto>(await owner.get(`/api/plan/${month}`)),
        ok<PlanDto>(await copy.get(`/api/plan/${month}`)),
      ];
      expect(byName(after), month).toEqual(byName(before));
    }
    expect(ok<CategoryDto[]>(await copy.get('/api/categories')).map(withoutId)).toEqual(
      ok<CategoryDto[]>(await owner.get('/api/categories')).map(withoutId),
    );
    expect(ok<AccountDto[]>(await copy.get('/api/accounts')).map((a) => [a.name, a.onBudget])).toEqual(
      ok<AccountDto[]>(await owner.get('/api/accounts')).map((a) => [a.name, a.onBudget]),
    );
    const again = ok<UserDataDocument>(await copy.get('/api/export'));
    const names = (d: UserDataDocument) => new Map(d.categories.map((c) => [c.id, c.name]));
    const plan = (d: UserDataDocument) => {
      const name = names(d);
      return {
        assigned: d.plan?.assigned.map(({ categoryId, ...rest }) => ({ ...rest, category: name.get(categoryId) })),
        moves: d.plan?.moves.map(({ fromCategoryId, toCategoryId, ...rest }) => ({
          ...rest,
          from: fromCategoryId === null ? null : name.get(fromCategoryId),
          to: toCategoryId === null ? null : name.get(toCategoryId),
        })),
        holds: d.plan?.holds,
      };
    };
    expect(plan(again)).toEqual(plan(doc));
  });

  it('restores a document written before the plan: kinds from the transactions, investment accounts off the plan', async () => {
    const old: UserDataDocument = {
      ...doc,
      plan: undefined,
      accounts: doc.accounts.map(({ onBudget: _onBudget, ...rest }) => rest),
      categories: doc.categories.map(({ id, name, createdAt }) => ({ id, name, createdAt })),
    };
    const copy = await signUp(server.url);
    expect((await copy.post('/api/import', old)).status).toBe(201);
    const categories = ok<CategoryDto[]>(await copy.get('/api/categories'));
    expect(categories.map((c) => [c.name, c.kind, c.hidden, c.target])).toEqual(
      expect.arrayContaining([
        ['Salary', 'income', false, null],
        ['Food', 'expense', false, null],
        ['Old', 'expense', false, null],
      ]),
    );
    const accounts = ok<AccountDto[]>(await copy.get('/api/accounts')).map((a) => [a.name, a.onBudget]);
    expect(new Map(accounts as [string, boolean][])).toEqual(
      new Map([
        ['Checking', true],
        ['Broker', false],
        ['Side pot', true],
      ]),
    );
    expect(ok<PlanDto>(await copy.get('/api/plan/2024-03')).assigned).toBe(0);
  });

  it('refuses a plan that names no category or repeats a month, restoring nothing', async () => {
    const copy = await signUp(server.url);
    const bad = structuredClone(doc);
    bad.plan!.assigned.push({ ...bad.plan!.assigned[0], amount: 1 });
    bad.plan!.moves.push({ ...bad.plan!.moves[0], toCategoryId: 999_999 });
    bad.plan!.holds.push({ month: '2024-03', amount: 5 });
    const res = await copy.post('/api/import', bad);
    expect(res.status).toBe(400);
    expect((res.body as { error: string }).error).toMatch(/assigned twice/);
    expect((res.body as { error: string }).error).toMatch(/refers to no category \(999999\)/);
    expect((res.body as { error: string }).error).toMatch(/2024-03 is held twice/);
    expect(ok<CategoryDto[]>(await copy.get('/api/categories'))).toEqual([]);
  });
});
