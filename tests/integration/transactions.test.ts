import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TransactionDto } from '../../src/shared/schemas/transactions';
import { data, ok, seedBatch, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

async function freshUserWithAccount(): Promise<ApiUser> {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking', balance: 0 }));
  return user;
}

async function addTx(user: ApiUser, body: Record<string, unknown>): Promise<TransactionDto> {
  return ok(await user.post('/api/transactions', { account: 'Checking', ...body }));
}

async function rowCount(user: ApiUser): Promise<number> {
  const rows = await server.sql('select count(*) as n from "transaction" where user_id = ?', [user.userId]);
  return Number(rows[0].n);
}

describe('POST/PUT/DELETE /api/transactions', () => {
  it('creates a transaction with the documented shape, creating its category', async () => {
    const user = await freshUserWithAccount();
    const res = await user.post('/api/transactions', {
      postDate: '2024-03-05',
      description: 'Coffee',
      amount: -450,
      category: 'Dining',
      account: 'checking',
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      postDate: '2024-03-05',
      description: 'Coffee',
      amount: -450,
      currency: 'USD',
      originalAmount: null,
      originalCurrency: null,
      account: 'Checking',
      bank_account_id: expect.any(Number),
      category: 'Dining',
      categorySource: 'user',
      type: 'debit',
      isSplit: false,
      parentTransactionId: null,
      splitNote: null,
      memo: null,
      cleared: 'uncleared',
      batchId: null,
      transferId: null,
      transferCounterpartId: null,
      transferCounterpartAccount: null,
      accountOnBudget: true,
      transferCounterpartOnBudget: false,
    });
    const categories = ok(await user.get('/api/categories'));
    expect(categories.map((c: { name: string }) => c.name)).toEqual(['Dining']);
    // the same category in another case is reused, not duplicated
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-03-06',
        description: 'Tea',
        amount: -300,
        category: 'DINING',
      }),
    );
    expect(ok(await user.get('/api/categories'))).toHaveLength(1);
  });

  it('defaults the type from the sign and accepts no account', async () => {
    const user = await signUp(server.url);
    const tx = ok(
      await user.post('/api/transactions', { postDate: '2024-01-01', description: 'Salary', amount: 250000 }),
    );
    expect(tx).toMatchObject({ type: 'credit', account: null, category: null });
  });

  it.each([
    [{ postDate: '2024-02-30', description: 'x', amount: 1 }, 'postDate'],
    [{ postDate: '2024-02-10', description: 'x', amount: 1.5 }, 'amount'],
    [{ postDate: '2024-02-10', description: 'x', amount: 2 ** 53 }, 'amount'],
    [{ postDate: '2024-02-10', description: 'x', amount: 'NaN' }, 'amount'],
    [{ postDate: '2024-02-10', description: '', amount: 1 }, 'description'],
    [{ postDate: '2024-02-10', description: 'x', amount: 1, type: 'gift' }, 'type'],
    [{ description: 'x', amount: 1 }, 'postDate'],
    [{ postDate: '2024-02-10', description: 'x', amount: 1, userId: 999 }, 'userId'],
  ])('refuses %j with a 400 naming %s and writes nothing', async (body, field) => {
    const user = await signUp(server.url);
    const res = await user.post('/api/transactions', body);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(field);
    expect(res.body.message).toBe(res.body.error);
    expect(await rowCount(user)).toBe(0);
  });

  it('refuses 1e309 (not JSON-representable as a number) and an unknown account', async () => {
    const user = await signUp(server.url);
    const big = await server.app.inject({
      method: 'POST',
      url: '/api/transactions',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      payload: '{"postDate":"2024-01-01","description":"x","amount":1e309}',
    });
    expect(big.statusCode).toBe(400);
    const unknown = await user.post('/api/transactions', {
      postDate: '2024-01-01',
      description: 'x',
      amount: 1,
      account: 'Nope',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.error).toContain("Account 'Nope' not found");
    expect(await rowCount(user)).toBe(0);
  });

  it('updates any field and deletes', async () => {
    const user = await freshUserWithAccount();
    ok(await user.post('/api/accounts', { name: 'Savings', type: 'savings' }));
    const tx = await addTx(user, { postDate: '2024-03-05', description: 'Coffee', amount: -450 });
    const updated = ok(
      await user.put(`/api/transactions/${tx.id}`, {
        postDate: '2024-03-07',
        description: 'Espresso',
        amount: -500,
        category: 'Cafe',
        type: 'charge',
        account: 'Savings',
        splitNote: 'note',
      }),
    );
    expect(updated).toMatchObject({
      postDate: '2024-03-07',
      description: 'Espresso',
      amount: -500,
      category: 'Cafe',
      type: 'charge',
      account: 'Savings',
      splitNote: 'note',
    });
    expect(ok(await user.put(`/api/transactions/${tx.id}`, { category: null })).category).toBeNull();
    expect((await user.put(`/api/transactions/${tx.id}`, { amount: 0.5 })).status).toBe(400);
    expect(ok(await user.del(`/api/transactions/${tx.id}`))).toEqual({ message: 'Transaction deleted' });
    expect((await user.get(`/api/transactions/${tx.id}`)).status).toBe(404);
    expect((await user.del(`/api/transactions/${tx.id}`)).status).toBe(404);
  });
});

