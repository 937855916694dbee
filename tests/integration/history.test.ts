import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { runSql, withUserScope } from '../../src/server/db/sql';

/**
 * The history of changes, undo and redo, and the trash, on a real server (SQLite in `node`, PostgreSQL in
 * `integration-pg`): every kind of change is undone to its earlier rows and redone to its later ones; a
 * later change makes undo refuse with nothing changed; deleted rows wait in the trash and come back whole.
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
  category: string | null;
  transferCounterpartId: number | null;
};
type HistoryRowDto = { rowId: string; before: Record<string, unknown> | null; after: Record<string, unknown> | null };
type Entry = { id: number; kind: string; summary: string; state: string; undoable: boolean; rowCount: number };

const ALL = '/api/transactions?start_date=2000-01-01&end_date=2100-01-01';

async function rows(user: ApiUser): Promise<Tx[]> {
  return ok(await user.get<Tx[]>(ALL)).sort((a, b) => a.id - b.id);
}

async function latest(user: ApiUser): Promise<Entry> {
  const { entries } = ok(await user.get<{ entries: Entry[] }>('/api/history?limit=1'));
  return entries[0];
}

async function userWithRows(): Promise<ApiUser> {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  for (const [postDate, description, amount] of [
    ['2025-01-03', 'Grocer', -4210],
    ['2025-01-04', 'Salary', 250_000],
    ['2025-01-05', 'Cafe', -350],
  ] as const)
    ok(await user.post('/api/transactions', { account: 'Checking', postDate, description, amount, category: 'Misc' }));
  return user;
}

function upload(user: ApiUser, csv: string, name = 'january.csv', account = 'Checking') {
  const body = new FormData();
  body.append('file', new Blob([csv]), name);
  body.append('account', account);
  body.append('transactionType', 'auto');
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

/** Undoes the latest entry and expects the rows as they were; redoes it and expects them as they became. */
async function undoAndRedo(user: ApiUser, before: Tx[]): Promise<Entry> {
  const after = await rows(user);
  const entry = await latest(user);
  ok(await user.post(`/api/history/${entry.id}/undo`));
  expect(await rows(user)).toEqual(before);
  ok(await user.post(`/api/history/${entry.id}/redo`));
  expect(await rows(user)).toEqual(after);
  return entry;
}

