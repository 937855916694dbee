import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * An account has an opening balance on a date; its balance is that plus its counted rows, so
 * every import, edit and delete moves it, and the register's newest running balance is it.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

interface Account {
  id: number;
  name: string;
  balance: number;
  openingBalance: number;
  openingDate: string;
  lastImport: { batchId: string; uploadDate: string; fileName: string | null } | null;
}

async function accountNamed(user: ApiUser, name: string): Promise<Account> {
  const found = ok<Account[]>(await user.get('/api/accounts')).find((a) => a.name === name);
  if (!found) throw new Error(`no account ${name}`);
  return found;
}

async function upload(user: ApiUser, account: string, fileName: string, csv: string): Promise<void> {
  const body = new FormData();
  body.append('file', new Blob([csv]), fileName);
  body.append('account', account);
  body.append('transactionType', 'debit');
  expect((await rest(server.url, 'POST', '/api/upload', { token: user.token, body })).status).toBe(201);
}

async function register(user: ApiUser, id: number) {
  return ok<{ id: number; amount: number; runningBalance: number }[]>(await user.get(`/api/accounts/${id}/register`));
}

describe('an opening balance on a date', () => {
  it('is the start of the balance: imports, edits, splits and deletes move it to the cent', async () => {
    const user = await signUp(server.url);
    const created = ok<Account>(
      await user.post('/api/accounts', {
        name: 'Everyday',
        type: 'checking',
        openingBalance: 150_000,
        openingDate: '2024-02-29',
      }),
    );
    expect(created).toMatchObject({ balance: 150_000, openingBalance: 150_000, openingDate: '2024-02-29' });

    await upload(
      user,
      'Everyday',
      'march.csv',
      'Date,Description,Amount\n2024-03-01,Rent,-900.00\n2024-03-02,Pay,2000.10\n',
    );
    const grocer = ok<{ id: number }>(
      await user.post('/api/transactions', {
        postDate: '2024-03-05',
        description: 'Grocer',
        amount: -4_321,
        account: 'Everyday',
      }),
    );
    expect((await accountNamed(user, 'Everyday')).balance).toBe(150_000 - 90_000 + 200_010 - 4_321);

    // A split moves nothing: the parts replace the parent in the count.
    ok(
      await user.post(`/api/transactions/${grocer.id}/split`, {
        splits: [
          { amount: -4_000, category: 'Food' },
          { amount: -321, category: 'Home' },
        ],
      }),
    );
    expect((await accountNamed(user, 'Everyday')).balance).toBe(150_000 - 90_000 + 200_010 - 4_321);

    const rent = ok<{ id: number }[]>(await user.get('/api/transactions?start_date=2024-03-01&end_date=2024-03-01'))[0];
    ok(await user.put(`/api/transactions/${rent.id}`, { amount: -95_000 }));
    const afterEdit = await accountNamed(user, 'Everyday');
    expect(afterEdit.balance).toBe(150_000 - 95_000 + 200_010 - 4_321);

    // The register walks back from the balance to the opening balance, listed below every row.
    const rows = await register(user, afterEdit.id);
    expect(rows[0].runningBalance).toBe(afterEdit.balance);
    const oldest = rows.at(-1)!;
    expect(oldest.runningBalance - oldest.amount).toBe(150_000);

    ok(await user.del(`/api/transactions/${rent.id}`));
    expect((await accountNamed(user, 'Everyday')).balance).toBe(150_000 + 200_010 - 4_321);
  });

  it('names the latest upload of each account, and none for an account without one', async () => {
    const user = await signUp(server.url);
    ok(await user.post('/api/accounts', { name: 'Card', type: 'credit' }));
    ok(await user.post('/api/accounts', { name: 'Cash', type: 'cash' }));
    await upload(user, 'Card', 'first.csv', 'Date,Description,Amount\n2024-03-01,Cafe,-3.00\n');
    await upload(user, 'Card', 'second.csv', 'Date,Description,Amount\n2024-04-01,Cafe,-4.00\n');
    const card = await accountNamed(user, 'Card');
    expect(card.lastImport).toMatchObject({ fileName: 'second.csv', batchId: expect.any(String) });
    expect(card.lastImport!.uploadDate).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect((await accountNamed(user, 'Cash')).lastImport).toBeNull();
    // tRPC answers the same figures.
    const viaTrpc = data(await user.trpc.accounts.list.query());
    expect(viaTrpc.find((a) => a.name === 'Card')).toEqual(card);
  });

  it('defaults the opening date to today and the opening balance to 0', async () => {
    const user = await signUp(server.url);
    const account = ok<Account>(await user.post('/api/accounts', { name: 'Wallet', type: 'cash' }));
    expect(account).toMatchObject({ openingBalance: 0, balance: 0 });
    expect(account.openingDate).toBe(new Date().toISOString().slice(0, 10));
  });

  it('changes by PUT, and a balance sent by an older client sets the opening balance that gives it', async () => {
    const user = await signUp(server.url);
    const legacy = ok<Account>(await user.post('/api/accounts', { name: 'Old', type: 'savings', balance: 5_000 }));
    expect(legacy).toMatchObject({ openingBalance: 5_000, balance: 5_000 });
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-05-01',
        description: 'In',
        amount: 2_500,
        account: 'Old',
      }),
    );
    expect(ok<Account>(await user.put(`/api/accounts/${legacy.id}`, { balance: 10_000 }))).toMatchObject({
      balance: 10_000,
      openingBalance: 7_500,
    });
    expect(
      ok<Account>(await user.put(`/api/accounts/${legacy.id}`, { openingBalance: 0, openingDate: '2024-04-30' })),
    ).toMatchObject({ balance: 2_500, openingBalance: 0, openingDate: '2024-04-30' });
  });

  it('refuses a bad opening date, a fractional amount and both balance and openingBalance, changing nothing', async () => {
    const user = await signUp(server.url);
    const account = ok<Account>(
      await user.post('/api/accounts', { name: 'Main', type: 'checking', openingBalance: 1 }),
    );
    const refusals = [
      [{ openingDate: '2024-02-30' }, 'openingDate'],
      [{ openingDate: '31/01/2024' }, 'openingDate'],
      [{ openingBalance: 1.5 }, 'openingBalance'],
      [{ openingBalance: 5, balance: 5 }, 'not both'],
    ] as const;
    for (const [body, named] of refusals) {
      const put = await user.put(`/api/accounts/${account.id}`, body);
      expect(put.status).toBe(400);
      expect(put.body.error).toContain(named);
      const post = await user.post('/api/accounts', { name: 'New', type: 'cash', ...body });
      expect(post.status).toBe(400);
    }
    expect(await accountNamed(user, 'Main')).toEqual(account);
    expect(ok<Account[]>(await user.get('/api/accounts'))).toHaveLength(1);
  });
});

