import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDataDocument } from '../../src/shared/schemas/user-data';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * GET /api/export and POST /api/import: all of a user's data out as one document and back into
 * an empty user, all or nothing, every relation kept; export -> import -> export is the same
 * document apart from ids and the export time.
 */
let server: TestServer;
let owner: ApiUser;

async function fill(user: ApiUser): Promise<void> {
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking', balance: 123456 }));
  ok(await user.post('/api/accounts', { name: 'Card', type: 'credit', balance: -5000 }));
  ok(await user.post('/api/accounts', { name: 'Unused', type: 'cash' }));
  ok(await user.post('/api/categories', { name: 'Never used' }));
  // A rule renames the café row on import (its bank text is kept) and one disabled rule.
  ok(
    await user.post('/api/rules', {
      name: 'Café',
      conditions: [
        { field: 'description', op: 'contains', value: 'CAFÉ' },
        { field: 'amount', op: 'between', value: [-1000, 0] },
      ],
      actions: { category: 'Dining', description: 'Café Nero' },
      createCategory: true,
      priority: 5,
    }),
  );
  ok(
    await user.post('/api/rules', {
      name: 'Off',
      conditions: [{ field: 'account', op: 'equals', value: 'Card' }],
      actions: { type: 'charge' },
      enabled: false,
    }),
  );
  const body = new FormData();
  body.append(
    'file',
    new Blob([
      'Date,Description,Amount,Category\n2024-01-03,Grocer 1,-12.34,Groceries\n2024-01-04,Pay,2500.00,Salary\n2024-01-05,Café,-3.50,\n',
    ]),
    'jan.csv',
  );
  body.append('account', 'Checking');
  body.append('transactionType', 'debit');
  expect((await rest(server.url, 'POST', '/api/upload', { token: user.token, body })).status).toBe(201);
  const grocer = ok<{ id: number }[]>(await user.get('/api/transactions?start_date=2024-01-03&end_date=2024-01-03'))[0]
    .id;
  ok(
    await user.post(`/api/transactions/${grocer}/split`, {
      splits: [
        { amount: -1000, category: 'Groceries', splitNote: 'food' },
        { amount: -234, category: 'Household', description: 'Soap' },
      ],
    }),
  );
  ok(
    await user.post('/api/transactions', {
      postDate: '2024-02-01',
      description: 'No account, no category',
      amount: -1,
    }),
  );
  // A person's own note and cleared states, as the register sets them.
  const pay = ok<{ id: number }[]>(await user.get('/api/transactions?start_date=2024-01-04&end_date=2024-01-04'))[0].id;
  ok(await user.put(`/api/transactions/${pay}`, { memo: 'January salary, the first one', cleared: 'reconciled' }));
  const cafe = ok<{ id: number }[]>(await user.get('/api/transactions?start_date=2024-01-05&end_date=2024-01-05'))[0]
    .id;
  ok(await user.put(`/api/transactions/${cafe}?confirmReconciled=true`, { cleared: 'cleared' }));
  const card = ok(
    await user.post('/api/transactions', {
      postDate: '2024-02-02',
      description: 'Dinner',
      amount: -8000,
      account: 'Card',
      category: 'Dining',
      type: 'charge',
    }),
  ).id;
  ok(
    await user.post(`/api/transactions/${card}/split`, {
      splits: [
        { amount: -5000, category: 'Dining' },
        { amount: -2000, category: 'Gifts' },
        { amount: -1000, category: 'Dining', splitNote: 'tip' },
      ],
    }),
  );
  ok(
    await user.post('/api/budgets/save', {
      name: 'Q1',
      startDate: '2024-01-01',
      endDate: '2024-03-31',
      lineItems: [
        { name: 'Pay', amount: 250000, type: 'Income', relatedCategories: ['Salary'] },
        { name: 'Food', amount: 20000, type: 'Variable', relatedCategories: ['Groceries', 'Dining'] },
        { name: 'Other', amount: 100, type: 'NotCounted', relatedCategories: ['uncategorized'] },
      ],
    }),
  );
  ok(
    await user.post('/api/budgets', {
      name: 'Empty budget',
      startDate: '2024-05-01',
      endDate: '2024-05-31',
      amount: 7,
    }),
  );
  ok(
    await user.post('/api/envelopes', {
      name: 'Fun',
      categories: ['Dining', 'Gifts'],
      color: '#E91E63',
      description: 'Going out',
    }),
  );
  ok(await user.post('/api/envelopes', { name: 'Old', categories: ['Uncategorized'], isActive: false }));
}

