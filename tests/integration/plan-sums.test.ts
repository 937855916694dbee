/**
 * The plan's stored month sums (plan_month_sum, kept by the transaction table's triggers) and the plan's kept
 * answers never drift from the rows: after every kind of write, the stored sums equal a GROUP BY of the
 * transaction table, and GET /api/plan/{month} equals the plan the shared engine computes from rows read live.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planMonth } from '../../src/shared/plan/engine';
import type { CategoryDto } from '../../src/shared/schemas/categories';
import type { PlanDto } from '../../src/shared/schemas/plan';
import type { UserDataDocument } from '../../src/shared/schemas/user-data';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const MONTHS = ['2024-01', '2024-02', '2024-03', '2024-04'];

type Row = Record<string, number | string | null>;

/** The stored sums (rows that are not all zero) and the same sums grouped from the transaction table. */
async function storedAndGrouped(user: ApiUser): Promise<{ stored: string[]; grouped: string[] }> {
  const line = (r: Row) => `${r.account_id}/${r.category_key}/${r.month}: ${Number(r.n)} ${Number(r.total)}`;
  const stored = await server.sql<Row>(
    'select account_id, category_key, month, n, total from plan_month_sum where user_id = ? and (n <> 0 or total <> 0) order by 1, 2, 3',
    [user.userId],
  );
  const grouped = await server.sql<Row>(
    `select account_id, coalesce(category_id, 0) as category_key, substr(post_date, 1, 7) as month, count(*) as n, sum(amount) as total
       from "transaction" where user_id = ? and is_split = false and transfer_id is null and account_id is not null
      group by 1, 2, 3 order by 1, 2, 3`,
    [user.userId],
  );
  return { stored: stored.map(line), grouped: grouped.map(line) };
}

/** The month sums the plan counts, read live from every row (as the plan read them before they were stored). */
async function liveSums(user: ApiUser) {
  const rows = await server.sql<Row>(
    `select substr(t.post_date, 1, 7) as month, t.category_id, count(*) as n, sum(t.amount) as total
       from "transaction" t join account a on a.id = t.account_id
      where t.user_id = ? and t.is_split = false and a.on_budget = true
        and (t.transfer_id is null or coalesce((
              select oa.on_budget from "transaction" o join account oa on oa.id = o.account_id
               where o.transfer_id = t.transfer_id and o.id <> t.id), false) = false)
      group by 1, 2`,
    [user.userId],
  );
  return rows.map((r) => ({
    month: String(r.month),
    categoryId: r.category_id === null ? null : Number(r.category_id),
    count: Number(r.n),
    amount: Number(r.total),
  }));
}

/** Every figure the plan answers for a month, as the engine computes it from live rows. */
async function expectedFigures(user: ApiUser, month: string) {
  const categories = ok<CategoryDto[]>(await user.get('/api/categories'));
  const assigned = await server.sql<Row>('select category_id, month, amount from plan_assigned where user_id = ?', [
    user.userId,
  ]);
  const held = await server.sql<Row>('select month, amount from plan_hold where user_id = ?', [user.userId]);
  const figures = planMonth(
    {
      categories,
      sums: await liveSums(user),
      assigned: assigned.map((r) => ({
        categoryId: Number(r.category_id),
        month: String(r.month),
        amount: Number(r.amount),
      })),
      held: held.map((r) => ({ month: String(r.month), amount: Number(r.amount) })),
    },
    month,
  );
  return {
    toAssign: figures.toAssign,
    income: figures.income,
    uncategorized: figures.uncategorized,
    categories: figures.categories
      .map((c) => ({ category: c.categoryId, activity: c.activity, available: c.available }))
      .filter((c) => c.activity !== 0 || c.available !== 0),
  };
}

async function answeredFigures(user: ApiUser, month: string) {
  const plan = ok<PlanDto>(await user.get(`/api/plan/${month}`));
  return {
    toAssign: plan.toAssign,
    income: plan.income,
    uncategorized: plan.uncategorized,
    categories: plan.categories
      .map((c) => ({ category: c.category, activity: c.activity, available: c.available }))
      .filter((c) => c.activity !== 0 || c.available !== 0),
  };
}

/** After a write: the stored sums match the rows, and every month's plan (read before, so kept) matches them too. */
async function expectNoDrift(user: ApiUser, after: string): Promise<void> {
  const { stored, grouped } = await storedAndGrouped(user);
  expect(stored, `stored sums after ${after}`).toEqual(grouped);
  for (const month of MONTHS)
    expect(await answeredFigures(user, month), `plan of ${month} after ${after}`).toEqual(
      await expectedFigures(user, month),
    );
}

