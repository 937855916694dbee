import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * GET /api/accounts/{id}/register and reconciliation against balances worked out by hand.
 * Checking opens at -760.00 on 2023-12-31, so its balance after all its rows is 1,000.00. Its rows, oldest first:
 *   a 2024-01-05  +3,000.00
 *   b 2024-01-10  -1,200.00
 *   c 2024-02-01     -50.00  split into -30.00 (c1) and -20.00 (c2)
 *   d 2024-02-01     -10.00  (made after c, before its split)
 *   e 2024-03-01     +20.00
 * Walking back from 1,000.00 (the balance after the newest row):
 *   e 1,000.00 | d 980.00 | c 990.00 (its split as a whole) | c2 990.00 | c1 1,010.00 | b 1,040.00 | a 2,240.00
 */
let server: TestServer;
let user: ApiUser;
let checkingId: number;
const id: Record<string, number> = {};

async function add(key: string, postDate: string, amount: number, account = 'Checking'): Promise<void> {
  id[key] = ok(
    await user.post('/api/transactions', { postDate, description: `row ${key}`, amount, account, category: 'Misc' }),
  ).id;
}

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  checkingId = ok(
    await user.post('/api/accounts', {
      name: 'Checking',
      type: 'checking',
      openingBalance: -76000,
      openingDate: '2023-12-31',
    }),
  ).id;
  ok(await user.post('/api/accounts', { name: 'Savings', type: 'savings', balance: 5 }));
  await add('a', '2024-01-05', 300000);
  await add('b', '2024-01-10', -120000);
  await add('c', '2024-02-01', -5000);
  await add('d', '2024-02-01', -1000);
  await add('e', '2024-03-01', 2000);
  await add('elsewhere', '2024-02-15', -777, 'Savings');
  const split = ok(
    await user.post(`/api/transactions/${id.c}/split`, {
      splits: [
        { amount: -3000, category: 'Food' },
        { amount: -2000, category: 'Fun' },
      ],
    }),
  );
  [id.c1, id.c2] = split.childTransactions.map((t: { id: number }) => t.id).sort((x: number, y: number) => x - y);
});
afterAll(async () => {
  await server.close();
});

type Row = {
  id: number;
  amount: number;
  runningBalance: number;
  account: string;
  isSplit: boolean;
  parentTransactionId: number | null;
};
const pairs = (rows: Row[]) => rows.map((r) => [Object.keys(id).find((k) => id[k] === r.id), r.runningBalance]);

describe('GET /api/accounts/{id}/register', () => {
  it('lists the account’s rows newest first, each with the balance after it, parts counted once', async () => {
    const rows = ok<Row[]>(await user.get(`/api/accounts/${checkingId}/register`));
    expect(pairs(rows)).toEqual([
      ['e', 100000],
      ['d', 98000],
      ['c', 99000],
      ['c2', 99000],
      ['c1', 101000],
      ['b', 104000],
      ['a', 224000],
    ]);
    // Every field of a transaction is there too.
    expect(rows[0]).toMatchObject({
      id: id.e,
      postDate: '2024-03-01',
      description: 'row e',
      amount: 2000,
      account: 'Checking',
      category: 'Misc',
      type: 'credit',
    });
    // The rule: the balance after a row is the stated balance minus the counted rows listed above it.
    rows.forEach((row, i) => {
      const above = rows
        .slice(0, i)
        .filter((r) => !r.isSplit)
        .reduce((sum, r) => sum + r.amount, 0);
      expect(row.runningBalance).toBe(100000 - above);
    });
  });

  it('pages by date with balances that still count the rows after the page', async () => {
    expect(
      pairs(ok(await user.get(`/api/accounts/${checkingId}/register?start_date=2024-02-01&end_date=2024-02-29`))),
    ).toEqual([
      ['d', 98000],
      ['c', 99000],
      ['c2', 99000],
      ['c1', 101000],
    ]);
    expect(pairs(ok(await user.get(`/api/accounts/${checkingId}/register?end_date=2024-01-31`)))).toEqual([
      ['b', 104000],
      ['a', 224000],
    ]);
    expect(
      ok(await user.get(`/api/accounts/${checkingId}/register?start_date=2025-01-01&end_date=2025-12-31`)),
    ).toEqual([]);
    const viaTrpc = data(
      await user.trpc.accounts.register.query({ id: checkingId, startDate: '2024-02-01', endDate: '2024-02-29' }),
    );
    expect(viaTrpc).toEqual(
      ok(await user.get(`/api/accounts/${checkingId}/register?start_date=2024-02-01&end_date=2024-02-29`)),
    );
  });

  it('refuses bad dates and unknown accounts', async () => {
    const reversed = await user.get(`/api/accounts/${checkingId}/register?start_date=2024-03-01&end_date=2024-02-01`);
    expect(reversed.status).toBe(400);
    expect(reversed.body.error).toBe('end_date: Start date must not be after end date');
    expect((await user.get(`/api/accounts/${checkingId}/register?start_date=yesterday`)).body.error).toContain(
      'start_date',
    );
    expect((await user.get('/api/accounts/999999/register')).status).toBe(404);
  });
});

