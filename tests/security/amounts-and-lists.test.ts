import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_AMOUNT_CENTS } from '../../src/shared/limits';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Every amount on every path is bounded to |x| <= 10^13 cents so sums stay
 * exact (a budget overview never answers 500), and list answers are capped at 100,000 rows
 * with limit/offset paging and X-Total-Count; a larger answer is refused with 422.
 */
let server: TestServer;
let user: ApiUser;

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
});
afterAll(() => server.close());

const TOO_BIG = [MAX_AMOUNT_CENTS + 1, -(MAX_AMOUNT_CENTS + 1), Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];

describe('amounts are bounded to 10^13 cents', () => {
  it('refuses larger amounts on every REST and tRPC path that takes one, naming the field', async () => {
    const tx = ok(await user.post('/api/transactions', { postDate: '2024-01-01', description: 'x', amount: -100 }));
    const budget = ok(await user.post('/api/budgets', { name: 'B', startDate: '2024-01-01', endDate: '2024-12-31' }));
    const item = ok(await user.post('/api/line-items', { budgetId: budget.id, name: 'Food', amount: 100 }));
    const account = ok(await user.get('/api/accounts'))[0];
    for (const amount of TOO_BIG) {
      const calls: [string, Promise<{ status: number; body: any }>][] = [
        ['POST /transactions', user.post('/api/transactions', { postDate: '2024-01-01', description: 'x', amount })],
        ['PUT /transactions/:id', user.put(`/api/transactions/${tx.id}`, { amount })],
        [
          'POST split',
          user.post(`/api/transactions/${tx.id}/split`, {
            splits: [
              { amount, category: 'a' },
              { amount: -100 - amount, category: 'b' },
            ],
          }),
        ],
        ['POST /accounts', user.post('/api/accounts', { name: `A${amount}`, type: 'cash', balance: amount })],
        ['PUT /accounts/:id', user.put(`/api/accounts/${account.id}`, { balance: amount })],
        [
          'POST /budgets',
          user.post('/api/budgets', { name: 'C', startDate: '2024-01-01', endDate: '2024-12-31', amount }),
        ],
        ['PUT /budgets/:id', user.put(`/api/budgets/${budget.id}`, { amount })],
        ['POST /line-items', user.post('/api/line-items', { budgetId: budget.id, name: 'Big', amount })],
        ['PUT /line-items/:id', user.put(`/api/line-items/${item.id}`, { amount })],
        [
          'POST /budgets/save',
          user.post('/api/budgets/save', {
            name: 'S',
            startDate: '2024-01-01',
            endDate: '2024-01-31',
            lineItems: [{ name: 'I', amount }],
          }),
        ],
      ];
      for (const [label, call] of calls) {
        const res = await call;
        expect(res.status, `${label} ${amount}`).toBe(400);
        expect(String(res.body.error), label).toMatch(/amount|balance|splits/);
      }
      const t = await user.trpc.transactions.create.mutate({ postDate: '2024-01-01', description: 'x', amount });
      expect(t.status).toBe(400);
      const l = await user.trpc.budgets.save.mutate({
        name: 'S',
        startDate: '2024-01-01',
        endDate: '2024-01-31',
        lineItems: [{ name: 'Big', amount }],
      });
      expect(l.status).toBe(400);
      const q = await user.get(
        `/api/transactions?start_date=2024-01-01&end_date=2024-12-31&min_amount=${amount / 100}`,
      );
      expect(q.status, 'min_amount').toBe(400);
    }
    const edge = await user.post('/api/line-items', { budgetId: budget.id, name: 'Edge', amount: MAX_AMOUNT_CENTS });
    expect(edge.status).toBe(201);
  });

  it('the overview of a budget whose line items are as large as allowed answers exact sums', async () => {
    const budget = ok(
      await user.post('/api/budgets', { name: 'Huge', startDate: '2030-01-01', endDate: '2030-12-31' }),
    );
    const lineItems = Array.from({ length: 500 }, (_, i) => ({
      name: `Item ${i}`,
      amount: MAX_AMOUNT_CENTS,
      type: 'Fixed',
    }));
    ok(
      await user.post('/api/budgets/save', {
        id: budget.id,
        name: 'Huge',
        startDate: '2030-01-01',
        endDate: '2030-12-31',
        lineItems,
      }),
    );
    const overview = await user.get(`/api/budgets/${budget.id}/overview`);
    expect(overview.status).toBe(200);
    expect(overview.body.overview.budgeted.fixed).toBe(500 * MAX_AMOUNT_CENTS);
    expect(Number.isSafeInteger(overview.body.overview.budgeted.net)).toBe(true);
    // More line items than keep a sum exact are refused up front.
    const more = await user.post('/api/line-items', { budgetId: budget.id, name: 'One too many', amount: 1 });
    expect(more.status).toBe(400);
    expect(more.body.error).toMatch(/at most 500 line items/);
  });
});

