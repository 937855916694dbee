import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * An account register and a reconciliation hold at most the answer cap of rows, like the search:
 * a larger list is refused with 422 (naming the count, in X-Total-Count too) without reading its
 * rows, and is read page by page with limit and offset, the running balance carried across pages.
 */
const CAP = 100_000;
let server: TestServer;
let heavy: ApiUser;
let accountId: number;

beforeAll(async () => {
  server = await startServer();
  heavy = await signUp(server.url);
  accountId = ok(await heavy.post('/api/accounts', { name: 'Busy', type: 'checking', balance: 0 })).id as number;
  await server.app.orm.em
    .fork()
    .getConnection()
    .execute(
      `with recursive n(i) as (select 1 union all select i + 1 from n where i < ?)
       insert into "transaction" (user_id, account_id, post_date, description, amount, type, is_split, created_at)
       select ?, ?, printf('2024-%02d-%02d', (i % 12) + 1, (i % 28) + 1), 'row ' || i, -i, 'debit', 0, '2024-01-01T00:00:00Z' from n`,
      [CAP + 1, heavy.userId, accountId],
      'run',
    );
}, 120_000);

afterAll(async () => {
  await server?.close();
});

describe('a register over the answer cap', () => {
  it('is refused with 422 and the count, over REST and tRPC', async () => {
    const res = await heavy.get(`/api/accounts/${accountId}/register`);
    expect(res.status).toBe(422);
    expect(res.body.error).toMatch(/page with limit and offset/);
    expect(res.headers.get('x-total-count')).toBe(String(CAP + 1));
    const t = await heavy.trpc.accounts.register.query({ id: accountId });
    expect(t.status).toBe(422);
  });

  it('is read page by page, the running balance carried from one page to the next', async () => {
    const first = await heavy.get(`/api/accounts/${accountId}/register?limit=50&offset=0`);
    expect(first.status).toBe(200);
    expect(first.body).toHaveLength(50);
    expect(first.headers.get('x-total-count')).toBe(String(CAP + 1));
    const second = await heavy.get(`/api/accounts/${accountId}/register?limit=50&offset=50`);
    expect(second.body).toHaveLength(50);
    const last = first.body[49];
    expect(second.body[0].runningBalance).toBe(last.runningBalance - last.amount);
    const t = data(await heavy.trpc.accounts.register.query({ id: accountId, limit: 10, offset: 40 }));
    expect(t).toEqual(first.body.slice(40, 50));
    const tooLarge = await heavy.get(`/api/accounts/${accountId}/register?limit=${CAP + 1}`);
    expect(tooLarge.status).toBe(400);
    expect(tooLarge.body.error).toContain('limit');
  });

  it('is answered in full when its dates hold fewer rows', async () => {
    const res = await heavy.get(`/api/accounts/${accountId}/register?start_date=2024-01-01&end_date=2024-01-31`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-total-count')).toBe(String(res.body.length));
  });
});

describe('a reconciliation with more rows after the statement than the cap', () => {
  const statement = 'statement_date=2023-12-31&statement_balance=0';

  it('is refused with 422, over REST and tRPC, and an adjustment refused so changes nothing', async () => {
    const res = await heavy.get(`/api/accounts/${accountId}/reconcile?${statement}`);
    expect(res.status).toBe(422);
    expect(res.headers.get('x-total-count')).toBe(String(CAP + 1));
    const t = await heavy.trpc.accounts.reconcile.query({
      id: accountId,
      statementDate: '2023-12-31',
      statementBalance: 0,
    });
    expect(t.status).toBe(422);
    const balance = async () =>
      ok<{ id: number; balance: number }[]>(await heavy.get('/api/accounts')).find((a) => a.id === accountId)?.balance;
    const before = await balance();
    const adjust = await heavy.post(`/api/accounts/${accountId}/reconcile`, {
      statementDate: '2023-12-31',
      statementBalance: 123,
      createAdjustment: true,
    });
    expect(adjust.status).toBe(422);
    expect(await balance()).toBe(before);
  });

  it('lists one page of the rows after the statement, with the count of all of them', async () => {
    const res = await heavy.get(`/api/accounts/${accountId}/reconcile?${statement}&limit=20&offset=0`);
    expect(res.status).toBe(200);
    expect(res.body.transactionsAfter).toHaveLength(20);
    expect(res.headers.get('x-total-count')).toBe(String(CAP + 1));
  });
});