describe('each kind of change is undone and redone', () => {
  it('create, edit, bulk edit, split and delete', async () => {
    const user = await userWithRows();
    const [grocer, salary, cafe] = await rows(user);

    let before = await rows(user);
    ok(
      await user.post('/api/transactions', {
        account: 'Checking',
        postDate: '2025-01-06',
        description: 'Bakery',
        amount: -500,
      }),
    );
    expect((await undoAndRedo(user, before)).kind).toBe('create');

    before = await rows(user);
    ok(await user.put(`/api/transactions/${grocer.id}`, { description: 'Grocer (weekly)', amount: -4300 }));
    expect((await undoAndRedo(user, before)).kind).toBe('edit');

    before = await rows(user);
    ok(
      await user.put('/api/transactions/bulk', {
        transactionIds: [grocer.id, cafe.id],
        updates: { category: 'Food' },
      }),
    );
    const bulk = await undoAndRedo(user, before);
    expect(bulk.kind).toBe('bulk-edit');
    expect(bulk.summary).toBe('Changed the category to Food of 2 transactions');

    before = await rows(user);
    ok(
      await user.post(`/api/transactions/${grocer.id}/split`, {
        splits: [
          { amount: -3000, category: 'Food' },
          { amount: -1300, category: 'Home' },
        ],
      }),
    );
    expect((await undoAndRedo(user, before)).kind).toBe('split');

    before = await rows(user);
    ok(await user.del(`/api/transactions/${salary.id}`));
    expect((await undoAndRedo(user, before)).kind).toBe('delete');
  });

  it('a transfer created, two rows linked and a link ended', async () => {
    const user = await userWithRows();
    ok(await user.post('/api/accounts', { name: 'Savings', type: 'savings' }));
    let before = await rows(user);
    ok(
      await user.post('/api/transfers', {
        fromAccount: 'Checking',
        toAccount: 'Savings',
        amount: 7000,
        date: '2025-01-11',
        toDate: '2025-01-13',
      }),
    );
    const created = await undoAndRedo(user, before);
    expect(created).toMatchObject({ kind: 'create', rowCount: 3 });
    expect(created.summary).toBe('Added a transfer from Checking to Savings');

    const out = ok(
      await user.post<Tx>('/api/transactions', {
        account: 'Checking',
        postDate: '2025-01-20',
        description: 'To savings',
        amount: -2500,
      }),
    );
    const into = ok(
      await user.post<Tx>('/api/transactions', {
        account: 'Savings',
        postDate: '2025-01-21',
        description: 'From checking',
        amount: 2500,
      }),
    );
    before = await rows(user);
    const { transferId } = ok(
      await user.post<{ transferId: number }>('/api/transfers/link', { transactionIds: [out.id, into.id] }),
    );
    expect((await undoAndRedo(user, before)).kind).toBe('edit');

    before = await rows(user);
    ok(await user.del(`/api/transfers/${transferId}`));
    const unlinked = await undoAndRedo(user, before);
    expect(unlinked.kind).toBe('edit');
    expect(unlinked.summary).toBe('Unlinked the transfer between Checking and Savings');
  });

  it('accepting a pair the import offered as a transfer', async () => {
    const user = await userWithRows();
    ok(await user.post('/api/accounts', { name: 'Visa 1234', type: 'credit' }));
    ok(
      await upload(
        user,
        'Date,Description,Amount\n2025-01-12,PAYMENT RECEIVED,500.00\n2025-01-13,PAYMENT RECEIVED,500.00\n',
        'card.csv',
        'Visa 1234',
      ),
    );
    const imported = ok(await upload(user, 'Date,Description,Amount\n2025-01-11,PAYMENT TO CARD 1234,-500.00\n'));
    expect(imported.transfers.offered.length).toBeGreaterThan(0);
    const before = await rows(user);
    ok(await user.post(`/api/transfers/candidates/${imported.transfers.offered[0].candidateId}/accept`));
    expect((await rows(user)).filter((row) => row.transferCounterpartId !== null)).toHaveLength(2);
    expect((await undoAndRedo(user, before)).kind).toBe('edit');
  });

  it('a reconcile, with the adjustment it adds and the rows it marks reconciled', async () => {
    const user = await userWithRows();
    const [grocer, salary] = await rows(user);
    for (const tx of [grocer, salary]) ok(await user.put(`/api/transactions/${tx.id}`, { cleared: 'cleared' }));
    const { id: accountId } = ok(await user.get<{ id: number }[]>('/api/accounts'))[0];
    const before = await rows(user);
    ok(
      await user.post(`/api/accounts/${accountId}/reconcile`, {
        statementDate: '2025-01-04',
        statementBalance: 245_000,
        createAdjustment: true,
      }),
    );
    const entry = await undoAndRedo(user, before);
    expect(entry).toMatchObject({ kind: 'edit', rowCount: 3 });
    expect(entry.summary).toBe('Reconciled Checking with its statement of 2025-01-04');
  });

  it('an import and the deletion of its batch', async () => {
    const user = await userWithRows();
    const before = await rows(user);
    const csv = 'Date,Description,Amount\n2025-02-01,Rent,-90000\n2025-02-02,Refund,1500\n';
    const imported = ok(await upload(user, csv));
    expect(imported.imported).toBe(2);
    const entry = await undoAndRedo(user, before);
    expect(entry.kind).toBe('import');
    expect(entry.summary).toBe('Imported 2 transactions from january.csv');

    const withBatch = await rows(user);
    ok(await user.del(`/api/transactions/batches/${imported.batchId}`));
    expect((await undoAndRedo(user, withBatch)).kind).toBe('batch-delete');
  });

  it('rules applied to stored rows', async () => {
    const user = await userWithRows();
    ok(
      await user.post('/api/rules', {
        name: 'Coffee',
        conditions: [{ field: 'description', op: 'contains', value: 'cafe' }],
        actions: { category: 'Coffee' },
        createCategory: true,
      }),
    );
    const before = await rows(user);
    const applied = ok(await user.post('/api/rules/apply', { onlyUncategorized: false }));
    expect(applied.changed).toBe(1);
    expect((await undoAndRedo(user, before)).kind).toBe('rule-apply');
  });
});

