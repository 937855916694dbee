import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { trpc } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * GET /api/reports/monthly and /api/reports/payees (and tRPC reports.*) against figures
 * computed by hand from the rows below. The split's parent is never counted, its parts are.
 */
let server: TestServer;
let user: ApiUser;
let splitParentId: number;

async function add(
  postDate: string,
  description: string,
  amount: number,
  account: string,
  category?: string,
): Promise<number> {
  return ok(
    await user.post('/api/transactions', { postDate, description, amount, account, ...(category ? { category } : {}) }),
  ).id;
}

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  ok(await user.post('/api/accounts', { name: 'Card', type: 'credit' }));
  await add('2023-12-31', 'Before the range', -100, 'Checking', 'Groceries');
  await add('2024-01-05', 'ACME PAYROLL 0001', 300000, 'Checking', 'Salary');
  await add('2024-01-10', 'Landlord', -120000, 'Checking', 'Rent');
  await add('2024-01-15', 'TESCO STORES 1234', -5000, 'Card', 'Groceries');
  await add('2024-01-20', 'Tesco Stores 5678', 1000, 'Card', 'Groceries'); // a refund
  await add('2024-01-31', 'Coffee kiosk', -700, 'Card');
  splitParentId = await add('2024-03-03', 'Supermarket & more', -9000, 'Card', 'Groceries');
  ok(
    await user.post(`/api/transactions/${splitParentId}/split`, {
      splits: [
        { amount: -6000, category: 'Groceries' },
        { amount: -3000, category: 'Dining' },
      ],
    }),
  );
  await add('2024-04-01', 'After the range', -100, 'Checking', 'Rent');
});
afterAll(async () => {
  await server.close();
});

const Q1 = 'start_date=2024-01-01&end_date=2024-03-31';

describe('GET /api/reports/monthly', () => {
  it('answers every month of the range with hand-computed income, expenses, net and category sums', async () => {
    const report = ok(await user.get(`/api/reports/monthly?${Q1}`));
    expect(report).toEqual([
      {
        month: '2024-01',
        income: 301000,
        expenses: 125700,
        net: 175300,
        byCategory: { Groceries: -4000, Rent: -120000, Salary: 300000, Uncategorized: -700 },
        currency: 'USD',
        noRate: 0,
      },
      { month: '2024-02', income: 0, expenses: 0, net: 0, byCategory: {}, currency: 'USD', noRate: 0 },
      {
        month: '2024-03',
        income: 0,
        expenses: 9000,
        net: -9000,
        byCategory: { Dining: -3000, Groceries: -6000 },
        currency: 'USD',
        noRate: 0,
      },
    ]);
    // Category keys come in a stable order: by name, 'Uncategorized' last.
    expect(Object.keys(report[0].byCategory)).toEqual(['Groceries', 'Rent', 'Salary', 'Uncategorized']);
  });

  it('filters by account name (any case) and counts only that account', async () => {
    expect(ok(await user.get(`/api/reports/monthly?${Q1}&account=card`))).toEqual([
      {
        month: '2024-01',
        income: 1000,
        expenses: 5700,
        net: -4700,
        byCategory: { Groceries: -4000, Uncategorized: -700 },
        currency: 'USD',
        noRate: 0,
      },
      { month: '2024-02', income: 0, expenses: 0, net: 0, byCategory: {}, currency: 'USD', noRate: 0 },
      {
        month: '2024-03',
        income: 0,
        expenses: 9000,
        net: -9000,
        byCategory: { Dining: -3000, Groceries: -6000 },
        currency: 'USD',
        noRate: 0,
      },
    ]);
    const missing = await user.get(`/api/reports/monthly?${Q1}&account=Nope`);
    expect(missing.status).toBe(404);
    expect(missing.body.error).toBe("Account 'Nope' not found");
  });

  it('takes the exact dates: a range starting mid-month counts only rows from that day, and still lists every month', async () => {
    expect(ok(await user.get('/api/reports/monthly?start_date=2024-01-16&end_date=2024-03-02'))).toEqual([
      {
        month: '2024-01',
        income: 1000,
        expenses: 700,
        net: 300,
        byCategory: { Groceries: 1000, Uncategorized: -700 },
        currency: 'USD',
        noRate: 0,
      },
      { month: '2024-02', income: 0, expenses: 0, net: 0, byCategory: {}, currency: 'USD', noRate: 0 },
      { month: '2024-03', income: 0, expenses: 0, net: 0, byCategory: {}, currency: 'USD', noRate: 0 },
    ]);
    expect(
      ok(await user.get('/api/reports/monthly?start_date=2022-11-15&end_date=2023-02-01')).map(
        (r: { month: string }) => r.month,
      ),
    ).toEqual(['2022-11', '2022-12', '2023-01', '2023-02']);
  });

  it('answers the same over tRPC', async () => {
    const viaTrpc = data(await user.trpc.reports.monthly.query({ startDate: '2024-01-01', endDate: '2024-03-31' }));
    expect(viaTrpc).toEqual(ok(await user.get(`/api/reports/monthly?${Q1}`)));
  });

  it('refuses bad input with a 400 naming the parameter, and changes nothing', async () => {
    const missing = await user.get('/api/reports/monthly?end_date=2024-01-31');
    expect(missing.status).toBe(400);
    expect(missing.body.error).toContain('start_date');
    const reversed = await user.get('/api/reports/monthly?start_date=2024-02-01&end_date=2024-01-01');
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toBe('end_date: Start date must not be after end date');
    const badDate = await user.get('/api/reports/monthly?start_date=2024-02-30&end_date=2024-03-01');
    expect(badDate.status).toBe(400);
    expect(badDate.body.error).toContain('start_date');
    const tooLong = await user.get('/api/reports/monthly?start_date=1900-01-01&end_date=2024-01-01');
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toContain('at most 1200 months');
    // Deliberately without endDate, which the typed client would not let through.
    expect(
      (await trpc(server.url, 'query', 'reports.monthly', { startDate: '2024-01-01' }, user.token)).error?.data
        .httpStatus,
    ).toBe(400);
  });
});

