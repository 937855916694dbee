/**
 * The monthly plan over HTTP on a real server: generated households (income, spending, refunds,
 * splits, off-plan accounts, transfers, rolling and non-rolling categories, holds, moves, future
 * assignments) give, month by month, exactly the figures this file computes on its own from the
 * transactions it sent; every refusal names its problem and changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CategoryDto } from '../../src/shared/schemas/categories';
import type { PlanDto } from '../../src/shared/schemas/plan';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

/** A small seeded generator, so a failing household can be made again. */
function random(seed: number): (max: number) => number {
  let state = seed >>> 0;
  return (max) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state % max;
  };
}

const MONTHS = ['2024-01', '2024-02', '2024-03', '2024-04'];

/** What the file sent, in the plan's terms: one counted row per transaction or split part. */
interface Counted {
  month: string;
  category: string | null;
  amount: number;
  onPlan: boolean;
}

interface Household {
  user: ApiUser;
  ids: Map<string, number>;
  kinds: Map<string, 'income' | 'expense'>;
  rollsFrom: Map<string, string | null>;
  counted: Counted[];
  assigned: Map<string, number>;
  held: Map<string, number>;
}

const EXPENSES = ['Food', 'Rent', 'Fun', 'Car'];

async function makeHousehold(seed: number): Promise<Household> {
  const next = random(seed);
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  ok(await user.post('/api/accounts', { name: 'Card', type: 'credit' }));
  ok(await user.post('/api/accounts', { name: 'Broker', type: 'investment' }));
  for (const name of ['Salary', ...EXPENSES])
    ok(await user.post('/api/categories', { name, kind: name === 'Salary' ? 'income' : 'expense' }));
  const ids = new Map(ok<CategoryDto[]>(await user.get('/api/categories')).map((c) => [c.name, c.id]));
  const rollsFrom = new Map<string, string | null>([
    ['Fun', '2024-03'],
    ['Car', '2024-01'],
  ]);
  for (const [name, month] of rollsFrom)
    ok(await user.put(`/api/categories/${ids.get(name)}`, { rollsOverspendingFrom: month }));
  const household: Household = {
    user,
    ids,
    kinds: new Map([['Salary', 'income'], ...EXPENSES.map((name) => [name, 'expense'] as [string, 'expense'])]),
    rollsFrom,
    counted: [],
    assigned: new Map(),
    held: new Map(),
  };
  for (const month of MONTHS) await addMonthOfTransactions(household, month, next);
  return household;
}

async function post(household: Household, body: Record<string, unknown>) {
  return ok<{ id: number }>(await household.user.post('/api/transactions', body));
}

async function addMonthOfTransactions(household: Household, month: string, next: (max: number) => number) {
  const day = (d: number) => `${month}-${String(d).padStart(2, '0')}`;
  const add = async (account: string, category: string | null, amount: number) => {
    await post(household, { account, postDate: day(1 + next(27)), description: 'row', amount, category });
    household.counted.push({ month, category, amount, onPlan: account !== 'Broker' });
  };
  await add('Checking', 'Salary', 200_000 + next(50_000));
  for (let i = 0; i < 3; i++) await add(next(2) ? 'Checking' : 'Card', EXPENSES[next(4)], -(1_000 + next(60_000)));
  await add('Checking', EXPENSES[next(4)], 500 + next(5_000)); // a refund
  await add('Checking', null, -(100 + next(3_000))); // uncategorised
  await add('Broker', 'Food', -(1_000 + next(9_000))); // off the plan
  // A split: its parts count, never the parent.
  const parent = await post(household, { account: 'Card', postDate: day(28), description: 'split', amount: -9_000 });
  const a = EXPENSES[next(4)];
  const b = EXPENSES[next(4)];
  ok(
    await household.user.post(`/api/transactions/${parent.id}/split`, {
      splits: [
        { amount: -4_000, category: a },
        { amount: -5_000, category: b },
      ],
    }),
  );
  household.counted.push({ month, category: a, amount: -4_000, onPlan: true });
  household.counted.push({ month, category: b, amount: -5_000, onPlan: true });
  // A transfer between two on-plan accounts moves no money in the plan; one to an off-plan account does.
  ok(
    await household.user.post('/api/transfers', {
      fromAccount: 'Checking',
      toAccount: 'Card',
      amount: 10_000 + next(1_000),
      date: day(15),
    }),
  );
  const out = 2_000 + next(1_000);
  ok(
    await household.user.post('/api/transfers', {
      fromAccount: 'Checking',
      toAccount: 'Broker',
      amount: out,
      date: day(16),
    }),
  );
  household.counted.push({ month, category: null, amount: -out, onPlan: true });
}

function rollsIn(household: Household, category: string, month: string): boolean {
  const from = household.rollsFrom.get(category) ?? null;
  return from !== null && from <= month;
}

function previousMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}

