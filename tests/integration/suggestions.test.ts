import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { selectJsonColumns, selectRows, withUserScope } from '../../src/server/db/sql';
import { currentModelEntry } from '../../src/server/modules/categories/suggestions.service';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/** Learned suggestions: POST /api/categories/suggest, categorySource, and import applying confident ones. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const ALL = '/api/transactions?start_date=1900-01-01&end_date=2100-12-31';

async function userWithAccount(account: Record<string, unknown> = {}): Promise<ApiUser> {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking', ...account }));
  return user;
}

/** `count` categorised rows of one merchant, spelled the messy ways a bank writes it. */
async function history(
  user: ApiUser,
  merchant: string,
  category: string,
  count: number,
  amount = -2500,
): Promise<void> {
  for (let i = 0; i < count; i++) {
    ok(
      await user.post('/api/transactions', {
        postDate: `2024-01-${String(1 + (i % 28)).padStart(2, '0')}`,
        description: `POS ${merchant} #${1000 + i} SPRINGFIELD IL`,
        amount: amount - i * 10,
        category,
        account: 'Checking',
      }),
    );
  }
}

function upload(user: ApiUser, csv: string, fields: Record<string, string> = {}) {
  const body = new FormData();
  body.append('file', new Blob([csv]), 'statement.csv');
  body.append('account', 'Checking');
  body.append('transactionType', 'auto');
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

describe('POST /api/categories/suggest and tRPC categories.suggest', () => {
  it('answers in order from the caller’s own history, with confidence and a reason', async () => {
    const user = await userWithAccount();
    await history(user, 'GREEN BASKET', 'Groceries', 10);
    await history(user, 'SHELL OIL', 'Fuel', 2, -4000);
    const transactions = [
      { description: 'GREEN BASKET 0412 SPRINGFIELD IL 03/14', amount: -3120 },
      { description: 'Something never seen', amount: -100 },
      { description: 'SHELL OIL 99', amount: -4200, postDate: '2024-03-01', account: 'Checking' },
    ];
    const answer = ok(await user.post('/api/categories/suggest', { transactions }));
    expect(answer).toEqual([
      {
        category: 'Groceries',
        confidence: expect.any(Number),
        reason: "10 earlier 'GREEN BASKET' rows were Groceries",
      },
      { category: null, confidence: 0, reason: 'No earlier transaction looks like this one' },
      { category: 'Fuel', confidence: expect.any(Number), reason: "2 earlier 'SHELL OIL' rows were Fuel" },
    ]);
    expect(answer[0].confidence).toBeGreaterThanOrEqual(0.9);
    expect(answer[2].confidence).toBeLessThan(0.9);
    expect(data(await user.trpc.categories.suggest.mutate({ transactions }))).toEqual(answer);
  });

  it('learns from split parts, not their parents, and sees new rows at once', async () => {
    const user = await userWithAccount();
    const parent = ok(
      await user.post('/api/transactions', {
        postDate: '2024-02-01',
        description: 'MEGA MART',
        amount: -1000,
        category: 'Shopping',
      }),
    );
    ok(
      await user.post(`/api/transactions/${parent.id}/split`, {
        splits: [
          { amount: -600, category: 'Groceries' },
          { amount: -400, category: 'Household' },
        ],
      }),
    );
    const [first] = ok(
      await user.post('/api/categories/suggest', { transactions: [{ description: 'MEGA MART', amount: -600 }] }),
    );
    expect(first.category).toBe('Groceries');
    expect(first.reason).not.toContain('Shopping');
    // A recategorised row changes the answer at once (the cached model is rebuilt).
    const rows = ok<{ id: number; parentTransactionId: number | null }[]>(await user.get(`${ALL}&description=MEGA`));
    const parts = rows.filter((row) => row.parentTransactionId !== null);
    ok(
      await user.put('/api/transactions/bulk', {
        transactionIds: parts.map((p) => p.id),
        updates: { category: 'Treats' },
      }),
    );
    const [second] = ok(
      await user.post('/api/categories/suggest', { transactions: [{ description: 'MEGA MART', amount: -600 }] }),
    );
    expect(second).toMatchObject({ category: 'Treats', reason: "2 earlier 'MEGA MART' rows were Treats" });
  });

  it('keeps a model learned from scratch while nothing changes, and drops it on any change to what it learned', async () => {
    const user = await userWithAccount();
    // Text SQL and JavaScript count differently unless care is taken (accents, astral characters,
    // one-character text), and amounts of both signs around the checksum's moduli.
    const rows: [string, number, string][] = [
      ['Café Crème 12', -350, 'Coffee'],
      ['ZÜRICH BÄCKEREI', -1, 'Groceries'],
      ['🍕 PIZZA PLACE', -2599, 'Dining'],
      ['x', -199_999_999, 'Big'],
      ['ACME PAYROLL', 199_999_999, 'Salary'],
      ['REFUND SHOP', 65521 * 3 + 9973, 'Shopping'],
      ['REFUND SHOP', -(65521 * 2), 'Shopping'],
    ];
    const ids: number[] = [];
    for (const [description, amount, category] of rows) {
      ids.push(
        ok<{ id: number }>(
          await user.post('/api/transactions', {
            postDate: '2024-01-02',
            description,
            amount,
            category,
            account: 'Checking',
          }),
        ).id,
      );
    }
    const current = () =>
      withUserScope(server.app.orm.em.fork(), user.userId, (em) => currentModelEntry(em, user.userId));
    const ask = async (description: string, amount: number) =>
      ok<{ category: string | null; reason: string }[]>(
        await user.post('/api/categories/suggest', { transactions: [{ description, amount }] }),
      )[0];
    expect(await current()).toBeNull();
    expect(await ask('🍕 PIZZA PLACE', -2000)).toMatchObject({ category: 'Dining' });
    // Learned from scratch with the checksum the database computes: the next call learns nothing.
    const learned = await current();
    expect(learned).not.toBeNull();
    expect(await ask('CAFE CREME', -300)).toMatchObject({ category: 'Coffee' });
    expect(await current()).toBe(learned);
    // Each change to a learned row is seen by the next suggestion: text, amount, category.
    ok(await user.put(`/api/transactions/${ids[2]}`, { description: '🍕 PASTA PLACES' }));
    expect(await current()).toBeNull();
    expect(await ask('🍕 PASTA PLACES', -2000)).toMatchObject({
      category: 'Dining',
      reason: "1 earlier 'PASTA PLACES' row was Dining",
    });
    ok(await user.put(`/api/transactions/${ids[5]}`, { amount: -(65521 * 3 + 9973) }));
    expect(await ask('REFUND SHOP', 5000)).toMatchObject({
      category: 'Shopping',
      reason: "2 earlier 'REFUND SHOP' rows (money out) were Shopping",
    });
    ok(await user.put(`/api/transactions/${ids[1]}`, { category: 'Bakery' }));
    expect(await ask('ZURICH BACKEREI', -100)).toMatchObject({ category: 'Bakery' });
  });

  it('sees a description edit that keeps the text’s length and first character (counted by a database trigger)', async () => {
    const user = await userWithAccount();
    const first = ok<{ id: number }>(
      await user.post('/api/transactions', {
        postDate: '2024-01-02',
        description: 'GREEN BASKET',
        amount: -1200,
        category: 'Groceries',
        account: 'Checking',
      }),
    );
    const second = ok<{ id: number }>(
      await user.post('/api/transactions', {
        postDate: '2024-01-03',
        description: 'BLUE LAGOON 1',
        amount: -900,
        category: 'Fun',
        account: 'Checking',
      }),
    );
    const current = () =>
      withUserScope(server.app.orm.em.fork(), user.userId, (em) => currentModelEntry(em, user.userId));
    const ask = async (description: string) =>
      ok<{ category: string | null; reason: string }[]>(
        await user.post('/api/categories/suggest', { transactions: [{ description, amount: -1000 }] }),
      )[0];
    expect(await ask('GREEN BASKET')).toMatchObject({ category: 'Groceries' });
    expect(await current()).not.toBeNull();
    // Same length, same first character: only the edit count tells the model is stale.
    ok(await user.put(`/api/transactions/${first.id}`, { description: 'GREEN BUCKET' }));
    expect(await current()).toBeNull();
    expect(await ask('GREEN BUCKET')).toMatchObject({
      category: 'Groceries',
      reason: "1 earlier 'GREEN BUCKET' row was Groceries",
    });
    expect(await ask('GREEN BASKET')).not.toMatchObject({ reason: "1 earlier 'GREEN BASKET' row was Groceries" });
    // An update that leaves the description as it was counts nothing: the model stays.
    const kept = await current();
    expect(kept).not.toBeNull();
    ok(await user.put(`/api/transactions/${second.id}`, { description: 'BLUE LAGOON 1' }));
    expect(await current()).toBe(kept);
    // A rule that renames rows is seen the same way.
    ok(
      await user.post('/api/rules', {
        name: 'Rename',
        conditions: [{ field: 'description', op: 'equals', value: 'BLUE LAGOON 1' }],
        actions: { description: 'BLUE LAGOON 2' },
        priority: 10,
        enabled: true,
      }),
    );
    ok(
      await user.post('/api/rules/apply', {
        start_date: '2024-01-01',
        end_date: '2024-12-31',
        onlyUncategorized: false,
      }),
    );
    expect(await current()).toBeNull();
    expect(await ask('BLUE LAGOON 2')).toMatchObject({
      category: 'Fun',
      reason: "1 earlier 'BLUE LAGOON' row was Fun",
    });
  });

  it('reads the learned rows as columns (selectJsonColumns): every text exactly, each row’s values aligned, the aggregates of the same rows', async () => {
    const user = await userWithAccount();
    const texts = [
      'He said "hi"',
      'C:\\path\\shop \\',
      'Café Zürich – ½ 🍕',
      "O'Brien's",
      '[1,2]',
      'null',
      ' x ',
      'tab\tand\nnewline',
      '\u001e\u001f,x',
    ];
    for (const [i, description] of texts.entries()) {
      // Control characters only arrive by another path (the API refuses them): written with SQL.
      const posted = ok<{ id: number }>(
        await user.post('/api/transactions', {
          postDate: '2024-02-03',
          description: `row ${i}`,
          amount: (i % 2 ? 1 : -1) * (i + 1) * 2_147_483_647,
          category: `C${i % 3}`,
          account: 'Checking',
        }),
      );
      await server.sql('update "transaction" set description = ? where id = ?', [description, posted.id]);
    }
    const from = `"transaction" t where t.user_id = ?`;
    const read = (em: Parameters<typeof selectRows>[0]) =>
      Promise.all([
        selectJsonColumns<{ n: number | string }>(
          em,
          [
            { sql: 't.description', type: 'text' },
            { sql: 't.amount', type: 'integer' },
            { sql: 't.category_id', type: 'integer' },
          ],
          from,
          'count(*) as n',
          [user.userId],
        ),
        selectRows<{ description: string; amount: number | string; category_id: number }>(
          em,
          `select t.description, t.amount, t.category_id from ${from}`,
          [user.userId],
        ),
      ]);
    const [columns, rows] = await withUserScope(server.app.orm.em.fork(), user.userId, read);
    expect(Number(columns.aggregates.n)).toBe(texts.length);
    const asRows = columns.columns[0]?.map((description, i) => ({
      description,
      amount: columns.columns[1]?.[i],
      category_id: columns.columns[2]?.[i],
    }));
    const sort = (list: { description: unknown }[]) =>
      [...list].sort((a, b) => String(a.description).localeCompare(String(b.description)));
    expect(sort(asRows ?? [])).toEqual(sort(rows.map((row) => ({ ...row, amount: Number(row.amount) }))));
    expect(new Set(asRows?.map((row) => row.description))).toEqual(new Set(texts));
    // No rows: empty columns, the aggregates still answered.
    const empty = await withUserScope(server.app.orm.em.fork(), user.userId, (em) =>
      selectJsonColumns<{ n: number | string }>(
        em,
        [{ sql: 't.description', type: 'text' }],
        `"transaction" t where t.user_id = ? and t.amount = 0`,
        'count(*) as n',
        [user.userId],
      ),
    );
    expect(empty).toEqual({ columns: [[]], aggregates: { n: empty.aggregates.n } });
    expect(Number(empty.aggregates.n)).toBe(0);
  });

  it('never learns from another user’s rows', async () => {
    const owner = await userWithAccount();
    await history(owner, 'PRIVATE CLINIC', 'Health', 12);
    const other = await userWithAccount();
    expect(
      ok(
        await other.post('/api/categories/suggest', {
          transactions: [{ description: 'PRIVATE CLINIC', amount: -2500 }],
        }),
      ),
    ).toEqual([{ category: null, confidence: 0, reason: 'No earlier transaction looks like this one' }]);
  });

  it('refuses bad input with a 400 naming it', async () => {
    const user = await userWithAccount();
    const tooMany = Array.from({ length: 5001 }, () => ({ description: 'x', amount: -1 }));
    const cases: [unknown, RegExp][] = [
      [{ transactions: tooMany }, /at most 5,000/],
      [{ transactions: [{ description: 'x', amount: 1.5 }] }, /amount/],
      [{ transactions: [{ description: '', amount: 1 }] }, /description/],
      [{ transactions: [{ description: 'x', amount: 1, extra: 1 }] }, /extra/],
      [{ rows: [] }, /rows/],
      [{ transactions: [{ description: 'x', amount: 1, postDate: '2024-02-30' }] }, /postDate/],
    ];
    for (const [body, message] of cases) {
      const res = await user.post('/api/categories/suggest', body);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.body)).toMatch(message);
    }
    expect(ok(await user.post('/api/categories/suggest', { transactions: [] }))).toEqual([]);
    const exactly = ok(await user.post('/api/categories/suggest', { transactions: tooMany.slice(1) }));
    expect(exactly).toHaveLength(5000);
  });
});

