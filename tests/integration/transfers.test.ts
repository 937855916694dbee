import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Transfers on a real server (SQLite in `node`, PostgreSQL in `integration-pg`), over REST and tRPC:
 * two transactions of two accounts that know each other. Creating both sides, linking and
 * unlinking, the refusals that change nothing, deletes of one side, and amount edits that follow.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type Tx = {
  id: number;
  postDate: string;
  description: string;
  amount: number;
  account: string | null;
  type: string;
  transferId: number | null;
  transferCounterpartId: number | null;
  transferCounterpartAccount: string | null;
};
type Transfer = { transferId: number; from: Tx; to: Tx };

async function userWithAccounts(): Promise<ApiUser> {
  const user = await signUp(server.url);
  for (const [name, type] of [
    ['Checking', 'checking'],
    ['Card', 'credit'],
    ['Savings', 'savings'],
  ])
    ok(await user.post('/api/accounts', { name, type }));
  return user;
}

async function all(user: ApiUser): Promise<Tx[]> {
  return ok(await user.get<Tx[]>('/api/transactions?start_date=2000-01-01&end_date=2100-01-01')).sort(
    (a, b) => a.id - b.id,
  );
}

async function entered(user: ApiUser, account: string, amount: number, postDate = '2025-03-01'): Promise<Tx> {
  return ok(await user.post<Tx>('/api/transactions', { account, amount, postDate, description: `Row ${amount}` }));
}

describe('creating a transfer', () => {
  it('writes both sides linked, each with its own date, and every answer names the other side', async () => {
    const user = await userWithAccounts();
    const created = await user.post<Transfer>('/api/transfers', {
      fromAccount: 'Checking',
      toAccount: 'Savings',
      amount: 25_000,
      date: '2025-03-03',
      toDate: '2025-03-05',
    });
    expect(created.status).toBe(201);
    const { transferId, from, to } = created.body;
    expect(from).toMatchObject({
      account: 'Checking',
      amount: -25_000,
      postDate: '2025-03-03',
      description: 'Transfer to Savings',
      transferId,
      transferCounterpartId: to.id,
      transferCounterpartAccount: 'Savings',
    });
    expect(to).toMatchObject({
      account: 'Savings',
      amount: 25_000,
      postDate: '2025-03-05',
      description: 'Transfer from Checking',
      transferId,
      transferCounterpartId: from.id,
      transferCounterpartAccount: 'Checking',
    });
    // The same fields in the REST search, one transaction, tRPC's list and the account register.
    expect(await all(user)).toEqual([
      expect.objectContaining({ id: from.id, transferCounterpartId: to.id }),
      expect.objectContaining({ id: to.id, transferCounterpartId: from.id }),
    ]);
    expect(ok(await user.get<Tx>(`/api/transactions/${to.id}`))).toMatchObject({
      transferCounterpartAccount: 'Checking',
    });
    const listed = data(await user.trpc.transactions.list.query({ startDate: '2025-01-01', endDate: '2025-12-31' }));
    expect(listed.find((tx) => tx.id === from.id)).toMatchObject({ transferId, transferCounterpartAccount: 'Savings' });
    const accounts = ok(await user.get<{ id: number; name: string }[]>('/api/accounts'));
    const savings = accounts.find((a) => a.name === 'Savings')!;
    const register = ok(
      await user.get<Tx[]>(`/api/accounts/${savings.id}/register?start_date=2025-01-01&end_date=2025-12-31`),
    );
    expect(register).toEqual([expect.objectContaining({ id: to.id, transferCounterpartId: from.id })]);
    expect(ok(await user.get<Transfer>(`/api/transfers/${transferId}`))).toEqual({ transferId, from, to, rate: null });
  });

  it('takes accounts by id, a description, and answers the same through tRPC', async () => {
    const user = await userWithAccounts();
    const accounts = ok(await user.get<{ id: number; name: string }[]>('/api/accounts'));
    const card = accounts.find((a) => a.name === 'Card')!;
    const made = data(
      await user.trpc.transfers.create.mutate({
        fromAccount: 'Checking',
        toAccount: card.id,
        amount: 1_999,
        date: '2025-04-30',
        description: 'Card payment',
      }),
    );
    expect(made.from).toMatchObject({ description: 'Card payment', postDate: '2025-04-30', account: 'Checking' });
    expect(made.to).toMatchObject({ description: 'Card payment', postDate: '2025-04-30', account: 'Card' });
  });

  it.each([
    [{ fromAccount: 'Checking', toAccount: 'checking', amount: 100, date: '2025-01-01' }, 400, /two accounts/],
    [{ fromAccount: 'Checking', toAccount: 'Nowhere', amount: 100, date: '2025-01-01' }, 404, /Nowhere/],
    [
      { fromAccount: 'Checking', toAccount: 'Savings', amount: 0, date: '2025-01-01' },
      400,
      /amount: must be more than 0/,
    ],
    [{ fromAccount: 'Checking', toAccount: 'Savings', amount: -5, date: '2025-01-01' }, 400, /amount/],
    [{ fromAccount: 'Checking', toAccount: 'Savings', amount: 5, date: '2025-02-30' }, 400, /date/],
    [{ fromAccount: 'Checking', toAccount: 'Savings', amount: 5, date: '2025-02-03', toDate: 'soon' }, 400, /toDate/],
  ])('refuses %j with %i and writes nothing', async (body, status, message) => {
    const user = await userWithAccounts();
    const res = await user.post<{ error: string }>('/api/transfers', body);
    expect(res.status).toBe(status);
    expect(JSON.stringify(res.body)).toMatch(message);
    expect(await all(user)).toEqual([]);
  });
});