/** The plan's figures for every month up to `last`, computed here from what was sent. */
function expectedPlan(household: Household, last: string) {
  const first = '2023-12';
  let toAssign = 0;
  let heldBefore = 0;
  let available = new Map<string, number>();
  let result: Record<string, unknown> = {};
  for (let month = first; month <= last; month = nextMonth(month)) {
    const before = previousMonth(month);
    const activity = (category: string) =>
      household.counted
        .filter((row) => row.onPlan && row.month === month && row.category === category)
        .reduce((sum, row) => sum + row.amount, 0);
    const income = activity('Salary');
    let overspent = 0;
    const rows = EXPENSES.map((name) => {
      const prior = available.get(name) ?? 0;
      const rolled = rollsIn(household, name, before);
      if (prior < 0 && !rolled) overspent += prior;
      const carryover = prior > 0 || rolled ? prior : 0;
      const assigned = household.assigned.get(`${name}/${month}`) ?? 0;
      return { name, assigned, activity: activity(name), carryover, available: assigned + activity(name) + carryover };
    });
    const held = household.held.get(month) ?? 0;
    const assignedTotal = rows.reduce((sum, row) => sum + row.assigned, 0);
    const fromLastMonth = toAssign + heldBefore;
    toAssign = income + fromLastMonth + overspent - assignedTotal - held;
    heldBefore = held;
    available = new Map(rows.map((row) => [row.name, row.available]));
    const uncategorised = household.counted.filter((row) => row.onPlan && row.category === null && row.month <= month);
    result = {
      month,
      toAssign,
      income,
      fromLastMonth,
      overspentLastMonth: overspent,
      assigned: assignedTotal,
      activity: rows.reduce((sum, row) => sum + row.activity, 0),
      available: rows.reduce((sum, row) => sum + row.available, 0),
      held,
      categories: rows.map((row) => ({
        name: row.name,
        assigned: row.assigned,
        activity: row.activity,
        carryover: row.carryover,
        available: row.available,
        rollsOverspending: rollsIn(household, row.name, month),
      })),
      incomeCategories: [{ name: 'Salary', activity: income }],
      uncategorized: {
        count: uncategorised.length,
        amount: uncategorised.reduce((sum, row) => sum + row.amount, 0),
      },
    };
  }
  return result;
}

function nextMonth(month: string): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01` : `${y}-${String(m + 1).padStart(2, '0')}`;
}

function shown(plan: PlanDto) {
  return {
    month: plan.month,
    toAssign: plan.toAssign,
    income: plan.income,
    fromLastMonth: plan.fromLastMonth,
    overspentLastMonth: plan.overspentLastMonth,
    assigned: plan.assigned,
    activity: plan.activity,
    available: plan.available,
    held: plan.held,
    categories: plan.categories
      .map(({ name, assigned, activity, carryover, available, rollsOverspending }) => ({
        name,
        assigned,
        activity,
        carryover,
        available,
        rollsOverspending,
      }))
      .sort((a, b) => EXPENSES.indexOf(a.name) - EXPENSES.indexOf(b.name)),
    incomeCategories: plan.incomeCategories.map(({ name, activity }) => ({ name, activity })),
    uncategorized: plan.uncategorized,
  };
}

async function plan(household: Household, month: string): Promise<PlanDto> {
  return ok<PlanDto>(await household.user.get(`/api/plan/${month}`));
}

/** Assigns, moves and holds across the months (and one future month), as the test's own books record. */
async function planTheMonths(household: Household, seed: number) {
  const next = random(seed * 7 + 1);
  const { user, ids } = household;
  for (const month of [...MONTHS, '2024-06']) {
    for (const name of EXPENSES) {
      if (next(3) === 0) continue;
      const amount = next(40_000);
      ok(await user.put(`/api/plan/${month}/assigned`, { category: ids.get(name), amount }));
      household.assigned.set(`${name}/${month}`, amount);
    }
    const from = EXPENSES[next(4)];
    const to = EXPENSES[next(4)];
    if (from !== to) {
      const amount = 1 + next(5_000);
      ok(await user.post(`/api/plan/${month}/move`, { from: ids.get(from), to: ids.get(to), amount }));
      household.assigned.set(`${from}/${month}`, (household.assigned.get(`${from}/${month}`) ?? 0) - amount);
      household.assigned.set(`${to}/${month}`, (household.assigned.get(`${to}/${month}`) ?? 0) + amount);
    }
    ok(await user.post(`/api/plan/${month}/move`, { from: null, to: 'fun', amount: 100 }));
    household.assigned.set(`Fun/${month}`, (household.assigned.get(`Fun/${month}`) ?? 0) + 100);
    const { holdable } = await plan(household, month);
    if (holdable > 0 && next(2) === 0) {
      const amount = Math.floor(holdable / 3);
      ok(await user.put(`/api/plan/${month}/hold`, { amount }));
      household.held.set(month, amount);
    }
  }
}

describe('the plan of generated households', () => {
  it.each([1, 2])(
    'household %i: every month’s figures match, to the cent',
    async (seed) => {
      const household = await makeHousehold(seed);
      await planTheMonths(household, seed);
      for (const month of ['2023-12', ...MONTHS, '2024-05', '2024-06', '2024-07', '2024-08', '2025-02']) {
        expect(shown(await plan(household, month))).toEqual(expectedPlan(household, month));
      }
      // tRPC answers the same.
      expect(data(await household.user.trpc.plan.get.query({ month: '2024-03' }))).toEqual(
        await plan(household, '2024-03'),
      );
      // A household is a few hundred requests: longer than one call's test on a loaded PostgreSQL.
    },
    120_000,
  );
});