describe('reconciling with a bank statement', () => {
  it('shows the register balance on the statement date, the difference and the rows after it', async () => {
    const result = ok(
      await user.get(`/api/accounts/${checkingId}/reconcile?statement_date=2024-02-29&statement_balance=97500`),
    );
    expect(result).toMatchObject({
      account: { id: checkingId, name: 'Checking', balance: 100000 },
      statementDate: '2024-02-29',
      statementBalance: 97500,
      registerBalance: 98000,
      difference: -500,
      adjustedBalance: 99500,
    });
    expect(pairs(result.transactionsAfter)).toEqual([['e', 100000]]);
    const agreeing = ok(
      await user.get(`/api/accounts/${checkingId}/reconcile?statement_date=2024-01-31&statement_balance=104000`),
    );
    expect(agreeing.difference).toBe(0);
    expect(agreeing.transactionsAfter).toHaveLength(5);
    expect(
      (await user.get(`/api/accounts/${checkingId}/reconcile?statement_date=2024-02-29&statement_balance=975.00`)).body
        .error,
    ).toContain('statement_balance');
    expect((await user.get(`/api/accounts/${checkingId}/reconcile?statement_balance=1`)).body.error).toContain(
      'statement_date',
    );
  });

  it('adjusts the account to the statement by recording an adjustment transaction on its date', async () => {
    const adjusted = ok(
      await user.post(`/api/accounts/${checkingId}/reconcile`, {
        statementDate: '2024-02-29',
        statementBalance: 97500,
        createAdjustment: true,
      }),
    );
    expect(adjusted).toMatchObject({
      registerBalance: 97500,
      difference: 0,
      adjustedBalance: 99500,
      account: { balance: 99500 },
    });
    expect(ok(await user.get('/api/accounts')).find((a: { id: number }) => a.id === checkingId).balance).toBe(99500);
    const feb = ok(await user.get(`/api/accounts/${checkingId}/register?start_date=2024-02-01&end_date=2024-03-31`));
    expect(feb[1]).toMatchObject({ postDate: '2024-02-29', description: 'Reconciliation adjustment', amount: -500 });
    expect(pairs(feb)).toEqual([
      ['e', 99500],
      [undefined, 97500],
      ['d', 98000],
      ['c', 99000],
      ['c2', 99000],
      ['c1', 101000],
    ]);
    const viaTrpc = data(
      await user.trpc.accounts.adjustBalance.mutate({
        id: checkingId,
        statementDate: '2024-03-01',
        statementBalance: 100000,
        createAdjustment: true,
      }),
    );
    expect(viaTrpc).toMatchObject({ difference: 0, account: { balance: 100000 }, transactionsAfter: [] });
    expect(
      data(
        await user.trpc.accounts.reconcile.query({
          id: checkingId,
          statementDate: '2024-03-01',
          statementBalance: 100000,
        }),
      ).difference,
    ).toBe(0);
    const bad = await user.post(`/api/accounts/${checkingId}/reconcile`, {
      statementDate: '2024-02-30',
      statementBalance: 1,
    });
    expect(bad.status).toBe(400);
    expect(ok(await user.get('/api/accounts')).find((a: { id: number }) => a.id === checkingId).balance).toBe(100000);
  });
});