describe('categories', () => {
  it('a rename and a merge are undone with every transaction and rule that followed them', async () => {
    const user = await userWithRows();
    ok(
      await user.post('/api/rules', {
        name: 'Misc rule',
        conditions: [{ field: 'description', op: 'contains', value: 'cafe' }],
        actions: { category: 'Misc' },
      }),
    );
    ok(await user.post('/api/categories', { name: 'Food' }));
    const categories = () => user.get<{ id: number; name: string }[]>('/api/categories').then(ok);
    const rules = () => user.get<{ actions: { category?: string } }[]>('/api/rules').then(ok);
    const misc = (await categories()).find((c) => c.name === 'Misc')!;
    const food = (await categories()).find((c) => c.name === 'Food')!;
    const before = { rows: await rows(user), categories: await categories(), rules: await rules() };

    ok(await user.put(`/api/categories/${misc.id}`, { name: 'Sundries' }));
    expect((await rules())[0].actions.category).toBe('Sundries');
    ok(await user.post(`/api/history/${(await latest(user)).id}/undo`));
    expect({ rows: await rows(user), categories: await categories(), rules: await rules() }).toEqual(before);

    ok(await user.post(`/api/categories/${misc.id}/merge`, { into: food.id }));
    expect((await rows(user)).every((row) => row.category === 'Food')).toBe(true);
    const merge = await latest(user);
    expect(merge.summary).toBe('Merged category Misc into Food (3 transactions)');
    ok(await user.post(`/api/history/${merge.id}/undo`));
    expect({ rows: await rows(user), categories: await categories(), rules: await rules() }).toEqual(before);
  });
});

/** Every row of the user's tables a change may touch, as the database holds them. */
async function tables(user: ApiUser, names: readonly string[]): Promise<unknown[]> {
  const out: unknown[] = [];
  for (const name of names)
    out.push(await server.sql(`select * from "${name}" where user_id = ? order by id`, [user.userId]));
  return out;
}

/** Makes a change, then undoes it back to the tables as they were and redoes it to the tables as they became. */
async function changeUndoRedo(user: ApiUser, names: readonly string[], kind: string, change: () => Promise<unknown>) {
  const before = await tables(user, names);
  await change();
  const after = await tables(user, names);
  expect(after, 'the change changed something').not.toEqual(before);
  const entry = await latest(user);
  expect(entry.kind).toBe(kind);
  ok(await user.post(`/api/history/${entry.id}/undo`));
  expect(await tables(user, names)).toEqual(before);
  ok(await user.post(`/api/history/${entry.id}/redo`));
  expect(await tables(user, names)).toEqual(after);
}