describe('net worth month by month', () => {
  it('sums every account at the end of each month, oldest first', async () => {
    const user = await signUp(server.url);
    ok(
      await user.post('/api/accounts', {
        name: 'A',
        type: 'checking',
        openingBalance: 10_000,
        openingDate: '2024-01-01',
      }),
    );
    ok(
      await user.post('/api/accounts', {
        name: 'B',
        type: 'credit',
        openingBalance: -2_000,
        openingDate: '2024-01-01',
      }),
    );
    const add = async (postDate: string, amount: number, account: string) =>
      ok(await user.post('/api/transactions', { postDate, description: 'x', amount, account }));
    await add('2024-02-10', 500, 'A');
    await add('2024-02-29', -300, 'B');
    await add('2024-04-01', 1_000, 'A');
    await add('2024-06-01', 7, 'A'); // after the last month asked for

    const answer = ok<{ points: { month: string; endDate: string; netWorth: number }[] }>(
      await user.get('/api/accounts/net-worth?months=4&end_date=2024-04-15'),
    );
    expect(answer.points).toEqual([
      { month: '2024-01', endDate: '2024-01-31', netWorth: 8_000 },
      { month: '2024-02', endDate: '2024-02-29', netWorth: 8_200 },
      { month: '2024-03', endDate: '2024-03-31', netWorth: 8_200 },
      { month: '2024-04', endDate: '2024-04-30', netWorth: 9_200 },
    ]);
    const twelve = data(await user.trpc.accounts.netWorth.query({ endDate: '2024-12-31' }));
    expect(twelve.points).toHaveLength(12);
    expect(twelve.points.at(-1)).toEqual({ month: '2024-12', endDate: '2024-12-31', netWorth: 9_207 });
    // The newest point agrees with the accounts' balances.
    const balances = ok<Account[]>(await user.get('/api/accounts')).reduce((sum, a) => sum + a.balance, 0);
    expect(balances).toBe(9_207);
  });

  it('refuses a number of months out of range, naming it', async () => {
    const user = await signUp(server.url);
    for (const months of ['0', '121', 'x']) {
      const res = await user.get(`/api/accounts/net-worth?months=${months}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('months');
    }
  });
});