describe('GET /api/reports/payees', () => {
  it('groups descriptions by payee (reference numbers and letter case aside) and ranks by the magnitude of the total', async () => {
    expect(ok(await user.get(`/api/reports/payees?${Q1}`))).toEqual([
      { payee: 'ACME PAYROLL', count: 1, total: 300000, currency: 'USD', noRate: 0 },
      { payee: 'Landlord', count: 1, total: -120000, currency: 'USD', noRate: 0 },
      { payee: 'Supermarket & more', count: 2, total: -9000, currency: 'USD', noRate: 0 }, // the two parts; the parent is not counted
      { payee: 'TESCO STORES', count: 2, total: -4000, currency: 'USD', noRate: 0 },
      { payee: 'Coffee kiosk', count: 1, total: -700, currency: 'USD', noRate: 0 },
    ]);
  });

  it('takes limit (default 20, 1 to 1000) and the account filter', async () => {
    expect(ok(await user.get(`/api/reports/payees?${Q1}&limit=2`)).map((p: { payee: string }) => p.payee)).toEqual([
      'ACME PAYROLL',
      'Landlord',
    ]);
    expect(ok(await user.get(`/api/reports/payees?${Q1}&account=Card`)).map((p: { payee: string }) => p.payee)).toEqual(
      ['Supermarket & more', 'TESCO STORES', 'Coffee kiosk'],
    );
    for (const limit of ['0', '1001', 'ten', '2.5']) {
      const res = await user.get(`/api/reports/payees?${Q1}&limit=${limit}`);
      expect(res.status, limit).toBe(400);
      expect(res.body.error).toMatch(/^limit: /);
    }
    expect(
      data(await user.trpc.reports.payees.query({ startDate: '2024-01-01', endDate: '2024-03-31', limit: 1 })),
    ).toEqual([{ payee: 'ACME PAYROLL', count: 1, total: 300000, currency: 'USD', noRate: 0 }]);
  });
});

describe('links from a figure to exactly its rows (the search filters the Reports screen uses)', () => {
  const search = async (query: string) =>
    ok<{ id: number; description: string; amount: number }[]>(await user.get(`/api/transactions?${query}`));

  it('payee: the rows of one payee, whatever their reference numbers and case', async () => {
    const rows = await search(`${Q1}&payee=${encodeURIComponent('tesco stores')}`);
    expect(rows.map((r) => r.description).sort()).toEqual(['TESCO STORES 1234', 'Tesco Stores 5678']);
    expect(rows.reduce((sum, r) => sum + r.amount, 0)).toBe(-4000);
  });

  it('direction and counted: a month’s expenses are exactly the rows its figure sums', async () => {
    const march = await search('start_date=2024-03-01&end_date=2024-03-31&direction=out&counted=true');
    expect(march.some((r) => r.id === splitParentId)).toBe(false);
    expect(march.reduce((sum, r) => sum + r.amount, 0)).toBe(-9000);
    const withParent = await search('start_date=2024-03-01&end_date=2024-03-31&direction=out');
    expect(withParent.some((r) => r.id === splitParentId)).toBe(true);
    const january = await search(`start_date=2024-01-01&end_date=2024-01-31&direction=in&counted=true`);
    expect(january.reduce((sum, r) => sum + r.amount, 0)).toBe(301000);
    const groceries = await search(`start_date=2024-01-01&end_date=2024-01-31&categories=Groceries&counted=true`);
    expect(groceries.reduce((sum, r) => sum + r.amount, 0)).toBe(-4000);
    expect((await user.get(`/api/transactions?${Q1}&direction=sideways`)).body.error).toBe(
      'direction: must be in or out',
    );
    expect((await user.get(`/api/transactions?${Q1}&counted=yes`)).body.error).toBe('counted: must be true or false');
  });
});