describe('budgets, envelopes and the plan', () => {
  const BUDGET_TABLES = ['budget', 'line_item'];
  it('every budget and line item change', async () => {
    const user = await userWithRows();
    let budgetId = 0;
    await changeUndoRedo(user, BUDGET_TABLES, 'budget', async () => {
      const saved = ok<{ budget: { id: number } }>(
        await user.post('/api/budgets/save', {
          name: 'March',
          startDate: '2025-03-01',
          endDate: '2025-03-31',
          lineItems: [
            { name: 'Food', amount: 5000, type: 'Variable', relatedCategories: ['Misc'] },
            { name: 'Home', amount: 9000, type: 'Fixed', relatedCategories: ['Rent'] },
          ],
        }),
      );
      budgetId = saved.budget.id;
    });
    const items = ok<{ id: number; name: string }[]>(await user.get(`/api/budgets/${budgetId}/line-items`));
    await changeUndoRedo(user, BUDGET_TABLES, 'budget', async () =>
      ok(
        await user.post('/api/budgets/save', {
          id: budgetId,
          name: 'March (revised)',
          startDate: '2025-03-01',
          endDate: '2025-03-31',
          lineItems: [
            { id: items[0].id, name: 'Groceries', amount: 6000, type: 'Variable', relatedCategories: ['Misc'] },
          ],
          deletedLineItemIds: [items[1].id],
        }),
      ),
    );
    await changeUndoRedo(user, BUDGET_TABLES, 'budget', async () =>
      ok(await user.put(`/api/budgets/${budgetId}`, { name: 'Spring', endDate: '2025-05-31' })),
    );
    await changeUndoRedo(user, BUDGET_TABLES, 'budget', async () =>
      ok(await user.post('/api/line-items', { budgetId, name: 'Fun', amount: 100, relatedCategories: ['Cinema'] })),
    );
    await changeUndoRedo(user, BUDGET_TABLES, 'budget', async () =>
      ok(await user.put(`/api/line-items/${items[0].id}`, { amount: 7000 })),
    );
    await changeUndoRedo(user, BUDGET_TABLES, 'budget', async () =>
      ok(await user.del(`/api/line-items/${items[0].id}`)),
    );
    await changeUndoRedo(user, BUDGET_TABLES, 'budget', async () =>
      ok(await user.post('/api/budgets', { name: 'April', startDate: '2025-04-01', endDate: '2025-04-30' })),
    );
    await changeUndoRedo(user, BUDGET_TABLES, 'budget', async () => ok(await user.del(`/api/budgets/${budgetId}`)));
  });

  it('every envelope change', async () => {
    const user = await userWithRows();
    let id = 0;
    await changeUndoRedo(user, ['envelope'], 'envelope', async () => {
      id = ok<{ id: number }>(
        await user.post('/api/envelopes', { name: 'Eating', categories: ['Misc'], color: '#ff0000', isActive: true }),
      ).id;
    });
    await changeUndoRedo(user, ['envelope'], 'envelope', async () =>
      ok(await user.put(`/api/envelopes/${id}`, { name: 'Eating out', categories: ['Misc', 'Cafe'], isActive: false })),
    );
    await changeUndoRedo(user, ['envelope'], 'envelope', async () => ok(await user.del(`/api/envelopes/${id}`)));
  });

  it('every plan change, and a merge of a category with plan figures', async () => {
    const user = await userWithRows();
    for (const name of ['Food', 'Rent']) ok(await user.post('/api/categories', { name, kind: 'expense' }));
    ok(await user.post('/api/categories', { name: 'Pay', kind: 'income' }));
    const pay = { account: 'Checking', description: 'Pay', amount: 300_000, category: 'Pay' };
    ok(await user.post('/api/transactions', { ...pay, postDate: '2025-01-06' }));
    const ids = new Map(
      ok<{ id: number; name: string }[]>(await user.get('/api/categories')).map((c) => [c.name, c.id]),
    );
    const [food, rent] = [ids.get('Food') as number, ids.get('Rent') as number];
    const PLAN = ['plan_assigned', 'plan_move', 'plan_hold', 'category'];
    await changeUndoRedo(user, PLAN, 'plan', async () =>
      ok(await user.put('/api/plan/2025-01/assigned', { category: food, amount: 40_000 })),
    );
    await changeUndoRedo(user, PLAN, 'plan', async () =>
      ok(await user.put('/api/plan/2025-01/assigned', { category: food, amount: 45_000 })),
    );
    await changeUndoRedo(user, PLAN, 'plan', async () =>
      ok(await user.post('/api/plan/2025-01/move', { from: food, to: rent, amount: 5_000 })),
    );
    await changeUndoRedo(user, PLAN, 'plan', async () =>
      ok(await user.put('/api/plan/2025-01/hold', { amount: 1_000 })),
    );
    await changeUndoRedo(user, PLAN, 'plan', async () =>
      ok(await user.post('/api/plan/2025-02/fill', { mode: 'lastMonth' })),
    );
    ok(await user.put('/api/plan/2025-02/assigned', { category: rent, amount: 2_000 }));
    await changeUndoRedo(user, [...PLAN, 'transaction'], 'category', async () =>
      ok(await user.post(`/api/categories/${food}/merge`, { into: rent })),
    );
  });
});