describe('linking two existing transactions', () => {
  it('links rows of two accounts with opposite amounts, and unlinking keeps both', async () => {
    const user = await userWithAccounts();
    const out = await entered(user, 'Checking', -5_000, '2025-03-01');
    const into = await entered(user, 'Card', 5_000, '2025-03-04');
    const linked = await user.post<Transfer>('/api/transfers/link', { transactionIds: [into.id, out.id] });
    expect(linked.status).toBe(201);
    expect(linked.body.from).toMatchObject({ id: out.id, postDate: '2025-03-01', transferCounterpartId: into.id });
    expect(linked.body.to).toMatchObject({
      id: into.id,
      postDate: '2025-03-04',
      transferCounterpartAccount: 'Checking',
    });

    expect(ok(await user.del(`/api/transfers/${linked.body.transferId}`))).toMatchObject({ message: /unlinked/ });
    expect(await all(user)).toEqual([
      expect.objectContaining({
        id: out.id,
        transferId: null,
        transferCounterpartId: null,
        transferCounterpartAccount: null,
      }),
      expect.objectContaining({ id: into.id, transferId: null, transferCounterpartId: null }),
    ]);
    expect((await user.get(`/api/transfers/${linked.body.transferId}`)).status).toBe(404);
    // Unlinked, they can be linked again, here through tRPC.
    const again = data(await user.trpc.transfers.link.mutate({ transactionIds: [out.id, into.id] }));
    expect(again.transferId).not.toBe(linked.body.transferId);
    expect(data(await user.trpc.transfers.unlink.mutate({ id: again.transferId }))).toMatchObject({
      message: /unlinked/,
    });
  });

  it('refuses one account, amounts that are not opposite, a split row, a linked row and another user, changing nothing', async () => {
    const user = await userWithAccounts();
    const a = await entered(user, 'Checking', -5_000);
    const b = await entered(user, 'Checking', 5_000);
    const c = await entered(user, 'Savings', 4_000);
    const d = await entered(user, 'Savings', 5_000);
    const e = await entered(user, 'Card', 5_000);
    const split = await entered(user, 'Card', 5_000);
    ok(
      await user.post(`/api/transactions/${split.id}/split`, {
        splits: [
          { amount: 2_000, category: 'A' },
          { amount: 3_000, category: 'B' },
        ],
      }),
    );
    const other = await signUp(server.url);
    ok(await other.post('/api/accounts', { name: 'Theirs', type: 'checking' }));
    const theirs = ok(
      await other.post<Tx>('/api/transactions', {
        account: 'Theirs',
        amount: 5_000,
        postDate: '2025-03-01',
        description: 'x',
      }),
    );
    ok(await user.post('/api/transfers/link', { transactionIds: [a.id, d.id] }));
    const before = await all(user);

    const refusals: [number[], number, RegExp][] = [
      [[b.id, b.id], 400, /two different transactions/],
      [[a.id, b.id], 400, /Both transactions are in the account 'Checking'/],
      [
        [b.id, c.id],
        400,
        /not opposite: transaction \d+ \(50\.00 in 'Checking'\) and transaction \d+ \(40\.00 in 'Savings'\)/,
      ],
      [[b.id, split.id], 400, /split/],
      [[e.id, a.id], 409, new RegExp(`Transaction ${a.id} is already linked to transaction ${d.id}`)],
      [[a.id, d.id], 409, /already linked/],
      [[b.id, theirs.id], 404, new RegExp(`Transaction ${theirs.id} not found`)],
      [[b.id, 987_654_321], 404, /not found/],
    ];
    for (const [transactionIds, status, message] of refusals) {
      const res = await user.post<{ error: string; message?: string }>('/api/transfers/link', { transactionIds });
      expect(res.status, JSON.stringify(transactionIds)).toBe(status);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    for (const body of [
      { transactionIds: [a.id] },
      { transactionIds: [a.id, b.id, c.id] },
      {},
      { transactionIds: 'x' },
    ]) {
      const res = await user.post('/api/transfers/link', body);
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(/transactionIds/);
    }
    const trpcRefusal = await user.trpc.transfers.link.mutate({ transactionIds: [a.id, b.id] });
    expect(trpcRefusal.error?.data.httpStatus).toBe(400);
    expect(await all(user)).toEqual(before);
    // The other user's transaction is untouched, and their unlink of our transfer is a 404.
    expect(ok(await other.get<Tx>(`/api/transactions/${theirs.id}`)).transferId).toBeNull();
    expect((await other.del(`/api/transfers/${before[0].transferId}`)).status).toBe(404);
    expect(await all(user)).toEqual(before);
  });
});

describe('changing one side', () => {
  it('an amount edit changes the other side to stay opposite; each side keeps its own date', async () => {
    const user = await userWithAccounts();
    const { from, to } = ok(
      await user.post<Transfer>('/api/transfers', {
        fromAccount: 'Checking',
        toAccount: 'Card',
        amount: 10_000,
        date: '2025-05-01',
        toDate: '2025-05-03',
      }),
    );
    ok(await user.put(`/api/transactions/${to.id}`, { amount: 12_500, postDate: '2025-05-04' }));
    expect(ok(await user.get<Tx>(`/api/transactions/${from.id}`))).toMatchObject({
      amount: -12_500,
      postDate: '2025-05-01',
    });
    data(await user.trpc.transactions.update.mutate({ id: from.id, data: { amount: -9_000 } }));
    expect(ok(await user.get<Tx>(`/api/transactions/${to.id}`))).toMatchObject({
      amount: 9_000,
      postDate: '2025-05-04',
    });
  });

  it('refuses moving one side into the account of the other, or splitting a side, changing nothing', async () => {
    const user = await userWithAccounts();
    const { from, to } = ok(
      await user.post<Transfer>('/api/transfers', {
        fromAccount: 'Checking',
        toAccount: 'Card',
        amount: 700,
        date: '2025-05-01',
      }),
    );
    const before = await all(user);
    const moved = await user.put(`/api/transactions/${to.id}`, { account: 'Checking', amount: 800 });
    expect(moved.status).toBe(409);
    expect(JSON.stringify(moved.body)).toMatch(/two different accounts; unlink them first/);
    expect(
      (await user.put('/api/transactions/bulk', { transactionIds: [from.id], updates: { account: 'Card' } })).status,
    ).toBe(409);
    const split = await user.post(`/api/transactions/${from.id}/split`, { splits: [{ amount: -700, category: 'A' }] });
    expect(split.status).toBe(409);
    expect(JSON.stringify(split.body)).toMatch(/one side of a transfer/);
    expect(await all(user)).toEqual(before);
    // Moving a side to a third account keeps the link.
    ok(await user.put(`/api/transactions/${to.id}`, { account: 'Savings' }));
    expect(ok(await user.get<Tx>(`/api/transactions/${from.id}`)).transferCounterpartAccount).toBe('Savings');
  });
});

describe('deleting one side', () => {
  async function pair(user: ApiUser): Promise<Transfer> {
    return ok(
      await user.post<Transfer>('/api/transfers', {
        fromAccount: 'Checking',
        toAccount: 'Savings',
        amount: 300,
        date: '2025-06-01',
      }),
    );
  }

  it('keeps the other side, unlinked, by default and with withCounterpart=false', async () => {
    const user = await userWithAccounts();
    const first = await pair(user);
    ok(await user.del(`/api/transactions/${first.from.id}`));
    const second = await pair(user);
    ok(await user.del(`/api/transactions/${second.to.id}?withCounterpart=false`));
    expect(await all(user)).toEqual([
      expect.objectContaining({ id: first.to.id, transferId: null, transferCounterpartId: null }),
      expect.objectContaining({ id: second.from.id, transferId: null, transferCounterpartId: null }),
    ]);
    expect((await user.get(`/api/transfers/${first.transferId}`)).status).toBe(404);
  });

  it('deletes both sides with withCounterpart=true, over REST and in tRPC bulk deletes', async () => {
    const user = await userWithAccounts();
    const first = await pair(user);
    expect(ok(await user.del(`/api/transactions/${first.from.id}?withCounterpart=true`))).toMatchObject({
      message: /with the other side/,
    });
    const second = await pair(user);
    const third = await pair(user);
    const kept = await pair(user);
    expect(
      data(
        await user.trpc.transactions.deleteMany.mutate({ ids: [second.from.id, third.to.id], withCounterpart: true }),
      ),
    ).toMatchObject({ deleted: 4 });
    data(await user.trpc.transactions.deleteMany.mutate({ ids: [kept.to.id] }));
    expect(await all(user)).toEqual([expect.objectContaining({ id: kept.from.id, transferId: null })]);
    expect((await user.del(`/api/transactions/${kept.from.id}?withCounterpart=maybe`)).status).toBe(400);
  });

  it('deleting a batch keeps the other sides of its rows, unlinked', async () => {
    const user = await userWithAccounts();
    const csv = 'Date,Description,Amount\n2025-07-01,TRANSFER FROM CHECKING,250.00\n';
    const body = new FormData();
    body.append('file', new Blob([csv]), 'savings.csv');
    body.append('account', 'Savings');
    body.append('transactionType', 'auto');
    const uploaded = await rest<{ batchId: string }>(server.url, 'POST', '/api/upload', { token: user.token, body });
    const batchRow = (await all(user))[0];
    const out = await entered(user, 'Checking', -25_000, '2025-07-01');
    ok(await user.post('/api/transfers/link', { transactionIds: [out.id, batchRow.id] }));
    ok(await user.del(`/api/transactions/batches/${uploaded.body.batchId}`));
    expect(await all(user)).toEqual([
      expect.objectContaining({ id: out.id, transferId: null, transferCounterpartId: null }),
    ]);
  });
});

describe('export and restore', () => {
  it('keep the links and the offered and dismissed pairs, under the new ids', async () => {
    const user = await userWithAccounts();
    const made = ok(
      await user.post<Transfer>('/api/transfers', {
        fromAccount: 'Checking',
        toAccount: 'Card',
        amount: 4_200,
        date: '2025-08-01',
      }),
    );
    const out = await entered(user, 'Checking', -900, '2025-08-02');
    const into = await entered(user, 'Savings', 900, '2025-08-03');
    const other = await entered(user, 'Card', 900, '2025-08-03');
    for (const [first, second, status] of [
      [out.id, into.id, 'open'],
      [out.id, other.id, 'dismissed'],
    ] as const)
      await server.sql(
        `insert into transfer_candidate (created_at, user_id, first_id, second_id, score, reason, status) values (?, ?, ?, ?, 40, 'same amount', ?)`,
        [new Date().toISOString(), user.userId, first, second, status],
      );
    type Doc = {
      transactions: { id: number; description: string; amount: number }[];
      transfers: { transactionIds: number[]; origin: string }[];
      transferCandidates: { transactionIds: number[]; status: string }[];
    };
    const doc = ok(await user.get<Doc>('/api/export'));
    expect(doc.transfers).toEqual([
      expect.objectContaining({ transactionIds: [made.from.id, made.to.id], origin: 'created' }),
    ]);
    expect(doc.transferCandidates.map((c) => [c.transactionIds, c.status])).toEqual([
      [[out.id, into.id], 'open'],
      [[out.id, other.id], 'dismissed'],
    ]);
    const copy = await signUp(server.url);
    expect((await copy.post('/api/import', doc)).status).toBe(201);
    const again = ok(await copy.get<Doc>('/api/export'));
    // The same links between the same rows (by their place in the document).
    const places = (d: Doc, ids: number[]) => ids.map((id) => d.transactions.findIndex((t) => t.id === id));
    expect(again.transfers.map((t) => places(again, t.transactionIds))).toEqual(
      doc.transfers.map((t) => places(doc, t.transactionIds)),
    );
    expect(again.transferCandidates.map((c) => [places(again, c.transactionIds), c.status])).toEqual(
      doc.transferCandidates.map((c) => [places(doc, c.transactionIds), c.status]),
    );
    const restored = await all(copy);
    const from = restored.find((tx) => tx.amount === -4_200)!;
    expect(from).toMatchObject({
      transferCounterpartAccount: 'Card',
      transferCounterpartId: restored.find((tx) => tx.amount === 4_200)!.id,
    });
    const offered = ok(await copy.get<{ from: Tx; to: Tx }[]>('/api/transfers/candidates'));
    expect(offered.map((c) => [c.from.amount, c.to.account])).toEqual([[-900, 'Savings']]);
  });

  it('refuses a document whose transfer links one account or amounts that are not opposite', async () => {
    const user = await userWithAccounts();
    const a = await entered(user, 'Checking', -900);
    const b = await entered(user, 'Checking', 900);
    const c = await entered(user, 'Savings', 800);
    const doc = ok(await user.get<Record<string, unknown>>('/api/export'));
    const copy = await signUp(server.url);
    for (const [ids, message] of [
      [[a.id, b.id], /two different accounts/],
      [[a.id, c.id], /opposite amounts/],
      [[a.id, 999_999], /refers to no transaction/],
    ] as const) {
      const res = await copy.post('/api/import', {
        ...doc,
        transfers: [{ id: 1, transactionIds: ids, origin: 'linked' }],
      });
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    expect(await all(copy)).toEqual([]);
  });
});

describe('counted once', () => {
  it('a linked pair is neither income nor spending in reports, payees, the budget overview, envelopes and totals; balances keep it', async () => {
    const user = await userWithAccounts();
    const tx = async (account: string, amount: number, description: string, category: string) =>
      ok(await user.post('/api/transactions', { account, amount, description, category, postDate: '2025-09-10' }));
    await tx('Checking', 300_000, 'ACME PAYROLL', 'Salary');
    await tx('Checking', -4_500, 'GROCER', 'Food');
    // Categorised like spending, to show the link (not the category) keeps it out.
    const made = ok(
      await user.post<Transfer>('/api/transfers', {
        fromAccount: 'Checking',
        toAccount: 'Savings',
        amount: 50_000,
        date: '2025-09-12',
        toDate: '2025-09-14',
      }),
    );
    ok(await user.put(`/api/transactions/${made.from.id}`, { category: 'Food' }));
    // An unlinked transfer-like row still counts.
    await tx('Card', 2_000, 'REFUND', 'Food');

    expect(ok(await user.get('/api/reports/monthly?start_date=2025-09-01&end_date=2025-09-30'))).toEqual([
      {
        month: '2025-09',
        income: 302_000,
        expenses: 4_500,
        net: 297_500,
        byCategory: { Food: -2_500, Salary: 300_000 },
        currency: 'USD',
        noRate: 0,
      },
    ]);
    const payees = ok(
      await user.get<{ payee: string }[]>('/api/reports/payees?start_date=2025-09-01&end_date=2025-09-30'),
    );
    expect(payees.map((p) => p.payee).sort()).toEqual(['ACME PAYROLL', 'GROCER', 'REFUND']);

    const budget = ok(
      await user.post<{ id: number }>('/api/budgets/save', {
        name: 'September',
        startDate: '2025-09-01',
        endDate: '2025-09-30',
        lineItems: [
          { name: 'Pay', amount: 300_000, type: 'Income', relatedCategories: ['Salary'] },
          { name: 'Food', amount: 10_000, type: 'Variable', relatedCategories: ['Food'] },
        ],
      }),
    );
    const budgets = ok(await user.get<{ id: number; name: string }[]>('/api/budgets'));
    const september = budgets.find((b) => b.name === 'September') ?? budget;
    const { overview } = ok(await user.get(`/api/budgets/${september.id}/overview`));
    expect(overview).toMatchObject({ total: 297_500, transactionCount: 3 });
    expect(overview.typeTotals.find((t: { type: string }) => t.type === 'transfer')).toMatchObject({ count: 0 });

    ok(await user.post('/api/envelopes', { name: 'Food', categories: ['Food'] }));
    const [envelope] = ok(await user.get<{ transactionCount: number }[]>('/api/envelopes'));
    expect(envelope.transactionCount).toBe(2);

    // The rows a report counts (counted=true) leave both sides out; the plain search lists them.
    const counted = ok(
      await user.get<Tx[]>('/api/transactions?start_date=2025-09-01&end_date=2025-09-30&counted=true'),
    );
    expect(counted.map((row) => row.description).sort()).toEqual(['ACME PAYROLL', 'GROCER', 'REFUND']);
    expect(ok(await user.get<Tx[]>('/api/transactions?start_date=2025-09-01&end_date=2025-09-30'))).toHaveLength(5);

    // Balances move: the money left Checking and reached Savings.
    const accounts = ok(await user.get<{ name: string; balance: number }[]>('/api/accounts'));
    expect(accounts.find((a) => a.name === 'Savings')?.balance).toBe(50_000);
    expect(accounts.find((a) => a.name === 'Checking')?.balance).toBe(300_000 - 4_500 - 50_000);

    // Unlinked, the two rows count again (as what they are: spending and income).
    ok(await user.del(`/api/transfers/${made.transferId}`));
    const [month] = ok(await user.get('/api/reports/monthly?start_date=2025-09-01&end_date=2025-09-30'));
    expect(month).toMatchObject({ income: 352_000, expenses: 54_500 });
  });
});
