import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Working in a register: a memo and a cleared status on every row, reconciling with a statement
 * (cleared rows become reconciled, a difference only with an adjustment transaction), and edits of
 * a reconciled row's amount or date only when confirmed.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

interface Row {
  id: number;
  postDate: string;
  description: string;
  amount: number;
  memo: string | null;
  cleared: string;
}

async function setup(): Promise<{ user: ApiUser; accountId: number; ids: number[] }> {
  const user = await signUp(server.url);
  const accountId = ok<{ id: number }>(
    await user.post('/api/accounts', {
      name: 'Main',
      type: 'checking',
      openingBalance: 10_000,
      openingDate: '2024-01-01',
    }),
  ).id;
  const ids: number[] = [];
  for (const [postDate, amount] of [
    ['2024-01-05', -1_000],
    ['2024-01-20', 5_000],
    ['2024-02-03', -2_000],
  ] as const)
    ids.push(
      ok<{ id: number }>(
        await user.post('/api/transactions', { postDate, description: `row ${postDate}`, amount, account: 'Main' }),
      ).id,
    );
  return { user, accountId, ids };
}

const row = async (user: ApiUser, id: number) => ok<Row>(await user.get(`/api/transactions/${id}`));

describe('memo and cleared status', () => {
  it('start empty and uncleared, are set over REST and tRPC, and read back in the register', async () => {
    const { user, accountId, ids } = await setup();
    expect(await row(user, ids[0]!)).toMatchObject({ memo: null, cleared: 'uncleared' });
    ok(await user.put(`/api/transactions/${ids[0]}`, { memo: 'Paid back by Sam', cleared: 'cleared' }));
    const viaTrpc = await user.trpc.transactions.update.mutate({ id: ids[1]!, data: { cleared: 'cleared' } });
    expect(viaTrpc.data).toMatchObject({ cleared: 'cleared', memo: null });
    const register = ok<Row[]>(await user.get(`/api/accounts/${accountId}/register`));
    expect(register.map((r) => [r.postDate, r.memo, r.cleared])).toEqual([
      ['2024-02-03', null, 'uncleared'],
      ['2024-01-20', null, 'cleared'],
      ['2024-01-05', 'Paid back by Sam', 'cleared'],
    ]);
    // An empty memo removes it.
    expect(ok<Row>(await user.put(`/api/transactions/${ids[0]}`, { memo: '' })).memo).toBeNull();
  });

  it('refuses an unknown status and a memo with control characters, changing nothing', async () => {
    const { user, ids } = await setup();
    const bad = await user.put(`/api/transactions/${ids[0]}`, { cleared: 'done' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toContain('cleared');
    expect((await user.put(`/api/transactions/${ids[0]}`, { memo: 'a\u0000b' })).status).toBe(400);
    expect(await row(user, ids[0]!)).toMatchObject({ memo: null, cleared: 'uncleared' });
  });
});

describe('reconciling with a statement', () => {
  it('marks the cleared rows up to its date reconciled when the register agrees', async () => {
    const { user, accountId, ids } = await setup();
    for (const id of ids) ok(await user.put(`/api/transactions/${id}`, { cleared: 'cleared' }));
    // Opening 100.00, -10.00, +50.00 by the end of January.
    const done = ok(
      await user.post(`/api/accounts/${accountId}/reconcile`, {
        statementDate: '2024-01-31',
        statementBalance: 14_000,
      }),
    );
    expect(done).toMatchObject({ difference: 0, reconciledRows: 2 });
    expect((await row(user, ids[0]!)).cleared).toBe('reconciled');
    expect((await row(user, ids[1]!)).cleared).toBe('reconciled');
    expect((await row(user, ids[2]!)).cleared).toBe('cleared');
  });

  it('refuses a difference without an adjustment (409, naming it), and records one when asked', async () => {
    const { user, accountId, ids } = await setup();
    ok(await user.put(`/api/transactions/${ids[0]}`, { cleared: 'cleared' }));
    const statement = { statementDate: '2024-01-31', statementBalance: 14_250 };
    const refused = await user.post(`/api/accounts/${accountId}/reconcile`, statement);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('differs from the statement by 2.50');
    expect((await row(user, ids[0]!)).cleared).toBe('cleared');

    const viaTrpc = await user.trpc.accounts.adjustBalance.mutate({
      id: accountId,
      ...statement,
      createAdjustment: true,
    });
    expect(viaTrpc.data).toMatchObject({ difference: 0, registerBalance: 14_250, reconciledRows: 2 });
    const register = ok<Row[]>(await user.get(`/api/accounts/${accountId}/register?end_date=2024-01-31`));
    expect(register.map((r) => [r.postDate, r.description, r.amount, r.cleared])).toEqual([
      ['2024-01-31', 'Reconciliation adjustment', 250, 'reconciled'],
      ['2024-01-20', 'row 2024-01-20', 5_000, 'uncleared'],
      ['2024-01-05', 'row 2024-01-05', -1_000, 'reconciled'],
    ]);
    const account = ok<{ id: number; balance: number }[]>(await user.get('/api/accounts')).find(
      (a) => a.id === accountId,
    );
    expect(account?.balance).toBe(10_000 - 1_000 + 5_000 - 2_000 + 250);
  });

  it('asks before a reconciled row’s amount or date changes; its memo and category change freely', async () => {
    const { user, accountId, ids } = await setup();
    ok(await user.put(`/api/transactions/${ids[0]}`, { cleared: 'cleared' }));
    ok(
      await user.post(`/api/accounts/${accountId}/reconcile`, {
        statementDate: '2024-01-10',
        statementBalance: 9_000,
      }),
    );
    const refused = await user.put(`/api/transactions/${ids[0]}`, { amount: -1_100 });
    expect(refused.status).toBe(409);
    expect(refused.body.error).toContain('is reconciled with a statement; changing its amount needs confirmReconciled');
    expect((await user.put(`/api/transactions/${ids[0]}`, { postDate: '2024-01-06' })).status).toBe(409);
    const viaTrpc = await user.trpc.transactions.update.mutate({ id: ids[0]!, data: { amount: -1_100 } });
    expect(viaTrpc.error?.data.httpStatus).toBe(409);
    expect(await row(user, ids[0]!)).toMatchObject({ amount: -1_000, postDate: '2024-01-05' });

    ok(await user.put(`/api/transactions/${ids[0]}`, { memo: 'checked', category: 'Bills' }));
    const confirmed = ok<Row>(await user.put(`/api/transactions/${ids[0]}?confirmReconciled=true`, { amount: -1_100 }));
    expect(confirmed).toMatchObject({ amount: -1_100, cleared: 'reconciled', memo: 'checked' });
  });
});
