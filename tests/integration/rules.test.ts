import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/** Rules: REST and tRPC on a real server, imports through rules, applying to stored rows. */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

const coffee = {
  name: 'Coffee',
  conditions: [
    { field: 'description', op: 'contains', value: 'starbucks' },
    { field: 'amount', op: 'lt', value: 0 },
  ],
  actions: { category: 'Coffee Shops' },
  priority: 10,
  enabled: true,
};

async function userWithAccount(): Promise<ApiUser> {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  return user;
}

function upload(user: ApiUser, csv: string, fields: Record<string, string> = {}) {
  const body = new FormData();
  body.append('file', new Blob([csv]), 'statement.csv');
  body.append('account', 'Checking');
  for (const [key, value] of Object.entries(fields)) body.append(key, value);
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

type Tx = { id: number; postDate: string; description: string; amount: number; category: string | null; type: string };
async function stored(user: ApiUser): Promise<Tx[]> {
  return ok(await user.get('/api/transactions?start_date=1900-01-01&end_date=2100-12-31'));
}

describe('rules over REST and tRPC', () => {
  it('creates, lists in priority order, updates, disables and deletes; a new category only when asked', async () => {
    const user = await signUp(server.url);
    // A category no one has is refused unless createCategory asks for it: a typo never becomes one.
    const refused = await user.post('/api/rules', coffee);
    expect(refused.status).toBe(422);
    expect(refused.body.error).toContain("There is no category 'Coffee Shops'");
    expect(ok(await user.get('/api/rules'))).toEqual([]);
    expect(ok(await user.get('/api/categories'))).toEqual([]);
    const created = await user.post('/api/rules', { ...coffee, createCategory: true });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), ...coffee });
    expect(ok(await user.get('/api/categories')).map((c: { name: string }) => c.name)).toEqual(['Coffee Shops']);
    const rent = data(
      await user.trpc.rules.create.mutate({
        name: 'Rent',
        conditions: [{ field: 'description', op: 'equals', value: 'rent' }],
        actions: { type: 'transfer' },
        priority: 5,
      }),
    );
    expect(rent).toMatchObject({ priority: 5, enabled: true });
    expect(ok(await user.get('/api/rules')).map((r: { name: string }) => r.name)).toEqual(['Rent', 'Coffee']);
    expect(data(await user.trpc.rules.list.query()).map((r: { name: string }) => r.name)).toEqual(['Rent', 'Coffee']);

    const updated = ok(await user.put(`/api/rules/${created.body.id}`, { priority: 1, enabled: false }));
    expect(updated).toMatchObject({ priority: 1, enabled: false, name: 'Coffee' });
    expect(ok(await user.get('/api/rules')).map((r: { name: string }) => r.name)).toEqual(['Coffee', 'Rent']);

    const reordered = ok(await user.put('/api/rules/order', { ids: [rent.id, created.body.id] }));
    expect(reordered.map((r: { name: string; priority: number }) => [r.name, r.priority])).toEqual([
      ['Rent', 10],
      ['Coffee', 20],
    ]);
    expect((await user.put('/api/rules/order', { ids: [rent.id] })).status).toBe(400);

    expect(ok(await user.del(`/api/rules/${created.body.id}`))).toEqual({ message: "Rule 'Coffee' deleted" });
    expect((await user.del(`/api/rules/${created.body.id}`)).status).toBe(404);
    expect(data(await user.trpc.rules.list.query())).toHaveLength(1);
  });

  it.each([
    [
      'an unknown field',
      { conditions: [{ field: 'payee', op: 'equals', value: 'x' }] },
      /conditions\.0\.field: unknown field 'payee'/,
    ],
    [
      'a regex with a backreference',
      { conditions: [{ field: 'description', op: 'matches', value: '(a+)\\1$' }] },
      /conditions\.0\.value: unsafe or invalid regular expression: uses a backreference \(\\1\)/,
    ],
    ['an empty condition list', { conditions: [] }, /conditions: must hold at least one condition/],
    ['a priority out of range', { priority: 99_999 }, /priority: is out of range/],
  ])('refuses %s with 400 naming it, over REST and tRPC, and stores nothing', async (_label, change, message) => {
    const user = await signUp(server.url);
    const res = await user.post('/api/rules', { ...coffee, ...change });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(message);
    expect(res.body.message).toMatch(message);
    const viaTrpc = await user.trpc.rules.create.mutate({ ...coffee, ...change });
    expect(viaTrpc.error?.data.httpStatus).toBe(400);
    expect(viaTrpc.error?.message).toMatch(message);
    expect((await user.put('/api/rules/1', change)).status).toBe(400);
    expect(ok(await user.get('/api/rules'))).toEqual([]);
  });

  it('sets an existing category in its own spelling, and refuses an unknown one on update too, changing nothing', async () => {
    const user = await signUp(server.url);
    ok(await user.post('/api/categories', { name: 'Coffee Shops' }));
    const rule = ok(await user.post('/api/rules', { ...coffee, actions: { category: 'coffee shops' } }));
    expect(rule.actions).toEqual({ category: 'Coffee Shops' });
    const typo = await user.put(`/api/rules/${rule.id}`, { actions: { category: 'Cofee Shops' } });
    expect(typo.status).toBe(422);
    expect(typo.body.error).toContain("There is no category 'Cofee Shops'");
    const viaTrpc = await user.trpc.rules.update.mutate({ id: rule.id, data: { actions: { category: 'Cofee' } } });
    expect(viaTrpc.error?.data.httpStatus).toBe(422);
    expect(ok(await user.get('/api/rules'))[0].actions).toEqual({ category: 'Coffee Shops' });
    expect(ok(await user.get('/api/categories')).map((c: { name: string }) => c.name)).toEqual(['Coffee Shops']);
    const created = ok(
      await user.put(`/api/rules/${rule.id}`, { actions: { category: 'Cafés' }, createCategory: true }),
    );
    expect(created.actions).toEqual({ category: 'Cafés' });
    expect(ok(await user.get('/api/categories')).map((c: { name: string }) => c.name)).toContain('Cafés');
  });

  it('refuses a second rule of the same name in any case (409), per user, on create and rename', async () => {
    const user = await signUp(server.url);
    const rule = ok(await user.post('/api/rules', { ...coffee, actions: { type: 'debit' } }));
    const again = await user.post('/api/rules', { ...coffee, name: ' COFFEE ', actions: { type: 'credit' } });
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("A rule named 'Coffee' already exists");
    const viaTrpc = await user.trpc.rules.create.mutate({ ...coffee, name: 'coffee', actions: { type: 'credit' } });
    expect(viaTrpc.error?.data.httpStatus).toBe(409);
    const other = ok(await user.post('/api/rules', { ...coffee, name: 'Tea', actions: { type: 'debit' } }));
    expect((await user.put(`/api/rules/${other.id}`, { name: 'cOFFEE' })).status).toBe(409);
    // Renaming a rule to its own name in another case is no clash.
    expect(ok(await user.put(`/api/rules/${rule.id}`, { name: 'COFFEE' })).name).toBe('COFFEE');
    expect(ok(await user.get('/api/rules')).map((r: { name: string }) => r.name)).toEqual(['COFFEE', 'Tea']);
    // Another user may use the name.
    const stranger = await signUp(server.url);
    expect((await stranger.post('/api/rules', { ...coffee, actions: { type: 'debit' } })).status).toBe(201);
  });

  it('counts the transactions some conditions match', async () => {
    const user = await userWithAccount();
    for (const [description, amount] of [
      ['STARBUCKS 1', -450],
      ['Starbucks refund', 450],
      ['Tesco', -2000],
    ] as const) {
      ok(await user.post('/api/transactions', { postDate: '2024-02-01', description, amount, account: 'Checking' }));
    }
    const count = ok(await user.post('/api/rules/count', { conditions: coffee.conditions }));
    expect(count).toEqual({
      matched: 1,
      total: 3,
      sample: [expect.objectContaining({ description: 'STARBUCKS 1', amount: -450 })],
    });
    expect(
      data(
        await user.trpc.rules.countMatches.query({
          conditions: [{ field: 'description', op: 'contains', value: 'starbucks' }],
        }),
      ),
    ).toMatchObject({
      matched: 2,
      total: 3,
    });
    expect((await user.post('/api/rules/count', { conditions: [] })).status).toBe(400);
  });
});