/** The document with every id replaced by what it points at, and without the export time. */
function withoutIds(doc: UserDataDocument) {
  const account = (id: number | null) => (id === null ? null : doc.accounts.find((a) => a.id === id)!.name);
  const category = (id: number | null) => (id === null ? null : doc.categories.find((c) => c.id === id)!.name);
  const batch = (id: string | null) => (id === null ? null : doc.batches.findIndex((b) => b.id === id));
  const position = (id: number | null) => (id === null ? null : doc.transactions.findIndex((t) => t.id === id));
  return {
    format: doc.format,
    version: doc.version,
    homeCurrency: doc.homeCurrency,
    rates: doc.rates,
    accounts: doc.accounts.map(({ id: _id, ...rest }) => rest),
    categories: doc.categories.map(({ id: _id, ...rest }) => rest),
    batches: doc.batches.map(({ id: _id, accountId, ...rest }) => ({ ...rest, account: account(accountId) })),
    transactions: doc.transactions.map(({ id: _id, accountId, categoryId, batchId, parentId, ...rest }) => ({
      ...rest,
      account: account(accountId),
      category: category(categoryId),
      batch: batch(batchId),
      parent: position(parentId),
    })),
    budgets: doc.budgets.map(({ id: _id, lineItems, ...rest }) => ({
      ...rest,
      lineItems: lineItems.map(({ id: _item, ...item }) => item),
    })),
    envelopes: doc.envelopes.map(({ id: _id, ...rest }) => rest),
    rules: (doc.rules ?? []).map(({ id: _id, ...rest }) => rest),
  };
}

async function counts(user: ApiUser) {
  const all = ok<unknown[]>(await user.get('/api/transactions?start_date=1900-01-01&end_date=9999-12-31'));
  return {
    transactions: all.length,
    accounts: ok<unknown[]>(await user.get('/api/accounts')).length,
    categories: ok<unknown[]>(await user.get('/api/categories')).length,
    budgets: ok<unknown[]>(await user.get('/api/budgets')).length,
    envelopes: ok<unknown[]>(await user.get('/api/envelopes')).length,
  };
}

beforeAll(async () => {
  server = await startServer({ BODY_LIMIT_BYTES: '2048' });
  owner = await signUp(server.url);
  await fill(owner);
});
afterAll(async () => {
  await server.close();
});