describe('categorySource', () => {
  it('is user when a person sets a category (create, update, bulk, split), null without one', async () => {
    const user = await userWithAccount();
    const plain = ok(await user.post('/api/transactions', { postDate: '2024-01-01', description: 'A', amount: -100 }));
    expect(plain.categorySource).toBeNull();
    const set = ok(
      await user.post('/api/transactions', {
        postDate: '2024-01-01',
        description: 'B',
        amount: -100,
        category: 'Food',
      }),
    );
    expect(set.categorySource).toBe('user');
    expect(ok(await user.put(`/api/transactions/${plain.id}`, { category: 'Food' })).categorySource).toBe('user');
    expect(ok(await user.put(`/api/transactions/${plain.id}`, { category: null })).categorySource).toBeNull();
    const bulk = ok(
      await user.put('/api/transactions/bulk', { transactionIds: [plain.id], updates: { category: 'Rent' } }),
    );
    expect(bulk[0].categorySource).toBe('user');
    const split = ok(
      await user.post(`/api/transactions/${set.id}/split`, {
        splits: [
          { amount: -60, category: 'x' },
          { amount: -40, category: 'y' },
        ],
      }),
    );
    expect(split.childTransactions.map((c: { categorySource: string }) => c.categorySource)).toEqual(['user', 'user']);
    expect(ok(await user.get(`/api/transactions/${set.id}`)).categorySource).toBe('user');
  });

  it('import: bank for the file’s own categories, suggested for confident suggestions; reviewing makes them user', async () => {
    const user = await userWithAccount();
    await history(user, 'GREEN BASKET', 'Groceries', 12);
    await history(user, 'CORNER BAKERY', 'Treats', 2, -500);
    const csv = [
      'Date,Description,Amount,Category',
      '2024-03-01,POS GREEN BASKET #0555 SPRINGFIELD IL,-31.20,',
      '2024-03-02,CORNER BAKERY 12,-4.50,',
      '2024-03-03,ACME PAYROLL,2500.00,Salary',
      '2024-03-04,Unknown place,-1.00,',
    ].join('\n');
    const preview = await upload(user, csv, { dryRun: 'true' });
    expect(preview.status).toBe(200);
    expect(
      preview.body.rows.map((r: { category: string | null; categorySource: string | null }) => [
        r.category,
        r.categorySource,
      ]),
    ).toEqual([
      ['Groceries', 'suggested'],
      [null, null],
      ['Salary', 'bank'],
      [null, null],
    ]);
    expect(preview.body.rows[0].categoryReason).toBe("12 earlier 'GREEN BASKET' rows were Groceries");
    expect(ok(await upload(user, csv)).imported).toBe(4);

    const suggested = ok<{ id: number; description: string; category: string; categorySource: string }[]>(
      await user.get(`${ALL}&category_source=suggested`),
    );
    expect(suggested.map((r) => [r.description, r.category, r.categorySource])).toEqual([
      ['POS GREEN BASKET #0555 SPRINGFIELD IL', 'Groceries', 'suggested'],
    ]);
    expect(
      data(
        await user.trpc.transactions.list.query({
          startDate: '2024-01-01',
          endDate: '2024-12-31',
          categorySource: 'bank',
        }),
      ).map((r: { description: string }) => r.description),
    ).toEqual(['ACME PAYROLL']);
    // Accepting (setting the same category) makes it the person's.
    expect(ok(await user.put(`/api/transactions/${suggested[0].id}`, { category: 'Groceries' })).categorySource).toBe(
      'user',
    );
    expect(ok(await user.get(`${ALL}&category_source=suggested`))).toEqual([]);
    expect((await user.get(`${ALL}&category_source=robot`)).body.error).toMatch(
      /category_source.*must be one of bank, rule, suggested, user|must be one of bank, rule, suggested, user/,
    );
  });

  it('learns an imported batch at once: its bank and rule categories, never its own suggestions', async () => {
    const user = await userWithAccount();
    await history(user, 'GREEN BASKET', 'Groceries', 9);
    ok(
      await user.post('/api/rules', {
        name: 'Fuel',
        conditions: [{ field: 'description', op: 'contains', value: 'shell oil' }],
        actions: { category: 'Fuel' },
        createCategory: true,
        priority: 1,
        enabled: true,
      }),
    );
    const ask = async (description: string, amount: number) =>
      ok<{ category: string | null; reason: string }[]>(
        await user.post('/api/categories/suggest', { transactions: [{ description, amount }] }),
      )[0];
    // The model is learned (and kept) before the import.
    expect((await ask('GREEN BASKET 1', -2000)).reason).toBe("9 earlier 'GREEN BASKET' rows were Groceries");
    const csv = [
      'Date,Description,Amount,Category',
      '2024-04-01,GREEN BASKET #0601,-20.00,',
      '2024-04-02,GREEN BASKET #0602,-21.00,groceries',
      '2024-04-03,SHELL OIL 12,-40.00,',
      '2024-04-04,SHELL OIL 13,-41.00,',
      '2024-04-05,Book Nook,-12.00,Books',
    ].join('\n');
    expect(ok(await upload(user, csv)).imported).toBe(5);
    // The bank's row (its category under the stored name) and the rule's rows are learned; the
    // suggested GREEN BASKET row is not (the learner does not learn its own guesses).
    expect(await ask('GREEN BASKET 2', -2000)).toMatchObject({
      category: 'Groceries',
      reason: "10 earlier 'GREEN BASKET' rows were Groceries",
    });
    expect(await ask('SHELL OIL 14', -4000)).toMatchObject({
      category: 'Fuel',
      reason: "2 earlier 'SHELL OIL' rows were Fuel",
    });
    expect(await ask('BOOK NOOK', -1000)).toMatchObject({
      category: 'Books',
      reason: "1 earlier 'BOOK NOOK' row was Books",
    });
    // A later change through any other path is still seen.
    const rows = ok<{ id: number }[]>(await user.get(`${ALL}&category_source=rule`));
    ok(await user.put(`/api/transactions/${rows[0].id}`, { category: 'Car' }));
    expect((await ask('SHELL OIL 15', -4000)).reason).toContain("1 of 2 earlier 'SHELL OIL' rows were");
  });

  it('an account with "Apply confident suggestions" off imports rows uncategorised', async () => {
    const user = await userWithAccount({ applySuggestions: false });
    expect(ok(await user.get('/api/accounts'))[0]).toMatchObject({ name: 'Checking', applySuggestions: false });
    await history(user, 'GREEN BASKET', 'Groceries', 12);
    const csv = 'Date,Description,Amount\n2024-03-01,GREEN BASKET 77,-31.20\n';
    expect((await upload(user, csv, { dryRun: 'true' })).body.rows[0]).toMatchObject({
      category: null,
      categorySource: null,
    });
    ok(await upload(user, csv));
    expect(ok(await user.get(`${ALL}&category_source=suggested`))).toEqual([]);
    const [account] = ok(await user.get('/api/accounts'));
    expect(ok(await user.put(`/api/accounts/${account.id}`, { applySuggestions: true })).applySuggestions).toBe(true);
    ok(await upload(user, 'Date,Description,Amount\n2024-03-05,GREEN BASKET 78,-12.00\n'));
    expect(ok(await user.get(`${ALL}&category_source=suggested`))).toHaveLength(1);
    expect((await user.put(`/api/accounts/${account.id}`, { applySuggestions: 'yes' })).status).toBe(400);
    // New accounts default to on, over tRPC too.
    expect(data(await user.trpc.accounts.create.mutate({ name: 'Card', type: 'credit' })).applySuggestions).toBe(true);
  });

  it('survives the JSON export and restore', async () => {
    const user = await userWithAccount({ applySuggestions: false });
    ok(
      await user.post('/api/transactions', {
        postDate: '2024-01-01',
        description: 'A',
        amount: -100,
        category: 'Food',
        account: 'Checking',
      }),
    );
    const doc = ok(await user.get('/api/export'));
    expect(doc.transactions[0].categorySource).toBe('user');
    expect(doc.accounts[0].applySuggestions).toBe(false);
    doc.transactions[0].categorySource = 'rule';
    const fresh = await signUp(server.url);
    ok(await fresh.post('/api/import', doc));
    expect(ok(await fresh.get(ALL))[0].categorySource).toBe('rule');
    expect(ok(await fresh.get('/api/accounts'))[0].applySuggestions).toBe(false);
  });
});