describe('imports run rules on every new row', () => {
  const csv =
    'Date,Description,Amount,Category\n2024-03-01,STARBUCKS #1234,-4.50,Dining\n2024-03-02,Tesco Stores,-20.00,Groceries\n2024-03-03,Rent March,-900.00,\n2024-03-04,Starbucks refund,4.50,\n';

  it('shows in the dry run which rule set each category, keeps bank categories otherwise, and stores the same', async () => {
    const user = await userWithAccount();
    const rule = ok(
      await user.post('/api/rules', {
        ...coffee,
        actions: { category: 'Coffee Shops', description: 'Starbucks' },
        createCategory: true,
      }),
    );
    const rent = ok(
      await user.post('/api/rules', {
        name: 'Rent',
        conditions: [{ field: 'description', op: 'startsWith', value: 'rent' }],
        actions: { type: 'transfer', category: 'Housing' },
        createCategory: true,
      }),
    );
    const dry = await upload(user, csv, { dryRun: 'true' });
    expect(dry.status).toBe(200);
    expect(
      dry.body.rows.map((r: Record<string, unknown>) => [
        r.description,
        r.bankDescription,
        r.category,
        r.categoryOrigin,
        r.ruleId,
        r.ruleName,
        r.type,
      ]),
    ).toEqual([
      ['Starbucks', 'STARBUCKS #1234', 'Coffee Shops', 'rule', rule.id, 'Coffee', 'debit'],
      ['Tesco Stores', 'Tesco Stores', 'Groceries', 'bank', null, null, 'debit'],
      ['Rent March', 'Rent March', 'Housing', 'rule', rent.id, 'Rent', 'transfer'],
      ['Starbucks refund', 'Starbucks refund', null, null, null, null, 'credit'],
    ]);
    expect(dry.body.rows[0].ruleIds).toEqual({ category: rule.id, description: rule.id });
    expect(await stored(user)).toEqual([]);

    expect((await upload(user, csv)).body).toMatchObject({ imported: 4 });
    const rows = await stored(user);
    expect(rows.map((r) => [r.postDate, r.description, r.category, r.type])).toEqual([
      ['2024-03-04', 'Starbucks refund', null, 'credit'],
      ['2024-03-03', 'Rent March', 'Housing', 'transfer'],
      ['2024-03-02', 'Tesco Stores', 'Groceries', 'debit'],
      ['2024-03-01', 'Starbucks', 'Coffee Shops', 'debit'],
    ]);
    // The renamed row is still recognised when the same file comes again, with or without the rule.
    expect((await upload(user, csv)).body).toMatchObject({ imported: 0, duplicates: 4 });
    ok(await user.put(`/api/rules/${rule.id}`, { enabled: false }));
    expect((await upload(user, csv)).body).toMatchObject({ imported: 0, duplicates: 4 });
  });

  it('a rule naming another account does not touch this import; a dry run shows the categories rules set too', async () => {
    const user = await userWithAccount();
    ok(
      await user.post('/api/rules', {
        ...coffee,
        conditions: [...coffee.conditions, { field: 'account', op: 'equals', value: 'Savings' }],
        createCategory: true,
      }),
    );
    ok(
      await user.post('/api/rules', {
        name: 'Tesco',
        conditions: [
          { field: 'description', op: 'matches', value: '^tesco\\s+stores?$' },
          { field: 'account', op: 'equals', value: 'CHECKING' },
        ],
        actions: { category: 'Food' },
        createCategory: true,
      }),
    );
    const file = new FormData();
    file.append('file', new Blob([csv]), 'statement.csv');
    file.append('account', 'Checking');
    file.append('dryRun', 'true');
    const res = ok(await user.post('/api/upload', file));
    if (!('rows' in res)) throw new Error('a dry run answers a preview');
    expect(
      res.rows.map((r: { category: string | null; categoryOrigin: string | null }) => [r.category, r.categoryOrigin]),
    ).toEqual([
      ['Dining', 'bank'],
      ['Food', 'rule'],
      [null, null],
      [null, null],
    ]);
  });
});