describe('GET /api/export', () => {
  it('answers one versioned document with all of the user’s data, as a download', async () => {
    const res = await owner.get('/api/export');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(
      /^attachment; filename="budget-tracker-export-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    expect(res.headers.get('cache-control')).toBe('no-store');
    const doc = res.body as UserDataDocument;
    expect(doc).toMatchObject({ format: 'budget-tracker', version: 1 });
    // The document says what it leaves out on purpose: the history of changes and the trash.
    expect(doc.leftOut).toEqual([
      expect.stringMatching(/^The history of changes/),
      expect.stringMatching(/^The trash/),
    ]);
    expect(doc.accounts.map((a) => [a.name, a.type, a.openingBalance])).toEqual([
      ['Checking', 'checking', 123456],
      ['Card', 'credit', -5000],
      ['Unused', 'cash', 0],
    ]);
    expect(doc.categories.map((c) => c.name).sort()).toEqual([
      'Dining',
      'Gifts',
      'Groceries',
      'Household',
      'Never used',
      'Salary',
    ]);
    expect(doc.batches).toHaveLength(1);
    expect(doc.batches[0]).toMatchObject({ fileName: 'jan.csv', transactionCount: 3, dateFormat: 'YYYY-MM-DD' });
    expect(doc.transactions).toHaveLength(10); // 3 imported + 2 split parts + 1 + 1 card parent + 3 parts
    const parts = doc.transactions.filter((t) => t.parentId !== null);
    expect(parts.map((t) => t.amount)).toEqual([-1000, -234, -5000, -2000, -1000]);
    expect(parts.every((t) => doc.transactions.find((p) => p.id === t.parentId)!.isSplit)).toBe(true);
    expect(doc.budgets.map((b) => [b.name, b.lineItems.length])).toEqual([
      ['Q1', 3],
      ['Empty budget', 0],
    ]);
    expect(doc.envelopes.map((e) => [e.name, e.color, e.isActive, e.description])).toEqual([
      ['Fun', '#E91E63', true, 'Going out'],
      ['Old', '#4CAF50', false, null],
    ]);
    expect(doc).not.toHaveProperty('importProfiles');
    expect(doc.rules!.map((r) => [r.name, r.priority, r.enabled, r.actions])).toEqual([
      ['Café', 5, true, { category: 'Dining', description: 'Café Nero' }],
      ['Off', 100, false, { type: 'charge' }],
    ]);
    expect(doc.transactions.find((t) => t.description === 'Café Nero')).toMatchObject({ bankDescription: 'Café' });
    expect(doc.transactions.filter((t) => t.bankDescription !== undefined)).toHaveLength(1);
    // Downloadable by a browser link too.
    const link = await fetch(`${server.url}/api/export?access_token=${encodeURIComponent(owner.token)}`);
    expect(link.status).toBe(200);
    expect(((await link.json()) as UserDataDocument).transactions).toHaveLength(10);
  });
});

describe('POST /api/import', () => {
  it('restores into an empty user with new ids and every relation; exporting again gives the same document', async () => {
    const doc = ok<UserDataDocument>(await owner.get('/api/export'));
    const copy = await signUp(server.url);
    // Larger than BODY_LIMIT_BYTES (2 KB here): the restore has its own limit.
    expect(JSON.stringify(doc).length).toBeGreaterThan(2048);
    const res = await copy.post('/api/import', doc);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.imported).toEqual({
      accounts: 3,
      categories: 6,
      batches: 1,
      transactions: 10,
      budgets: 2,
      lineItems: 3,
      envelopes: 2,
      rules: 2,
      schedules: 0,
      planAssigned: 0,
      planMoves: 0,
      planHolds: 0,
    });
    expect(res.body.message).toBe(
      'Restored 10 transactions, 3 accounts, 6 categories, 2 budgets and 2 envelopes (and 2 rules)',
    );

    expect(doc.transactions.filter((t) => t.memo !== undefined || t.cleared !== 'uncleared')).toMatchObject([
      { description: 'Pay', memo: 'January salary, the first one', cleared: 'reconciled' },
      { description: 'Café Nero', cleared: 'cleared' },
    ]);
    const again = ok<UserDataDocument>(await copy.get('/api/export'));
    expect(again.transactions.map((t) => t.id)).not.toEqual(doc.transactions.map((t) => t.id));
    expect(again.batches[0].id).not.toBe(doc.batches[0].id);
    expect(withoutIds(again)).toEqual(withoutIds(doc));

    // The restored user sees the same figures through every screen's call.
    expect(await counts(copy)).toEqual(await counts(owner));
    const overview = async (user: ApiUser) => {
      const budget = ok<{ id: number; name: string }[]>(await user.get('/api/budgets')).find((b) => b.name === 'Q1')!;
      const { overview: o } = ok(await user.get(`/api/budgets/${budget.id}/overview`));
      return {
        actual: o.actual,
        budgeted: o.budgeted,
        typeTotals: o.typeTotals,
        splits: o.splits,
        total: o.total,
        transactionCount: o.transactionCount,
      };
    };
    expect(await overview(copy)).toEqual(await overview(owner));
    const envelopes = async (user: ApiUser) =>
      ok<{ name: string; total: number; transactionCount: number }[]>(await user.get('/api/envelopes')).map((e) => [
        e.name,
        e.total,
        e.transactionCount,
      ]);
    expect(await envelopes(copy)).toEqual(await envelopes(owner));
    const batch = ok<{ batchId: string; transactionCount: number }[]>(
      await copy.get('/api/transactions/batches/list'),
    )[0];
    expect(ok<unknown[]>(await copy.get(`/api/transactions/batches/${batch.batchId}/transactions`)).length).toBe(5); // 3 rows + the split's 2 parts
  });

  it('refuses a user that already has data with 409, changing nothing', async () => {
    const doc = ok<UserDataDocument>(await owner.get('/api/export'));
    const before = await counts(owner);
    const res = await owner.post('/api/import', doc);
    expect(res.status).toBe(409);
    expect(res.body.error).toMatch(
      /^A restore needs a user without data, and this one has 3 accounts, 6 categories, 1 batch, 10 transactions, 2 budgets, 2 envelopes, 2 rules\. Nothing was changed\.$/,
    );
    expect(await counts(owner)).toEqual(before);
    const almostEmpty = await signUp(server.url);
    ok(await almostEmpty.post('/api/categories', { name: 'Just one' }));
    expect((await almostEmpty.post('/api/import', doc)).status).toBe(409);
  });

  it('refuses documents that do not hold together with 400 naming the problem, writing nothing', async () => {
    const doc = ok<UserDataDocument>(await owner.get('/api/export'));
    const user = await signUp(server.url);
    const tries: [unknown, RegExp][] = [
      [{ ...doc, version: 2 }, /^version: 2 was written by a newer Budget Tracker; this one reads version 1$/],
      [{ ...doc, format: 'other' }, /^format: must be 'budget-tracker'/],
      [{ ...doc, importProfiles: [{ name: 'x' }] }, /^importProfiles: cannot be restored by this version/],
      [
        { ...doc, transactions: doc.transactions.map((t, i) => (i === 3 ? { ...t, categoryId: 999999 } : t)) },
        /^transactions\.3\.categoryId: refers to no category \(999999\)$/,
      ],
      [
        { ...doc, transactions: doc.transactions.map((t) => (t.amount === -234 ? { ...t, amount: -235 } : t)) },
        /split of transaction \d+: Split amounts must sum to 12\.34/,
      ],
      [
        { ...doc, categories: [...doc.categories, { id: 424242, name: 'GROCERIES' }] },
        /^categories\.6\.name: 'GROCERIES' appears twice/,
      ],
      [{ ...doc, accounts: undefined }, /^accounts: /],
      [{ ...doc, extra: [] }, /extra/],
      [
        {
          ...doc,
          rules: [{ ...doc.rules![0], conditions: [{ field: 'description', op: 'matches', value: '(?=a)b' }] }],
        },
        /^rules\.0\.conditions\.0\.value: unsafe or invalid regular expression: uses a lookahead/,
      ],
      [{ ...doc, rules: [{ ...doc.rules![0], priority: -5 }] }, /^rules\.0\.priority: is out of range/],
      [{ ...doc, rules: [doc.rules![0], doc.rules![0]] }, /^rules\.1\.id: \d+ appears twice/],
    ];
    for (const [body, message] of tries) {
      const res = await user.post('/api/import', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect(await counts(user)).toEqual({ transactions: 0, accounts: 0, categories: 0, budgets: 0, envelopes: 0 });
  });

  it('is all or nothing: a failure on the last row leaves the user empty', async () => {
    const doc = ok<UserDataDocument>(await owner.get('/api/export'));
    const user = await signUp(server.url);
    // A trigger refuses the last row (each dialect spells triggers its own way).
    if (server.database === 'postgresql') {
      await server.sql(
        "create function refuse_boom() returns trigger language plpgsql as $$ begin if new.name = 'boom' then raise exception 'boom'; end if; return new; end $$",
      );
      await server.sql(
        'create trigger refuse_boom before insert on envelope for each row execute function refuse_boom()',
      );
    } else {
      await server.sql(
        "create trigger refuse_boom before insert on envelope when new.name = 'boom' begin select raise(abort, 'boom'); end",
        [],
        'run',
      );
    }
    try {
      const res = await user.post('/api/import', {
        ...doc,
        envelopes: [...doc.envelopes, { ...doc.envelopes[0], id: 99, name: 'boom' }],
      });
      expect(res.status).toBe(500);
    } finally {
      await server.sql(
        server.database === 'postgresql' ? 'drop trigger refuse_boom on envelope' : 'drop trigger refuse_boom',
        [],
        'run',
      );
    }
    expect(await counts(user)).toEqual({ transactions: 0, accounts: 0, categories: 0, budgets: 0, envelopes: 0 });
    expect((await user.post('/api/import', doc)).status).toBe(201);
  });

  it('takes a document up to RESTORE_LIMIT_BYTES and answers 413 beyond it', async () => {
    const small = await startServer({ RESTORE_LIMIT_BYTES: '4096' });
    try {
      const user = await signUp(small.url);
      const doc = ok<UserDataDocument>(await owner.get('/api/export'));
      const res = await user.post('/api/import', {
        ...doc,
        transactions: [
          ...doc.transactions,
          ...Array.from({ length: 40 }, (_, i) => ({
            ...doc.transactions[1],
            id: 5000 + i,
            parentId: null,
            isSplit: false,
          })),
        ],
      });
      expect(res.status).toBe(413);
      expect(await counts(user)).toEqual({ transactions: 0, accounts: 0, categories: 0, budgets: 0, envelopes: 0 });
    } finally {
      await small.close();
    }
  });
});

describe('currencies in the document', () => {
  const RATES = [
    { date: '2024-03-01', base: 'EUR', quote: 'GBP', rate: '0.85525' },
    { date: '2024-03-01', base: 'EUR', quote: 'JPY', rate: '162.24' },
    { date: '2024-03-04', base: 'EUR', quote: 'GBP', rate: '0.8555' },
    { date: '2024-03-04', base: 'EUR', quote: 'JPY', rate: '162.5' },
  ];

  async function monthly(user: ApiUser) {
    return ok<unknown[]>(await user.get('/api/reports/monthly?start_date=2024-03-01&end_date=2024-03-31'));
  }

  it('carry the home currency, account currencies, original amounts and the rates between them', async () => {
    const user = await signUp(server.url);
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
    ok(await user.post('/api/accounts', { name: 'Pounds', type: 'checking', currency: 'GBP' }));
    ok(await user.post('/api/accounts', { name: 'Yen', type: 'cash', currency: 'JPY' }));
    for (const rate of [...RATES, { date: '2024-03-01', base: 'CHF', quote: 'SEK', rate: '11.9' }])
      ok(await user.put('/api/rates', rate));
    const spent = [
      { postDate: '2024-03-01', description: 'Tea', amount: -400, account: 'Pounds' },
      {
        postDate: '2024-03-02',
        description: 'Dinner abroad',
        amount: -4321,
        account: 'Pounds',
        originalAmount: -5012,
        originalCurrency: 'EUR',
      },
      { postDate: '2024-03-04', description: 'Ramen', amount: -1625, account: 'Yen' },
    ];
    for (const row of spent) ok(await user.post('/api/transactions', row));

    const doc = ok<UserDataDocument>(await user.get('/api/export'));
    expect(doc.homeCurrency).toBe('EUR');
    expect(doc.accounts.map((a) => [a.name, a.currency])).toEqual([
      ['Pounds', 'GBP'],
      ['Yen', 'JPY'],
    ]);
    expect(doc.transactions.map((t) => [t.description, t.amount, t.originalAmount, t.originalCurrency])).toEqual([
      ['Tea', -400, undefined, undefined],
      ['Dinner abroad', -4321, -5012, 'EUR'],
      ['Ramen', -1625, undefined, undefined],
    ]);
    // Only the rates touching the user's currencies: the CHF/SEK rate converts nothing of theirs.
    expect(doc.rates).toEqual(RATES);

    const copy = await signUp(server.url);
    expect((await copy.post('/api/import', doc)).status).toBe(201);
    const me = ok<{ homeCurrency: string }>(await copy.get('/api/auth/me'));
    expect(me.homeCurrency).toBe('EUR');
    const again = ok<UserDataDocument>(await copy.get('/api/export'));
    expect(withoutIds(again)).toEqual(withoutIds(doc));
    expect(await monthly(copy)).toEqual(await monthly(user));
    expect(JSON.stringify(await monthly(copy))).toContain('"currency":"EUR"');
  });

  it('keep the rates the instance has, and add the ones it lacks', async () => {
    const user = await signUp(server.url);
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
    ok(await user.post('/api/accounts', { name: 'Pounds', type: 'checking', currency: 'GBP' }));
    ok(await user.put('/api/rates', { date: '2024-03-01', base: 'EUR', quote: 'GBP', rate: '0.85525' }));
    const doc = {
      ...ok<UserDataDocument>(await user.get('/api/export')),
      rates: [
        { date: '2024-03-01', base: 'EUR', quote: 'GBP', rate: '0.5' },
        { date: '2001-02-03', base: 'EUR', quote: 'GBP', rate: '0.61' },
      ],
    };
    const copy = await signUp(server.url);
    expect((await copy.post('/api/import', doc)).status).toBe(201);
    const rateOn = async (date: string) =>
      ok<{ rate: string; rateDate: string }>(await copy.get(`/api/rates?base=EUR&quote=GBP&date=${date}`));
    expect(await rateOn('2024-03-01')).toMatchObject({ rate: '0.85525', rateDate: '2024-03-01' });
    expect(await rateOn('2001-02-03')).toMatchObject({ rate: '0.61', rateDate: '2001-02-03' });
  });

  it('restore a document from before currencies in the restoring user’s home currency', async () => {
    const doc = ok<UserDataDocument>(await owner.get('/api/export'));
    const { homeCurrency: _home, rates: _rates, ...old } = doc;
    const copy = await signUp(server.url);
    ok(await copy.put('/api/auth/home-currency', { homeCurrency: 'CHF' }));
    const res = await copy.post('/api/import', {
      ...old,
      accounts: old.accounts.map(({ currency: _currency, ...a }) => a),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const accounts = ok<{ currency: string }[]>(await copy.get('/api/accounts'));
    expect(accounts.map((a) => a.currency)).toEqual(['CHF', 'CHF', 'CHF']);
    expect(ok<{ homeCurrency: string }>(await copy.get('/api/auth/me')).homeCurrency).toBe('CHF');
  });

  it('refuse original amounts without their currency and rates given twice', async () => {
    const doc = ok<UserDataDocument>(await owner.get('/api/export'));
    const user = await signUp(server.url);
    const rate = { date: '2024-03-01', base: 'EUR', quote: 'GBP', rate: '0.85' };
    const tries: [unknown, RegExp][] = [
      [
        { ...doc, transactions: doc.transactions.map((t, i) => (i === 0 ? { ...t, originalAmount: -5 } : t)) },
        /^transactions\.0\.originalCurrency: originalAmount and originalCurrency go together$/,
      ],
      [{ ...doc, rates: [rate, rate] }, /^rates\.1: the EUR to GBP rate of 2024-03-01 appears twice$/],
      [
        { ...doc, rates: [{ ...rate, rate: '-1' }] },
        /^rates\.0\.rate: the rate '-1' is not a positive decimal number$/,
      ],
      [
        { ...doc, accounts: doc.accounts.map((a) => ({ ...a, currency: 'XYZ' })) },
        /^accounts\.0\.currency: must be an ISO 4217/,
      ],
    ];
    for (const [body, message] of tries) {
      const res = await user.post('/api/import', body);
      expect(res.status, JSON.stringify(res.body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
  });
});