describe('GET /api/transactions', () => {
  let user: ApiUser;
  beforeAll(async () => {
    user = await freshUserWithAccount();
    ok(await user.post('/api/accounts', { name: 'Card', type: 'credit' }));
    await addTx(user, { postDate: '2024-01-31', description: 'Before range', amount: -100, category: 'Food' });
    await addTx(user, { postDate: '2024-02-01', description: 'Grocery STORE', amount: -2500, category: 'Food' });
    await addTx(user, { postDate: '2024-02-10', description: 'Paycheck', amount: 300000, category: 'Salary' });
    await addTx(user, { postDate: '2024-02-15', description: 'Mystery', amount: -999 });
    await addTx(user, {
      postDate: '2024-02-29',
      description: 'Card grocery',
      amount: -1234,
      category: 'food',
      account: 'Card',
    });
    await addTx(user, { postDate: '2024-03-01', description: 'After range', amount: -100, category: 'Food' });
  });

  const search = async (query: string) =>
    ok<TransactionDto[]>(await user.get(`/api/transactions?start_date=2024-02-01&end_date=2024-02-29${query}`)).map(
      (t) => t.description,
    );

  it('answers the range newest first', async () => {
    expect(await search('')).toEqual(['Card grocery', 'Mystery', 'Paycheck', 'Grocery STORE']);
  });
  it.each([
    ['&categories=FOOD', ['Card grocery', 'Grocery STORE']],
    ['&categories=uncategorized', ['Mystery']],
    ['&categories=Salary,%20uncategorized', ['Mystery', 'Paycheck']],
    ['&account=card', ['Card grocery']],
    ['&description=grocery', ['Card grocery', 'Grocery STORE']],
    ['&min_amount=12.34', ['Card grocery', 'Paycheck', 'Grocery STORE']],
    ['&max_amount=12.34', ['Card grocery', 'Mystery']],
    ['&min_amount=10&max_amount=30', ['Card grocery', 'Grocery STORE']],
  ])('filters %s', async (query, expected) => {
    expect(await search(query)).toEqual(expected);
  });
  it('matches descriptions regardless of case beyond ASCII', async () => {
    const other = await freshUserWithAccount();
    await addTx(other, { postDate: '2024-02-20', description: 'BÄCKEREI MÜLLER', amount: -450 });
    await addTx(other, { postDate: '2024-02-21', description: 'Ελληνικό Καφέ', amount: -300 });
    await addTx(other, { postDate: '2024-02-22', description: 'Backerei Muller', amount: -200 });
    const find = async (text: string) =>
      ok<TransactionDto[]>(
        await other.get(
          `/api/transactions?start_date=2024-02-01&end_date=2024-02-29&description=${encodeURIComponent(text)}`,
        ),
      ).map((t) => t.description);
    expect(await find('bäckerei müller')).toEqual(['BÄCKEREI MÜLLER']);
    expect(await find('ΚΑΦΈ')).toEqual(['Ελληνικό Καφέ']);
    expect(await find('MULLER')).toEqual(['Backerei Muller']);
  });
  it.each([
    ['?end_date=2024-02-01', 'start_date'],
    ['?start_date=2024-02-01', 'end_date'],
    ['?start_date=2024-02-30&end_date=2024-03-01', 'start_date'],
    ['?start_date=2024-02-01&end_date=2024-03-01&min_amount=abc', 'min_amount'],
  ])('refuses %s naming %s', async (query, field) => {
    const res = await user.get(`/api/transactions${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(field);
  });
  it('answers the same over tRPC (amount bounds in cents)', async () => {
    const rows = data(
      await user.trpc.transactions.list.query({
        startDate: '2024-02-01',
        endDate: '2024-02-29',
        minAmount: 1234,
        categories: ['food'],
      }),
    );
    expect(rows.map((t: TransactionDto) => t.description)).toEqual(['Card grocery', 'Grocery STORE']);
  });
});

describe('bulk update', () => {
  it('updates every id or none', async () => {
    const user = await freshUserWithAccount();
    ok(await user.post('/api/accounts', { name: 'Card', type: 'credit' }));
    const a = await addTx(user, { postDate: '2024-01-01', description: 'a', amount: -1 });
    const b = await addTx(user, { postDate: '2024-01-02', description: 'b', amount: -2 });
    const other = await signUp(server.url);
    const foreign = ok(
      await other.post('/api/transactions', { postDate: '2024-01-01', description: 'theirs', amount: -3 }),
    );

    const refused = await user.put('/api/transactions/bulk', {
      transactionIds: [a.id, foreign.id],
      updates: { category: 'X' },
    });
    expect(refused.status).toBe(404);
    expect(ok(await user.get(`/api/transactions/${a.id}`)).category).toBeNull();
    expect(ok(await other.get(`/api/transactions/${foreign.id}`)).category).toBeNull();

    expect(
      (await user.put('/api/transactions/bulk', { transactionIds: [a.id], updates: { account: 'Nope' } })).status,
    ).toBe(404);
    const empty = await user.put('/api/transactions/bulk', { transactionIds: [a.id], updates: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toContain('Please select at least one field to update');

    const updated = ok(
      await user.put('/api/transactions/bulk', {
        transactionIds: [a.id, b.id],
        updates: { category: 'Bills', type: 'transfer', account: 'Card' },
      }),
    );
    expect(updated).toHaveLength(2);
    for (const tx of updated) expect(tx).toMatchObject({ category: 'Bills', type: 'transfer', account: 'Card' });
  });
});

describe('splits', () => {
  it('splits, inspects from parent or part, edits by re-posting, refuses bad splits unchanged', async () => {
    const user = await freshUserWithAccount();
    const parent = await addTx(user, {
      postDate: '2024-05-01',
      description: 'Big shop',
      amount: -10000,
      type: 'charge',
    });

    const tooFew = await user.post(`/api/transactions/${parent.id}/split`, {
      splits: [{ amount: -10000, category: 'Food' }],
    });
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.error).toBe('At least 2 splits are required');
    const badSum = await user.post(`/api/transactions/${parent.id}/split`, {
      splits: [
        { amount: -5000, category: 'Food' },
        { amount: -4000, category: 'Home' },
      ],
    });
    expect(badSum.status).toBe(400);
    expect(badSum.body.error).toBe('Split amounts must sum to 100.00');
    expect(await rowCount(user)).toBe(1);
    expect(ok(await user.get(`/api/transactions/${parent.id}`)).isSplit).toBe(false);

    const split = await user.post(`/api/transactions/${parent.id}/split`, {
      splits: [
        { amount: -6000, category: 'Food', description: 'Groceries', splitNote: 'weekly' },
        { amount: -4000, category: 'Home' },
      ],
    });
    expect(split.status).toBe(201);
    expect(split.body.parentTransaction).toMatchObject({ id: parent.id, isSplit: true });
    expect(split.body.childTransactions).toHaveLength(2);
    expect(split.body.childTransactions[0]).toMatchObject({
      postDate: '2024-05-01',
      account: 'Checking',
      type: 'charge',
      amount: -6000,
      category: 'Food',
      description: 'Groceries',
      splitNote: 'weekly',
      parentTransactionId: parent.id,
    });
    expect(split.body.childTransactions[1].description).toBe('Big shop');
    const child = split.body.childTransactions[0] as TransactionDto;
    expect(ok(await user.get(`/api/transactions/${child.id}/splits`))).toEqual(split.body);

    // a part cannot be split; amounts of split rows cannot change
    expect(
      (
        await user.post(`/api/transactions/${child.id}/split`, {
          splits: [
            { amount: -3000, category: 'a' },
            { amount: -3000, category: 'b' },
          ],
        })
      ).status,
    ).toBe(409);
    expect((await user.put(`/api/transactions/${child.id}`, { amount: -1 })).status).toBe(409);
    expect((await user.put(`/api/transactions/${parent.id}`, { amount: -1 })).status).toBe(409);
    // the date of the family moves together
    ok(await user.put(`/api/transactions/${parent.id}`, { postDate: '2024-05-02' }));
    const moved = ok(await user.get(`/api/transactions/${child.id}/splits`));
    expect([moved.parentTransaction, ...moved.childTransactions].map((t: TransactionDto) => t.postDate)).toEqual([
      '2024-05-02',
      '2024-05-02',
      '2024-05-02',
    ]);

    // editing = posting again replaces the parts
    const edited = ok(
      await user.post(`/api/transactions/${parent.id}/split`, {
        splits: [
          { amount: -2500, category: 'A' },
          { amount: -2500, category: 'B' },
          { amount: -5000, category: 'C' },
        ],
      }),
    );
    expect(edited.childTransactions.map((t: TransactionDto) => t.amount)).toEqual([-2500, -2500, -5000]);
    expect(await rowCount(user)).toBe(4);

    // totals count parts, never the parent
    const month = ok<TransactionDto[]>(await user.get('/api/transactions?start_date=2024-05-01&end_date=2024-05-31'));
    expect(month).toHaveLength(4);
    expect(month.filter((t) => !t.isSplit).reduce((sum, t) => sum + t.amount, 0)).toBe(-10000);

    // not split at all
    const plain = await addTx(user, { postDate: '2024-05-03', description: 'plain', amount: -1 });
    expect((await user.get(`/api/transactions/${plain.id}/splits`)).status).toBe(404);
  });

  it('deleting a part removes the whole split and unsplits the parent; deleting a parent takes its parts', async () => {
    const user = await freshUserWithAccount();
    const parent = await addTx(user, { postDate: '2024-05-01', description: 'Shop', amount: 1000 });
    const { childTransactions } = ok(
      await user.post(`/api/transactions/${parent.id}/split`, {
        splits: [
          { amount: 400, category: 'a' },
          { amount: 600, category: 'b' },
        ],
      }),
    );
    ok(await user.del(`/api/transactions/${childTransactions[0].id}`));
    expect(await rowCount(user)).toBe(1);
    expect(ok(await user.get(`/api/transactions/${parent.id}`)).isSplit).toBe(false);

    ok(
      await user.post(`/api/transactions/${parent.id}/split`, {
        splits: [
          { amount: 400, category: 'a' },
          { amount: 600, category: 'b' },
        ],
      }),
    );
    ok(await user.del(`/api/transactions/${parent.id}`));
    expect(await rowCount(user)).toBe(0);
  });

  it('fix-split-status clears parents without parts and answers the count', async () => {
    const user = await freshUserWithAccount();
    const parent = await addTx(user, { postDate: '2024-05-01', description: 'Shop', amount: -1000 });
    const kept = await addTx(user, { postDate: '2024-05-01', description: 'Kept', amount: -1000 });
    ok(
      await user.post(`/api/transactions/${kept.id}/split`, {
        splits: [
          { amount: -400, category: 'a' },
          { amount: -600, category: 'b' },
        ],
      }),
    );
    await server.sql('update "transaction" set is_split = true where id = ?', [parent.id], 'run');
    const res = await user.post('/api/transactions/fix-split-status');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: 1, fixed: 1 });
    expect(ok(await user.get(`/api/transactions/${parent.id}`)).isSplit).toBe(false);
    expect(ok(await user.get(`/api/transactions/${kept.id}`)).isSplit).toBe(true);
    expect(data(await user.trpc.transactions.fixSplitStatus.mutate())).toEqual({ message: 0, fixed: 0 });
  });
});

describe('batches', () => {
  it('lists newest first, answers a batch’s transactions, deletes a batch with its rows', async () => {
    const user = await freshUserWithAccount();
    const a = await addTx(user, { postDate: '2024-01-01', description: 'a', amount: -1 });
    const b = await addTx(user, { postDate: '2024-01-02', description: 'b', amount: -2 });
    const c = await addTx(user, { postDate: '2024-01-03', description: 'c', amount: -3 });
    const first = await seedBatch(server.app, user.userId, a.bank_account_id, [a.id, b.id], '2024-02-01T10:00:00.000Z');
    const second = await seedBatch(server.app, user.userId, a.bank_account_id, [c.id], '2024-02-01T10:00:00.005Z');
    const batches = ok(await user.get('/api/transactions/batches/list'));
    expect(batches.map((x: { batchId: string }) => x.batchId)).toEqual([second, first]);
    expect(batches[1]).toMatchObject({
      batchId: first,
      transactionCount: 2,
      uploadDate: expect.any(String),
      account: 'Checking',
    });
    const rows = ok(await user.get(`/api/transactions/batches/${first}/transactions`));
    expect(rows.map((t: TransactionDto) => t.description)).toEqual(['b', 'a']);
    expect(rows[0].batchId).toBe(first);
    ok(await user.del(`/api/transactions/batches/${first}`));
    expect(await rowCount(user)).toBe(1);
    expect((await user.get(`/api/transactions/batches/${first}/transactions`)).status).toBe(404);
    expect(data(await user.trpc.transactions.batches.query()).map((x: { batchId: string }) => x.batchId)).toEqual([
      second,
    ]);
  });
});
