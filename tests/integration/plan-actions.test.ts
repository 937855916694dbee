/**
 * The plan's actions over HTTP: assigning, moving (recorded with its day), covering overspending,
 * holding, filling by every mode, hidden and merged categories; and every refusal, which names its
 * problem and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryDto } from '../../src/shared/schemas/categories';
import type { PlanDto } from '../../src/shared/schemas/plan';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function simpleHousehold() {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  for (const [name, kind] of [
    ['Salary', 'income'],
    ['Food', 'expense'],
    ['Rent', 'expense'],
  ])
    ok(await user.post('/api/categories', { name, kind }));
  const ids = new Map(ok<CategoryDto[]>(await user.get('/api/categories')).map((c) => [c.name, c.id]));
  const tx = { account: 'Checking', description: 'row' };
  ok(await user.post('/api/transactions', { ...tx, postDate: '2024-01-02', amount: 100_000, category: 'Salary' }));
  ok(await user.post('/api/transactions', { ...tx, postDate: '2024-01-10', amount: -30_000, category: 'Food' }));
  ok(await user.post('/api/transactions', { ...tx, postDate: '2024-02-10', amount: -10_000, category: 'Food' }));
  ok(await user.post('/api/transactions', { ...tx, postDate: '2024-03-10', amount: -20_000, category: 'Food' }));
  return { user, ids, food: ids.get('Food') as number, rent: ids.get('Rent') as number };
}

async function planTables(user: ApiUser) {
  const parts: unknown[] = [];
  for (const table of ['plan_assigned', 'plan_move', 'plan_hold'])
    parts.push(await server.sql(`select * from "${table}" where user_id = ? order by 1`, [user.userId]));
  return JSON.stringify(parts);
}

describe('refusals', () => {
  it('answer 400 or 404 with a message naming the problem, and change nothing', async () => {
    const { user, food, ids } = await simpleHousehold();
    const salary = ids.get('Salary') as number;
    ok(await user.put('/api/plan/2024-01/assigned', { category: food, amount: 10_000 }));
    const before = await planTables(user);
    const cases: [string, string, unknown, number, string][] = [
      ['GET', '/api/plan/2024-13', undefined, 400, 'month: must be a month in YYYY-MM format'],
      ['GET', '/api/plan/january', undefined, 400, 'month'],
      ['PUT', '/api/plan/2024-00/assigned', { category: food, amount: 1 }, 400, 'month'],
      [
        'PUT',
        '/api/plan/2024-01/assigned',
        { category: 999999, amount: 1 },
        404,
        'category: category 999999 not found',
      ],
      [
        'PUT',
        '/api/plan/2024-01/assigned',
        { category: 'Nope', amount: 1 },
        404,
        "category: category 'Nope' not found",
      ],
      ['PUT', '/api/plan/2024-01/assigned', { category: salary, amount: 1 }, 400, 'income category'],
      ['PUT', '/api/plan/2024-01/assigned', { category: food, amount: 1e14 }, 400, 'amount: must be a whole number'],
      ['PUT', '/api/plan/2024-01/assigned', { category: food, amount: 1.5 }, 400, 'amount'],
      ['PUT', '/api/plan/2024-01/assigned', { category: food }, 400, 'amount'],
      ['POST', '/api/plan/2024-01/move', { from: food, to: salary, amount: 1 }, 400, 'to: '],
      ['POST', '/api/plan/2024-01/move', { from: food, to: food, amount: 1 }, 400, 'to: must differ from from'],
      ['POST', '/api/plan/2024-01/move', { from: null, to: null, amount: 1 }, 400, 'from, to'],
      ['POST', '/api/plan/2024-01/move', { from: food, to: 999999, amount: 1 }, 404, 'to: category 999999 not found'],
      ['POST', '/api/plan/2024-01/move', { from: food, to: null, amount: 0 }, 400, 'amount: must be more than zero'],
      ['POST', '/api/plan/2024-01/move', { from: food, to: null, amount: -5 }, 400, 'amount'],
      ['PUT', '/api/plan/2024-01/hold', { amount: 999_999_999 }, 400, 'no more than that can be held'],
      ['PUT', '/api/plan/2024-01/hold', { amount: -1 }, 400, 'amount: must be zero or more'],
      ['POST', '/api/plan/2024-01/fill', { mode: 'sometimes' }, 400, 'mode: must be one of'],
      ['POST', '/api/plan/2024-01/fill', { mode: 'zero', categories: [food, 999999] }, 404, 'categories.1'],
    ];
    for (const [method, path, body, status, message] of cases) {
      const res =
        method === 'GET'
          ? await user.get(path)
          : method === 'PUT'
            ? await user.put(path, body)
            : await user.post(path, body);
      expect([path, res.status, res.body.error]).toEqual([path, status, expect.stringContaining(message)]);
    }
    expect(await planTables(user)).toBe(before);
    const viaTrpc = await user.trpc.plan.move.mutate({ month: '2024-01', from: food, to: salary, amount: 1 });
    expect(viaTrpc.error?.data.httpStatus).toBe(400);
    expect(await planTables(user)).toBe(before);
  });
});

describe('actions', () => {
  it('moves are recorded with their day, cover overspending, and holds come back next month', async () => {
    const { user, food, rent } = await simpleHousehold();
    ok(await user.put('/api/plan/2024-01/assigned', { category: 'food', amount: 20_000 }));
    ok(await user.put('/api/plan/2024-01/assigned', { category: rent, amount: 50_000 }));
    let january = ok<PlanDto>(await user.get('/api/plan/2024-01'));
    const overspent = january.categories.find((c) => c.category === food)?.available ?? 0;
    expect(overspent).toBe(-10_000);
    january = ok<PlanDto>(await user.post('/api/plan/2024-01/move', { from: rent, to: food, amount: -overspent }));
    expect(january.categories.map((c) => [c.name, c.assigned, c.available])).toEqual([
      ['Food', 30_000, 0],
      ['Rent', 40_000, 40_000],
    ]);
    expect(january.moves).toEqual([
      {
        id: expect.any(Number),
        date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
        from: rent,
        to: food,
        amount: 10_000,
      },
    ]);
    expect(january.toAssign).toBe(30_000);
    expect(january.holdable).toBe(30_000);
    january = ok<PlanDto>(await user.put('/api/plan/2024-01/hold', { amount: 30_000 }));
    expect([january.toAssign, january.held]).toEqual([0, 30_000]);
    const february = ok<PlanDto>(await user.get('/api/plan/2024-02'));
    expect([february.fromLastMonth, february.toAssign, february.overspentLastMonth]).toEqual([30_000, 30_000, 0]);
  });

  it('says which categories last month’s overspending came from', async () => {
    const { user, food } = await simpleHousehold();
    const february = ok<PlanDto>(await user.get('/api/plan/2024-02'));
    expect(february.overspentLastMonth).toBe(-30_000);
    expect(february.overspentFrom).toEqual([{ category: food, name: 'Food', amount: -30_000 }]);
    expect(february.toAssign).toBe(70_000);
  });

  it('fills from last month, averages, targets and zero, for all categories or a chosen few', async () => {
    const { user, food, rent } = await simpleHousehold();
    ok(await user.put(`/api/categories/${rent}`, { target: { type: 'monthly', amount: 70_000 } }));
    ok(await user.put('/api/plan/2024-03/assigned', { category: rent, amount: 20_000 }));
    const fill = async (body: Record<string, unknown>) =>
      ok<PlanDto>(await user.post('/api/plan/2024-04/fill', body)).categories.map((c) => [c.name, c.assigned]);
    expect(await fill({ mode: 'lastMonth' })).toEqual([
      ['Food', 0],
      ['Rent', 20_000],
    ]);
    // Food spent 30,000, 10,000 and 20,000 in January to March.
    expect(await fill({ mode: 'average3', categories: [food] })).toEqual([
      ['Food', 20_000],
      ['Rent', 20_000],
    ]);
    expect(await fill({ mode: 'average6', categories: ['FOOD'] })).toEqual([
      ['Food', 10_000],
      ['Rent', 20_000],
    ]);
    const targets = ok<PlanDto>(await user.post('/api/plan/2024-04/fill', { mode: 'targets' }));
    expect(targets.categories.find((c) => c.category === rent)).toMatchObject({ assigned: 70_000, needed: 0 });
    expect(await fill({ mode: 'zero' })).toEqual([
      ['Food', 0],
      ['Rent', 0],
    ]);
    const needs = ok<PlanDto>(await user.get('/api/plan/2024-04')).categories.find((c) => c.category === rent);
    expect(needs?.needed).toBe(70_000);
  });

  it('keeps a hidden category out unless it has figures, and a merge carries the plan', async () => {
    const { user, food, rent } = await simpleHousehold();
    ok(await user.put('/api/plan/2024-03/assigned', { category: rent, amount: 5_000 }));
    ok(await user.post('/api/plan/2024-03/move', { from: null, to: rent, amount: 1_000 }));
    ok(await user.put(`/api/categories/${rent}`, { hidden: true }));
    expect(ok<PlanDto>(await user.get('/api/plan/2024-01')).categories.map((c) => c.name)).toEqual(['Food']);
    expect(ok<PlanDto>(await user.get('/api/plan/2024-03')).categories.map((c) => c.name)).toEqual(['Food', 'Rent']);
    const refused = await user.del(`/api/categories/${rent}`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('1 month of the plan');
    const before = ok<PlanDto>(await user.get('/api/plan/2024-03'));
    ok(await user.post(`/api/categories/${rent}/merge`, { into: food }));
    const after = ok<PlanDto>(await user.get('/api/plan/2024-03'));
    expect(after.categories.map((c) => [c.name, c.assigned])).toEqual([['Food', 6_000]]);
    expect(after.toAssign).toBe(before.toAssign);
    expect(after.moves.map((m) => m.to)).toEqual([food]);
  });
});