describe('POST /api/rules/apply', () => {
  async function seeded() {
    const user = await userWithAccount();
    const add = async (postDate: string, description: string, amount: number, category?: string) =>
      ok(
        await user.post('/api/transactions', {
          postDate,
          description,
          amount,
          account: 'Checking',
          ...(category ? { category } : {}),
        }),
      ).id as number;
    const ids = {
      a: await add('2024-01-05', 'STARBUCKS 1', -450),
      b: await add('2024-02-05', 'Starbucks 2', -500, 'Dining'),
      c: await add('2024-03-05', 'starbucks 3', -550),
      other: await add('2024-03-06', 'Tesco', -100),
    };
    const rule = ok(await user.post('/api/rules', { ...coffee, createCategory: true }));
    return { user, ids, rule };
  }

  it('previews without changing anything, then applies; only uncategorised rows unless told otherwise', async () => {
    const { user, ids, rule } = await seeded();
    const before = await stored(user);
    const preview = ok(await user.post('/api/rules/apply', { dryRun: true }));
    expect(preview).toEqual({
      dryRun: true,
      matched: 2,
      changed: 2,
      truncated: false,
      changes: [
        {
          id: ids.c,
          postDate: '2024-03-05',
          description: 'starbucks 3',
          amount: -550,
          field: 'category',
          from: null,
          to: 'Coffee Shops',
          ruleId: rule.id,
        },
        {
          id: ids.a,
          postDate: '2024-01-05',
          description: 'STARBUCKS 1',
          amount: -450,
          field: 'category',
          from: null,
          to: 'Coffee Shops',
          ruleId: rule.id,
        },
      ],
    });
    expect(await stored(user)).toEqual(before);

    const ranged = ok(
      await user.post('/api/rules/apply', {
        start_date: '2024-02-01',
        end_date: '2024-12-31',
        onlyUncategorized: false,
        dryRun: true,
      }),
    );
    expect(ranged.changes.map((c: { id: number; from: string | null }) => [c.id, c.from])).toEqual([
      [ids.c, null],
      [ids.b, 'Dining'],
    ]);

    const applied = ok(await user.post('/api/rules/apply', {}));
    expect(applied).toMatchObject({ dryRun: false, matched: 2, changed: 2 });
    const rows = await stored(user);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.category]))).toEqual({
      [ids.a]: 'Coffee Shops',
      [ids.b]: 'Dining',
      [ids.c]: 'Coffee Shops',
      [ids.other]: null,
    });
    // A category a rule set on a stored row is the rule's.
    const sources = Object.fromEntries(
      rows.map((r) => [r.id, (r as unknown as { categorySource: string | null }).categorySource]),
    );
    expect([sources[ids.a], sources[ids.c]]).toEqual(['rule', 'rule']);
    // Nothing left to do.
    expect(ok(await user.post('/api/rules/apply', {}))).toMatchObject({ matched: 0, changed: 0, changes: [] });
    // tRPC: all rows, a rename and a type, with exactly the given (disabled) rule.
    const rename = data(
      await user.trpc.rules.create.mutate({
        name: 'R',
        conditions: [{ field: 'description', op: 'contains', value: 'tesco' }],
        actions: { description: 'Tesco Stores', type: 'charge' },
        enabled: false,
      }),
    );
    expect(
      data(await user.trpc.rules.applyToTransactions.mutate({ ruleIds: [rename.id], onlyUncategorized: false })),
    ).toMatchObject({
      changed: 1,
      changes: [
        { id: ids.other, field: 'type', from: 'debit', to: 'charge', ruleId: rename.id },
        { id: ids.other, field: 'description', from: 'Tesco', to: 'Tesco Stores', ruleId: rename.id },
      ],
    });
    expect((await user.post('/api/rules/apply', { ruleIds: [999_999] })).status).toBe(404);
    expect((await user.post('/api/rules/apply', { start_date: '2024-13-01' })).body.error).toMatch(/start_date/);
  });

  it('caps the changes list at 1,000 and still counts them all', async () => {
    const user = await userWithAccount();
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 1100; i++) lines.push(`2024-01-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},-1.00`);
    expect((await upload(user, `${lines.join('\n')}\n`)).body).toMatchObject({ imported: 1100 });
    ok(
      await user.post('/api/rules', {
        name: 'Shops',
        conditions: [{ field: 'description', op: 'startsWith', value: 'shop' }],
        actions: { category: 'Shopping' },
        createCategory: true,
      }),
    );
    const preview = ok(await user.post('/api/rules/apply', { dryRun: true }));
    expect(preview).toMatchObject({ matched: 1100, changed: 1100, truncated: true });
    expect(preview.changes).toHaveLength(1000);
    expect(ok(await user.post('/api/rules/apply', {}))).toMatchObject({ changed: 1100 });
    expect((await stored(user)).every((r) => r.category === 'Shopping')).toBe(true);
  });
});