describe('list answers are capped', () => {
  const CAP = 100_000;
  let heavy: ApiUser;

  beforeAll(async () => {
    heavy = await signUp(server.url);
    ok(await heavy.post('/api/envelopes', { name: 'All', categories: ['uncategorized'] }));
    const conn = server.app.orm.em.fork().getConnection();
    await conn.execute(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into \`transaction\` (user_id, post_date, description, amount, type, is_split, created_at)
       select ?, printf('2024-%02d-%02d', (i % 12) + 1, (i % 28) + 1), 'row ' || i, -i, 'debit', 0, '2024-01-01T00:00:00Z' from n`,
      [CAP + 1, heavy.userId],
      'run',
    );
  }, 120_000);

  it('refuses a full-range search over more rows with 422 "narrow the range"', async () => {
    const res = await heavy.get('/api/transactions?start_date=2000-01-01&end_date=2100-01-01');
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/narrow the range/);
    expect(res.headers.get('x-total-count')).toBe(String(CAP + 1));
    const t = await heavy.trpc.transactions.list.query({ startDate: '2000-01-01', endDate: '2100-01-01' });
    expect(t.status).toBe(422);
  });

  it('pages with limit and offset and tells the total in X-Total-Count', async () => {
    const first = await heavy.get('/api/transactions?start_date=2000-01-01&end_date=2100-01-01&limit=50&offset=0');
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(50);
    expect(first.headers.get('x-total-count')).toBe(String(CAP + 1));
    const second = await heavy.get('/api/transactions?start_date=2000-01-01&end_date=2100-01-01&limit=50&offset=50');
    expect(second.body).toHaveLength(50);
    expect(second.body[0].id).not.toBe(first.body[0].id);
    const t = data(
      await heavy.trpc.transactions.list.query({
        startDate: '2000-01-01',
        endDate: '2100-01-01',
        limit: 10,
        offset: 5,
      }),
    );
    expect(t).toHaveLength(10);
    const tooLarge = await heavy.get(`/api/transactions?start_date=2000-01-01&end_date=2100-01-01&limit=${CAP + 1}`);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error).toContain('limit');
  });

  it('a narrower range is answered in full', async () => {
    const res = await heavy.get('/api/transactions?start_date=2024-01-01&end_date=2024-01-31');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
  });

  it('refuses envelope answers over the cap with 422', async () => {
    const res = await heavy.get('/api/envelopes');
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/narrow the range/);
    const narrow = await heavy.get('/api/envelopes?start_date=2024-01-01&end_date=2024-01-31');
    expect(narrow.status).toBe(200);
  });

  it('refuses a budget overview over the cap with 422, never a 500', async () => {
    const budget = ok(
      await heavy.post('/api/budgets', { name: 'All time', startDate: '2000-01-01', endDate: '2100-01-01' }),
    );
    const res = await heavy.get(`/api/budgets/${budget.id}/overview`);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/narrow the range/);
  });
});