describe('undo refuses what changed since', () => {
  it('names the rows, changes nothing, and works once the later change is undone', async () => {
    const user = await userWithRows();
    const [grocer] = await rows(user);
    ok(await user.put(`/api/transactions/${grocer.id}`, { description: 'First' }));
    const first = await latest(user);
    ok(await user.put(`/api/transactions/${grocer.id}`, { description: 'Second' }));
    const second = await latest(user);
    const state = await rows(user);

    const refused = await user.post(`/api/history/${first.id}/undo`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`transaction ${grocer.id}`);
    expect(await rows(user)).toEqual(state);

    ok(await user.post(`/api/history/${second.id}/undo`));
    ok(await user.post(`/api/history/${first.id}/undo`));
    expect((await rows(user)).find((row) => row.id === grocer.id)!.description).toBe('Grocer');
    expect((await user.post(`/api/history/${first.id}/undo`)).status).toBe(409);
  });

  it('names the rows and changes nothing when their account was deleted since, for undo and the trash alike', async () => {
    const user = await signUp(server.url);
    const account = ok(await user.post<{ id: number }>('/api/accounts', { name: 'Closed', type: 'checking' }));
    ok(await user.post('/api/accounts', { name: 'Kept', type: 'checking' }));
    const made = [];
    for (const description of ['Gone one', 'Gone two'])
      made.push(
        ok(
          await user.post<Tx>('/api/transactions', {
            account: 'Closed',
            postDate: '2025-02-01',
            description,
            amount: -100,
          }),
        ),
      );
    ok(await user.del(`/api/transactions/${made[0].id}`));
    const deletion = await latest(user);
    ok(await user.del(`/api/transactions/${made[1].id}`));
    ok(await user.del(`/api/accounts/${account.id}`));
    const trash = ok(await user.get('/api/trash'));

    const undo = await user.post(`/api/history/${deletion.id}/undo`);
    expect(undo.status).toBe(409);
    expect(undo.body.message).toContain(`transaction ${made[0].id}`);
    const restore = await user.post('/api/trash/restore', { transactionIds: [made[1].id] });
    expect(restore.status).toBe(409);
    expect(restore.body.message).toContain(`transaction ${made[1].id}`);
    expect(restore.body.message).toContain('was deleted since');
    expect(ok(await user.get('/api/trash'))).toEqual(trash);
    expect(await rows(user)).toEqual([]);
  });

  it('a bulk edit is refused when a later change touched another column of one of its rows', async () => {
    const user = await userWithRows();
    const [grocer, salary, cafe] = await rows(user);
    ok(await user.post('/api/accounts', { name: 'Savings', type: 'savings' }));
    ok(
      await user.post(`/api/transactions/${salary.id}/split`, {
        splits: [
          { amount: 200_000, category: 'Pay' },
          { amount: 50_000, category: 'Bonus' },
        ],
      }),
    );
    const before = await rows(user);
    ok(
      await user.put('/api/transactions/bulk', {
        transactionIds: [grocer.id, cafe.id, salary.id],
        updates: { category: 'Food', type: 'debit', account: 'Savings' },
      }),
    );
    const bulk = ok(await user.get<{ entries: (Entry & { rows: HistoryRowDto[] })[] }>('/api/history?limit=1'))
      .entries[0];
    // Each row is listed whole on both sides, however it is kept.
    const cafeRow = bulk.rows.find((row) => row.rowId === String(cafe.id))!;
    expect(cafeRow.after).toEqual({
      ...cafeRow.before,
      category_id: expect.any(Number),
      type: 'debit',
      account_id: expect.any(Number),
    });
    expect(cafeRow.after!.description).toBe('Cafe');
    expect(bulk.rows.length).toBe(5);

    ok(await user.put(`/api/transactions/${cafe.id}`, { description: 'Cafe (corner)' }));
    const state = await rows(user);
    const refused = await user.post(`/api/history/${bulk.id}/undo`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toContain(`transaction ${cafe.id}`);
    expect(await rows(user)).toEqual(state);

    ok(await user.post(`/api/history/${(await latest(user)).id}/undo`));
    ok(await user.post(`/api/history/${bulk.id}/undo`));
    expect(await rows(user)).toEqual(before);
  });

  it('an import is not undone while a later bulk edit of its rows stands, and is once that edit is undone', async () => {
    const user = await userWithRows();
    const before = await rows(user);
    const csv = 'Date,Description,Amount\n2025-02-01,Rent,-90000\n2025-02-02,Refund,1500\n2025-02-03,Fee,-200\n';
    ok(await upload(user, csv));
    const imported = await latest(user);
    const ids = (await rows(user)).filter((row) => row.postDate.startsWith('2025-02')).map((row) => row.id);
    ok(await user.put('/api/transactions/bulk', { transactionIds: ids, updates: { category: 'Housing' } }));
    const bulk = await latest(user);
    const state = await rows(user);

    const refused = await user.post(`/api/history/${imported.id}/undo`);
    expect(refused.status).toBe(409);
    for (const id of ids) expect(refused.body.message).toContain(`transaction ${id}`);
    expect(await rows(user)).toEqual(state);

    ok(await user.post(`/api/history/${bulk.id}/undo`));
    ok(await user.post(`/api/history/${imported.id}/undo`));
    expect(await rows(user)).toEqual(before);
  });

  it('another user can neither see nor undo the entry', async () => {
    const owner = await userWithRows();
    const entry = await latest(owner);
    const other = await signUp(server.url);
    expect((await other.post(`/api/history/${entry.id}/undo`)).status).toBe(404);
    expect(ok(await other.get<{ entries: Entry[] }>('/api/history')).entries).toEqual([]);
    const viaTrpc = await other.trpc.history.undo.mutate({ id: entry.id });
    expect(viaTrpc.error?.data.httpStatus).toBe(404);
  });
});

describe('the trash', () => {
  it('keeps a deleted split with its parts out of every total and brings it back whole', async () => {
    const user = await userWithRows();
    const [grocer] = await rows(user);
    ok(
      await user.post(`/api/transactions/${grocer.id}/split`, {
        splits: [
          { amount: -4000, category: 'Food' },
          { amount: -210, category: 'Home' },
        ],
      }),
    );
    const before = await rows(user);
    ok(await user.del(`/api/transactions/${grocer.id}`));
    expect((await rows(user)).some((row) => row.description === 'Grocer')).toBe(false);
    const trash = ok(await user.get<{ transactionId: number; parts: number }[]>('/api/trash'));
    expect(trash).toEqual([expect.objectContaining({ transactionId: grocer.id, parts: 2 })]);

    const restored = ok(await user.post('/api/trash/restore', { transactionIds: [grocer.id] }));
    expect(restored.restored).toBe(3);
    expect(await rows(user)).toEqual(before);
    expect(ok(await user.get('/api/trash'))).toEqual([]);
    const restore = await latest(user);
    expect(restore.kind).toBe('trash-restore');

    // Undoing the restore puts the rows back in the trash; redoing it takes them out again.
    ok(await user.post(`/api/history/${restore.id}/undo`));
    expect(ok(await user.get('/api/trash'))).toEqual([expect.objectContaining({ transactionId: grocer.id, parts: 2 })]);
    ok(await user.post(`/api/history/${restore.id}/redo`));
    expect(ok(await user.get('/api/trash'))).toEqual([]);
    expect(await rows(user)).toEqual(before);
  });

  it('a deleted batch is not brought back by importing its file again', async () => {
    const user = await userWithRows();
    const csv = 'Date,Description,Amount\n2025-03-01,Gym,-3000\n2025-03-02,Books,-2500\n';
    const first = ok(await upload(user, csv));
    ok(await user.del(`/api/transactions/batches/${first.batchId}`));
    const again = ok(await upload(user, csv));
    expect(again.imported).toBe(0);
    expect(again.duplicates).toBe(2);
  });

  it('a side of a transfer comes back linked, by undo and from the trash', async () => {
    const user = await userWithRows();
    ok(await user.post('/api/accounts', { name: 'Savings', type: 'savings' }));
    const { transferId } = ok(
      await user.post('/api/transfers', {
        fromAccount: 'Checking',
        toAccount: 'Savings',
        amount: 5000,
        date: '2025-01-10',
      }),
    );
    const sides = (await rows(user)).filter((row) => row.transferCounterpartId !== null);
    expect(sides).toHaveLength(2);
    const before = await rows(user);
    ok(await user.del(`/api/transactions/${sides[0].id}`));
    expect((await rows(user)).find((row) => row.id === sides[1].id)!.transferCounterpartId).toBeNull();
    await undoAndRedo(user, before);

    ok(await user.post('/api/trash/restore', { transactionIds: [sides[0].id] }));
    expect(await rows(user)).toEqual(before);
    expect(transferId).toEqual(expect.any(Number));
  });

  it('lists each trashed amount with its account’s currency', async () => {
    const user = await signUp(server.url);
    ok(await user.post('/api/accounts', { name: 'Yen', type: 'checking', currency: 'JPY' }));
    const sushi = ok(
      await user.post<Tx>('/api/transactions', {
        account: 'Yen',
        postDate: '2025-01-05',
        description: 'Sushi',
        amount: -1500,
      }),
    );
    ok(await user.del(`/api/transactions/${sushi.id}`));
    expect(ok(await user.get('/api/trash'))).toEqual([
      expect.objectContaining({ transactionId: sushi.id, amount: -1500, currency: 'JPY' }),
    ]);
  });

  it('emptying the trash deletes for good and the deleting change can no longer be undone', async () => {
    const user = await userWithRows();
    const [, salary] = await rows(user);
    ok(await user.del(`/api/transactions/${salary.id}`));
    const entry = await latest(user);
    expect(ok(await user.del('/api/trash')).deleted).toBe(1);
    expect(ok(await user.get('/api/trash'))).toEqual([]);
    const refused = await user.post(`/api/history/${entry.id}/undo`);
    expect(refused.status).toBe(409);
    expect((await user.post('/api/trash/restore', { transactionIds: [salary.id] })).status).toBe(404);
  });
});

describe('retention', () => {
  let short: TestServer;
  beforeAll(async () => {
    short = await startServer({ TRASH_RETENTION_DAYS: '10', HISTORY_RETENTION_DAYS: '20' });
  });
  afterAll(async () => {
    await short.close();
  });

  /** Moves what the user's history and trash say about when they happened this many days into the past. */
  async function age(userId: number, table: 'history_entry' | 'trashed_transaction', id: number, days: number) {
    const column = table === 'history_entry' ? 'created_at' : 'deleted_at';
    const key = table === 'history_entry' ? 'id' : 'entry_id';
    const when = new Date(Date.now() - days * 86_400_000).toISOString();
    await withUserScope(short.app.orm.em.fork(), userId, (em) =>
      runSql(em, `update ${table} set ${column} = ? where user_id = ? and ${key} = ?`, [when, userId, id]),
    );
  }

  it('deletes trashed rows for good once the trash setting’s days have passed, and keeps younger ones', async () => {
    const user = await signUp(short.url);
    ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
    const made = [];
    for (const description of ['Old', 'Young'])
      made.push(
        ok(
          await user.post<Tx>('/api/transactions', {
            account: 'Checking',
            postDate: '2025-01-05',
            description,
            amount: -100,
          }),
        ),
      );
    const entries: Entry[] = [];
    for (const tx of made) {
      ok(await user.del(`/api/transactions/${tx.id}`));
      entries.push(ok(await user.get<{ entries: Entry[] }>('/api/history?limit=1')).entries[0]);
    }
    await age(user.userId, 'trashed_transaction', entries[0].id, 11);
    await age(user.userId, 'trashed_transaction', entries[1].id, 9);
    expect(ok(await user.get<{ description: string }[]>('/api/trash')).map((item) => item.description)).toEqual([
      'Young',
    ]);
    expect((await user.post('/api/trash/restore', { transactionIds: [made[0].id] })).status).toBe(404);
    const undo = await user.post(`/api/history/${entries[0].id}/undo`);
    expect(undo.status).toBe(409);
    ok(await user.post('/api/trash/restore', { transactionIds: [made[1].id] }));
    expect((await rows(user)).map((row) => row.description)).toEqual(['Young']);
  });

  it('drops history entries older than the history setting’s days, and keeps younger ones', async () => {
    const user = await signUp(short.url);
    ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
    for (const description of ['First', 'Second', 'Third'])
      ok(
        await user.post('/api/transactions', { account: 'Checking', postDate: '2025-01-05', description, amount: -1 }),
      );
    const [third, second, first] = ok(await user.get<{ entries: Entry[] }>('/api/history')).entries;
    await age(user.userId, 'history_entry', first.id, 21);
    await age(user.userId, 'history_entry', second.id, 19);
    expect(ok(await user.get<{ entries: Entry[] }>('/api/history')).entries.map((e) => e.id)).toEqual([
      third.id,
      second.id,
    ]);
    expect((await user.post(`/api/history/${first.id}/undo`)).status).toBe(404);
    expect((await rows(user)).map((row) => row.description)).toEqual(['First', 'Second', 'Third']);
  });
});