describe('amount conditions in a currency', () => {
  /** Home EUR, a euro and a yen account, each with a -4000 row: 40.00 euros and 4,000 yen. */
  async function twoCurrencies() {
    const user = await signUp(server.url);
    ok(await user.put('/api/auth/home-currency', { homeCurrency: 'EUR' }));
    ok(await user.post('/api/accounts', { name: 'Euro', type: 'checking', currency: 'EUR' }));
    ok(await user.post('/api/accounts', { name: 'Yen', type: 'checking', currency: 'JPY' }));
    for (const account of ['Euro', 'Yen'])
      ok(await user.post('/api/transactions', { postDate: '2024-02-01', description: 'SHOP', amount: -4000, account }));
    return user;
  }
  const over30 = { field: 'amount', op: 'lt', value: -3000 };

  it('count only rows in their currency: the home currency unless the condition names another', async () => {
    const user = await twoCurrencies();
    const count = async (condition: Record<string, unknown>) =>
      ok<{ matched: number; sample: { amount: number }[] }>(
        await user.post('/api/rules/count', { conditions: [condition] }),
      );
    expect((await count(over30)).matched).toBe(1);
    expect((await count({ ...over30, currency: 'jpy' })).matched).toBe(1);
    expect((await count({ ...over30, currency: 'GBP' })).matched).toBe(0);
    expect((await count({ field: 'amount', op: 'between', value: [-5000, 0], currency: 'EUR' })).matched).toBe(1);
    const refused = await user.post('/api/rules/count', { conditions: [{ ...over30, currency: 'EURO' }] });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toMatch(/currency.*ISO 4217/);
    const onText = await user.post('/api/rules/count', {
      conditions: [{ field: 'description', op: 'contains', value: 'shop', currency: 'EUR' }],
    });
    expect(onText.status).toBe(400);
    expect(JSON.stringify(onText.body)).toMatch(/currency.*amount/);
  });

  it('apply and imports set categories only on rows in the condition’s currency', async () => {
    const user = await twoCurrencies();
    const euros = ok(
      await user.post('/api/rules', {
        name: 'Big in euros',
        conditions: [over30],
        actions: { category: 'Big' },
        createCategory: true,
      }),
    );
    expect(euros.conditions).toEqual([over30]);
    ok(
      await user.post('/api/rules', {
        name: 'Big in yen',
        conditions: [{ ...over30, value: -3500, currency: 'JPY' }],
        actions: { category: 'Big yen' },
        createCategory: true,
      }),
    );
    ok(await user.post('/api/rules/apply', {}));
    const byAccount = async () =>
      Object.fromEntries(
        ok<{ account: string; category: string | null; description: string }[]>(
          await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'),
        ).map((t) => [`${t.account} ${t.description}`, t.category]),
      );
    expect(await byAccount()).toEqual({ 'Euro SHOP': 'Big', 'Yen SHOP': 'Big yen' });

    const body = new FormData();
    body.append(
      'file',
      new Blob(['Date,Description,Amount\n2024-03-01,KONBINI,-3200\n2024-03-02,DEPARTO,-3600\n']),
      'yen.csv',
    );
    body.append('account', 'Yen');
    ok(await rest(server.url, 'POST', '/api/upload', { token: user.token, body }));
    expect(await byAccount()).toMatchObject({ 'Yen KONBINI': null, 'Yen DEPARTO': 'Big yen' });
  });
});