async function household(): Promise<ApiUser> {
  const user = await signUp(server.url);
  for (const [name, type] of [
    ['Checking', 'checking'],
    ['Card', 'credit'],
    ['Savings', 'savings'],
  ])
    ok(await user.post('/api/accounts', { name, type }));
  for (const [name, kind] of [
    ['Salary', 'income'],
    ['Food', 'expense'],
    ['Rent', 'expense'],
    ['Fun', 'expense'],
  ])
    ok(await user.post('/api/categories', { name, kind }));
  return user;
}

async function addTx(user: ApiUser, body: Record<string, unknown>): Promise<{ id: number }> {
  return ok<{ id: number }>(await user.post('/api/transactions', { account: 'Checking', description: 'row', ...body }));
}

async function latestEntry(user: ApiUser): Promise<number> {
  return ok<{ entries: { id: number }[] }>(await user.get('/api/history?limit=1')).entries[0].id;
}

function upload(user: ApiUser, csv: string) {
  const body = new FormData();
  body.append('file', new Blob([csv]), 'march.csv');
  body.append('account', 'Card');
  body.append('transactionType', 'auto');
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

describe('the stored month sums and the kept plan answers', () => {
  it('match the rows after every kind of write', async () => {
    const user = await household();
    const ids = new Map(ok<CategoryDto[]>(await user.get('/api/categories')).map((c) => [c.name, c.id]));
    for (const month of MONTHS) await user.get(`/api/plan/${month}`);
    await expectNoDrift(user, 'nothing');

    await addTx(user, { postDate: '2024-01-02', amount: 300_000, category: 'Salary' });
    const food = await addTx(user, { postDate: '2024-01-10', amount: -12_000, category: 'Food' });
    const loose = await addTx(user, { postDate: '2024-02-03', amount: -2_500 });
    await expectNoDrift(user, 'create');
    ok(await user.put('/api/plan/2024-01/assigned', { category: ids.get('Food'), amount: 20_000 }));
    ok(await user.put('/api/plan/2024-02/hold', { amount: 1_000 }));
    await expectNoDrift(user, 'assigned and held');

    ok(await user.put(`/api/transactions/${food.id}`, { amount: -15_000 }));
    await expectNoDrift(user, 'edit amount');
    ok(await user.put(`/api/transactions/${food.id}`, { postDate: '2024-02-11' }));
    await expectNoDrift(user, 'edit date');
    ok(await user.put(`/api/transactions/${food.id}`, { category: 'Rent' }));
    await expectNoDrift(user, 'edit category');
    ok(await user.put(`/api/transactions/${food.id}`, { account: 'Card' }));
    await expectNoDrift(user, 'edit account');
    ok(await user.put(`/api/transactions/${loose.id}`, { account: null }));
    await expectNoDrift(user, 'detach from its account');
    ok(await user.put(`/api/transactions/${loose.id}`, { account: 'Savings' }));

    const shop = await addTx(user, { postDate: '2024-03-05', amount: -10_000, category: 'Food' });
    const { childTransactions } = ok<{ childTransactions: { id: number }[] }>(
      await user.post(`/api/transactions/${shop.id}/split`, {
        splits: [
          { amount: -4_000, category: 'Food' },
          { amount: -6_000, category: 'Fun' },
        ],
      }),
    );
    await expectNoDrift(user, 'split');
    ok(await user.del(`/api/transactions/${childTransactions[0].id}`));
    await expectNoDrift(user, 'unsplit (a part deleted)');

    ok(await user.del(`/api/transactions/${shop.id}`));
    await expectNoDrift(user, 'delete to trash');
    ok(await user.post('/api/trash/restore', { transactionIds: [shop.id] }));
    await expectNoDrift(user, 'restore from trash');

    ok(await user.put(`/api/transactions/${shop.id}`, { amount: -9_000 }));
    const entry = await latestEntry(user);
    ok(await user.post(`/api/history/${entry}/undo`));
    await expectNoDrift(user, 'undo');
    ok(await user.post(`/api/history/${entry}/redo`));
    await expectNoDrift(user, 'redo');

    const imported = await upload(
      user,
      'Date,Description,Amount\n2024-03-01,Shop A,-20.00\n2024-03-02,Shop B,-30.00\n2024-04-01,Refund,5.00\n',
    );
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    await expectNoDrift(user, 'import');
    const batchEntry = await latestEntry(user);
    ok(await user.post(`/api/history/${batchEntry}/undo`));
    await expectNoDrift(user, 'undo of the import');
    ok(await user.post(`/api/history/${batchEntry}/redo`));
    await expectNoDrift(user, 'redo of the import');

    // An import whose row pairs with another account's row is linked as it lands: the link is in the sums too.
    await addTx(user, { postDate: '2024-04-10', amount: -7_700, description: 'Payment to Card' });
    const paid = await upload(user, 'Date,Description,Amount\n2024-04-11,Payment from Checking,77.00\n');
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body).toMatchObject({ transfers: { linkedCount: 1 } });
    await expectNoDrift(user, 'an import that links a transfer');

    const rows = ok<{ id: number; description: string }[]>(
      await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'),
    );
    const shops = rows.filter((r) => r.description.startsWith('Shop')).map((r) => r.id);
    ok(await user.put('/api/transactions/bulk', { transactionIds: shops, updates: { category: 'Fun' } }));
    await expectNoDrift(user, 'bulk edit of the category');
    ok(await user.put('/api/transactions/bulk', { transactionIds: shops, updates: { account: 'Checking' } }));
    await expectNoDrift(user, 'bulk edit of the account');

    ok(
      await user.post('/api/rules', {
        name: 'Refunds',
        conditions: [{ field: 'description', op: 'contains', value: 'refund' }],
        actions: { category: 'Food' },
      }),
    );
    ok(await user.post('/api/rules/apply', { onlyUncategorized: false }));
    await expectNoDrift(user, 'rule apply');

    ok(await user.post(`/api/categories/${ids.get('Fun')}/merge`, { into: ids.get('Food') }));
    await expectNoDrift(user, 'category merge');
    ok(await user.del(`/api/categories/${ids.get('Rent')}?reassignTo=${ids.get('Food')}`));
    await expectNoDrift(user, 'category delete with reassignment');

    const out = await addTx(user, { postDate: '2024-03-20', amount: -50_000, description: 'To savings' });
    const inn = await addTx(user, { account: 'Savings', postDate: '2024-03-20', amount: 50_000, description: 'In' });
    const linked = ok<{ transferId: number }>(
      await user.post('/api/transfers/link', { transactionIds: [out.id, inn.id] }),
    );
    await expectNoDrift(user, 'link a transfer');
    const accounts = ok<{ id: number; name: string }[]>(await user.get('/api/accounts'));
    const savings = accounts.find((a) => a.name === 'Savings')?.id;
    ok(await user.put(`/api/accounts/${savings}`, { onBudget: false }));
    await expectNoDrift(user, 'an account taken off the plan');
    ok(await user.del(`/api/transfers/${linked.transferId}`));
    await expectNoDrift(user, 'unlink a transfer');
    ok(await user.put(`/api/accounts/${savings}`, { onBudget: true }));
    ok(
      await user.post('/api/transfers', {
        fromAccount: 'Checking',
        toAccount: 'Card',
        amount: 7_000,
        date: '2024-04-02',
      }),
    );
    await expectNoDrift(user, 'a transfer made');

    const spare = ok<{ id: number }>(await user.post('/api/accounts', { name: 'Spare', type: 'cash' }));
    const moved = await addTx(user, { account: 'Spare', postDate: '2024-04-03', amount: -700, category: 'Food' });
    ok(await user.del(`/api/transactions/${moved.id}`));
    ok(await user.del(`/api/accounts/${spare.id}`));
    await expectNoDrift(user, 'account delete');

    // Written by another connection (another process, a script): the kept answers notice it too.
    await server.sql(
      `insert into "transaction" (user_id, account_id, category_id, post_date, description, amount, type, is_split, created_at)
       values (?, ?, ?, '2024-02-20', 'elsewhere', -3300, 'debit', false, '2024-02-20T00:00:00.000Z')`,
      [user.userId, accounts.find((a) => a.name === 'Checking')?.id, ids.get('Food')],
    );
    await expectNoDrift(user, 'a row written by another connection');

    const copy = await signUp(server.url);
    const doc = ok<UserDataDocument>(await user.get('/api/export'));
    for (const month of MONTHS) await copy.get(`/api/plan/${month}`);
    expect((await copy.post('/api/import', doc)).status).toBe(201);
    await expectNoDrift(copy, 'restore of an export');
    expect((await storedAndGrouped(copy)).stored.length).toBeGreaterThan(0);
    await expectNoDrift(user, 'another user restored');
  });
});
