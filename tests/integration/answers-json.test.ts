import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { computeBudgetOverview } from '../../src/shared/budget';
import { envelopeTransactions, summarizeEnvelope } from '../../src/shared/envelopes/envelopes';
import {
  buildMonthlyReport,
  monthOf,
  payeeKey,
  payeeName,
  rankPayees,
  type MonthlyAggregate,
} from '../../src/shared/reports';
import { isCountedTransaction } from '../../src/shared/transactions/counted';
import { withRunningBalance } from '../../src/shared/register/register';
import { TRANSACTION_TYPES, type TransactionDto } from '../../src/shared/schemas/transactions';
import { TRANSACTION_TABLE, withUserScope } from '../../src/server/db/sql';
import { accountRegister } from '../../src/server/modules/accounts/register.service';
import { readsOf } from '../../src/server/db/transaction-reads';
import { data, ok, seedBatch, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { sqliteReader, type SqliteReader } from '../../src/server/db/read-worker/pool';
import { startServer, testDatabase, type TestServer } from '../helpers/server';

/**
 * Answers built where the data is: the search, the budget overview and the register send JSON the
 * database writes, and the overview's figures come from one GROUP BY. Each must be exactly what
 * the row-by-row path answers: the same text for the search (fields, values, order of rows), and
 * for the overview the reference computeBudgetOverview over the same rows,
 * on awkward text and on generated data (both databases: the integration-pg project runs this file too).
 */
let server: TestServer;
let user: ApiUser;

const AWKWARD = [
  'Plain coffee',
  'Quote " and backslash \\ and slash /',
  'Café – ünïcödé 😀 中文',
  'Line\nbreak\tand tab\r',
  'Control \u0001\u001f chars',
  'Separators \u2028\u2029',
  "<script>alert(1)</script> & 'single'",
  '  spaces kept  ',
];

/** The rows as the object path reads them (driver rows through toTransactionDto), newest first. */
async function referenceRows(userId: number, startDate: string, endDate: string): Promise<TransactionDto[]> {
  return withUserScope(
    server.app.orm.em.fork(),
    userId,
    async (em) => (await readsOf(em).page(userId, { startDate, endDate })).rows,
  );
}

async function rawGet(
  path: string,
  token = user.token,
): Promise<{ status: number; text: string; type: string | null }> {
  const res = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'identity' },
  });
  return { status: res.status, text: await res.text(), type: res.headers.get('content-type') };
}

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  const checking = ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking', balance: 12345 }))
    .id as number;
  ok(await user.post('/api/accounts', { name: 'Card "gold"', type: 'credit' }));
  const ids: number[] = [];
  for (const [i, description] of AWKWARD.entries()) {
    const category = i % 3 === 0 ? undefined : i % 3 === 1 ? 'Food & "Drink"' : 'Rent';
    const tx = ok(
      await user.post('/api/transactions', {
        postDate: `2024-03-0${(i % 5) + 1}`,
        description: `d${i}`,
        amount: (i % 2 ? -1 : 1) * (1000 + i),
        account: i % 4 === 0 ? 'Card "gold"' : 'Checking',
        ...(category ? { category } : {}),
      }),
    );
    ids.push(tx.id as number);
    // Stored as is, past the API's own text rules: the database's JSON must escape whatever is there.
    await server.sql(`update ${TRANSACTION_TABLE} set description = ? where id = ?`, [description, tx.id], 'run');
  }
  const first = ids[1];
  ok(
    await user.post(`/api/transactions/${first}/split`, {
      splits: [
        { amount: -600, category: 'Fun' },
        { amount: -401, category: 'Rent', splitNote: 'a "note"\n' },
      ],
    }),
  );
  // A category source left behind by a deleted category says nothing (categorySource null).
  await server.sql(
    `update ${TRANSACTION_TABLE} set category_id = null, category_source = 'user' where id = ?`,
    [ids[2]],
    'run',
  );
  await seedBatch(server.app, user.userId, checking, [ids[3], ids[4]]);
});
afterAll(async () => {
  await server.close();
});

describe('the search built by the database', () => {
  it('answers the same JSON text the row-by-row path wrote', async () => {
    const reference = await referenceRows(user.userId, '2024-01-01', '2024-12-31');
    expect(reference.length).toBe(AWKWARD.length + 2);
    // The awkward cases are all there: split parent and parts, a note, a batch, a source without a category.
    expect(reference.filter((t) => t.isSplit)).toHaveLength(1);
    expect(reference.filter((t) => t.splitNote !== null)).toHaveLength(1);
    expect(reference.filter((t) => t.batchId !== null)).toHaveLength(2);
    expect(reference.filter((t) => t.category === null && t.categorySource === null).length).toBeGreaterThan(0);
    const res = await rawGet('/api/transactions?start_date=2024-01-01&end_date=2024-12-31');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.text)).toEqual(reference);
    expect(res.text).toBe(JSON.stringify(reference));
    expect(data(await user.trpc.transactions.list.query({ startDate: '2024-01-01', endDate: '2024-12-31' }))).toEqual(
      reference,
    );
  });

  it('pages and filters the same way', async () => {
    const reference = await referenceRows(user.userId, '2024-01-01', '2024-12-31');
    const page = await rawGet('/api/transactions?start_date=2024-01-01&end_date=2024-12-31&limit=3&offset=2');
    expect(page.text).toBe(JSON.stringify(reference.slice(2, 5)));
    const beyond = await rawGet('/api/transactions?start_date=2024-01-01&end_date=2024-12-31&limit=3&offset=200');
    expect(beyond.text).toBe('[]');
    const none = await rawGet('/api/transactions?start_date=2025-01-01&end_date=2025-12-31');
    expect(none.text).toBe('[]');
    const food = await rawGet(
      `/api/transactions?start_date=2024-01-01&end_date=2024-12-31&categories=${encodeURIComponent('food & "drink"')}`,
    );
    expect(food.text).toBe(JSON.stringify(reference.filter((t) => t.category === 'Food & "Drink"')));
  });
});

/**
 * GET /api/transactions?`query` answers exactly `rows` (the same text) with `total` in X-Total-Count, and the
 * server's main connection (`execute`, spied on: the ORM's, or on PostgreSQL the driver's `query`) ran `reads`
 * statements on the transaction table for it.
 */
async function expectSearch(
  execute: { mock: { calls: unknown[][] }; mockClear: () => void },
  query: string,
  rows: unknown[],
  total: number,
  reads: number,
) {
  execute.mockClear();
  const res = await fetch(`${server.url}/api/transactions?${query}`, {
    headers: { authorization: `Bearer ${user.token}` },
  });
  expect(res.status).toBe(200);
  expect(await res.text()).toBe(JSON.stringify(rows));
  expect(res.headers.get('x-total-count')).toBe(String(total));
  const text = (sql: unknown) =>
    typeof sql === 'string' ? sql : typeof sql === 'object' && sql !== null && 'text' in sql ? String(sql.text) : '';
  // A statement prepared on the connection (PostgreSQL) counts once per run (its EXECUTE), not when it is prepared.
  const statements = execute.mock.calls.filter(
    ([sql]) =>
      /(^|; )execute /i.test(text(sql)) || (text(sql).includes('"transaction"') && !/^prepare /i.test(text(sql))),
  );
  expect(statements, query).toHaveLength(reads);
}

/** The search's reader threads of a SQLite file. */
function readerOf(file: string): SqliteReader {
  const reader = sqliteReader(file);
  if (!reader) throw new Error(`no reader for ${file}`);
  return reader;
}

describe('the search on SQLite', () => {
  it.runIf(testDatabase === 'sqlite')(
    'reads on a worker thread the same text and totals, and a filter that needs fold() on the main connection',
    async () => {
      const reference = await referenceRows(user.userId, '2024-01-01', '2024-12-31');
      const execute = vi.spyOn(server.app.orm.em.getConnection(), 'execute');
      const reader = readerOf(server.config.databaseFile);
      try {
        const cases = [
          { query: 'start_date=2024-01-01&end_date=2024-12-31', rows: reference, main: 0 },
          { query: 'start_date=2024-01-01&end_date=2024-12-31&limit=3&offset=2', rows: reference.slice(2, 5), main: 0 },
          { query: 'start_date=2024-01-01&end_date=2024-12-31&limit=3&offset=200', rows: [], main: 0 },
          { query: 'start_date=2025-01-01&end_date=2025-12-31', rows: [], total: 0, main: 0 },
          // fold() is registered on the main connection only: the count and the rows are read there.
          {
            query: 'start_date=2024-01-01&end_date=2024-12-31&description=COFFEE',
            rows: reference.filter((t) => /coffee/i.test(t.description)),
            total: 1,
            main: 2,
          },
        ];
        for (const { query, rows, total, main } of cases)
          await expectSearch(execute, query, rows, total ?? reference.length, main);
        expect(reader.running).toBeGreaterThan(0);
      } finally {
        execute.mockRestore();
      }
    },
  );

  it.runIf(testDatabase === 'sqlite')('finds a transaction written just before the search', async () => {
    const other = await signUp(server.url);
    ok(await other.post('/api/accounts', { name: 'Main', type: 'checking' }));
    for (let i = 1; i <= 5; i++) {
      ok(
        await other.post('/api/transactions', {
          postDate: '2024-06-01',
          description: `row ${i}`,
          amount: -i,
          account: 'Main',
        }),
      );
      const found = ok<TransactionDto[]>(
        await other.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'),
      );
      expect(found.map((t) => t.description)).toEqual(Array.from({ length: i }, (_, k) => `row ${i - k}`));
    }
  });

  it.runIf(testDatabase === 'sqlite')(
    'refuses a count over the cap without reading the rows, and answers errors as errors',
    async () => {
      const reader = readerOf(server.config.databaseFile);
      const count = { sql: `select count(*) from ${TRANSACTION_TABLE} where user_id = ?`, params: [user.userId] };
      const rows = {
        sql: `select cast('[' || group_concat(id) || ']' as blob) from ${TRANSACTION_TABLE} where user_id = ?`,
        params: [user.userId],
      };
      const over = await reader.countedJson({ count, rows, max: 1 });
      expect(over).toEqual({ total: AWKWARD.length + 2, json: null });
      const all = await reader.countedJson({ count, rows, max: 1000 });
      expect(JSON.parse(String(all.json))).toHaveLength(AWKWARD.length + 2);
      await expect(
        reader.countedJson({ count: { sql: 'select x from no_such_table', params: [] }, rows, max: 1 }),
      ).rejects.toThrow(/no such table/);
      // The thread is still there for the next read.
      expect((await reader.countedJson({ count, rows, max: 1 })).total).toBe(AWKWARD.length + 2);
    },
  );

  it.runIf(testDatabase === 'sqlite')('stops its reader threads when the app closes', async () => {
    const another = await startServer();
    const someone = await signUp(another.url);
    ok(await someone.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'));
    const reader = readerOf(another.config.databaseFile);
    expect(reader.running).toBe(1);
    await another.close();
    expect(reader.running).toBe(0);
    await expect(
      reader.countedJson({ count: { sql: 'select 1', params: [] }, rows: { sql: 'select 1', params: [] }, max: 1 }),
    ).rejects.toThrow(/closed/);
  });
});

describe('the search on PostgreSQL', () => {
  it.runIf(testDatabase === 'postgresql')(
    'counts and reads the rows in one statement (one round trip), with the same totals',
    async () => {
      const reference = await referenceRows(user.userId, '2024-01-01', '2024-12-31');
      // Every statement of the server's connections, the ORM's and the search's own (a prepared statement).
      const execute = vi.spyOn(pg.Client.prototype, 'query');
      try {
        const cases = [
          { query: 'start_date=2024-01-01&end_date=2024-12-31', rows: reference },
          { query: 'start_date=2024-01-01&end_date=2024-12-31&limit=3&offset=2', rows: reference.slice(2, 5) },
          { query: 'start_date=2024-01-01&end_date=2024-12-31&limit=3&offset=200', rows: [] },
          { query: 'start_date=2025-01-01&end_date=2025-12-31', rows: [], total: 0 },
        ];
        for (const { query, rows, total } of cases) {
          await expectSearch(execute, query, rows, total ?? reference.length, 1);
          // One round trip (besides preparing the statement on a connection the first time): the user's scope and the read.
          const sent = execute.mock.calls
            .map(([sql]) => (typeof sql === 'string' ? sql : ''))
            .filter((sql) => /^(begin|commit|rollback)\b|set_config|execute /i.test(sql));
          expect(sent).toEqual([
            expect.stringMatching(
              new RegExp(
                `^select set_config\\('app\\.user_id', '${user.userId}', true\\), set_config\\('plan_cache_mode', 'force_generic_plan', true\\); execute bt_`,
              ),
            ),
          ]);
        }
      } finally {
        execute.mockRestore();
      }
    },
  );
});

describe('the budget overview built by the database', () => {
  it('answers what the reference computes from the rows', async () => {
    const saved = ok(
      await user.post('/api/budgets/save', {
        name: 'March',
        startDate: '2024-03-01',
        endDate: '2024-03-31',
        lineItems: [
          { name: 'Food', amount: 5000, type: 'Variable', relatedCategories: ['food & "drink"', 'Fun'] },
          { name: 'Home', amount: 9000, type: 'Fixed', relatedCategories: ['RENT'] },
          { name: 'Misc', amount: 100, type: 'NotCounted', relatedCategories: ['Uncategorized'] },
        ],
      }),
    );
    const reference = await referenceRows(user.userId, '2024-03-01', '2024-03-31');
    const expected = {
      budget: saved.budget,
      lineItems: saved.lineItems,
      transactions: reference,
      overview: { ...computeBudgetOverview(reference, saved.lineItems), currency: 'USD', noRate: 0 },
    };
    const res = await rawGet(`/api/budgets/${saved.budget.id}/overview`);
    expect(res.status).toBe(200);
    expect(res.text).toBe(JSON.stringify(expected));
  });

  it('equals the reference on generated data (splits, uncategorised rows, many categories and types), and so do the reports', async () => {
    const other = await signUp(server.url);
    ok(await other.post('/api/accounts', { name: 'Main', type: 'checking' }));
    const categories = ['Groceries', 'groceries ', 'Dining', 'Rent', 'Salary', 'Fun', ''];
    const types = TRANSACTION_TYPES;
    let state = 42;
    const next = (n: number) => (state = (state * 1103515245 + 12345) % 2147483648) % n;
    const parents: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      const category = categories[next(categories.length)] ?? '';
      const amount = (next(2) ? -1 : 1) * (next(50_000) + 2);
      const tx = ok(
        await other.post('/api/transactions', {
          postDate: `2024-0${next(3) + 1}-${String(next(28) + 1).padStart(2, '0')}`,
          description: `Row ${i}`,
          amount,
          account: 'Main',
          type: types[next(types.length)],
          ...(category ? { category } : {}),
        }),
      );
      if (i % 7 === 0) parents.push(tx.id as number);
    }
    for (const id of parents) {
      const parent = ok(await other.get(`/api/transactions/${id}`));
      const half = Math.trunc(parent.amount / 2);
      ok(
        await other.post(`/api/transactions/${id}/split`, {
          splits: [
            { amount: half, category: 'Fun' },
            { amount: parent.amount - half, category: 'Dining' },
          ],
        }),
      );
    }
    const saved = ok(
      await other.post('/api/budgets/save', {
        name: 'Quarter',
        startDate: '2024-01-01',
        endDate: '2024-03-31',
        lineItems: [
          { name: 'Pay', amount: 100, type: 'Income', relatedCategories: ['Salary'] },
          { name: 'Food', amount: 200, type: 'Variable', relatedCategories: ['groceries', 'DINING'] },
          { name: 'Home', amount: 300, type: 'Fixed', relatedCategories: ['rent', 'uncategorized'] },
          { name: 'Empty', amount: 400, type: 'Fixed', relatedCategories: [] },
        ],
      }),
    );
    const reference = await referenceRows(other.userId, '2024-01-01', '2024-03-31');
    expect(reference.filter((t) => t.isSplit).length).toBe(parents.length);
    const overview = ok(await other.get(`/api/budgets/${saved.budget.id}/overview`));
    expect(overview).toEqual({
      budget: saved.budget,
      lineItems: saved.lineItems,
      transactions: reference,
      overview: { ...computeBudgetOverview(reference, saved.lineItems), currency: 'USD', noRate: 0 },
    });
    // The reports' SQL sums equal the shared report functions fed from the same rows.
    const aggregates = new Map<string, MonthlyAggregate>();
    const payees = new Map<string, { count: number; total: number }>();
    for (const tx of reference.filter(isCountedTransaction)) {
      const id = JSON.stringify([monthOf(tx.postDate), tx.category]);
      const agg = aggregates.get(id) ?? { month: monthOf(tx.postDate), category: tx.category, moneyIn: 0, moneyOut: 0 };
      if (tx.amount > 0) agg.moneyIn += tx.amount;
      else agg.moneyOut -= tx.amount;
      aggregates.set(id, agg);
      const payee = payees.get(tx.description) ?? { count: 0, total: 0 };
      payee.count += 1;
      payee.total += tx.amount;
      payees.set(tx.description, payee);
    }
    expect(ok(await other.get('/api/reports/monthly?start_date=2024-01-01&end_date=2024-03-31'))).toEqual(
      buildMonthlyReport('2024-01-01', '2024-03-31', [...aggregates.values()]).map((row) => ({
        ...row,
        currency: 'USD',
        noRate: 0,
      })),
    );
    const ranked = rankPayees(
      [...payees].map(([description, { count, total }]) => ({
        name: payeeName(description),
        key: payeeKey(payeeName(description)),
        count,
        total,
      })),
      5,
    );
    expect(ok(await other.get('/api/reports/payees?start_date=2024-01-01&end_date=2024-03-31&limit=5'))).toEqual(
      ranked.map((payee) => ({ ...payee, currency: 'USD', noRate: 0 })),
    );
    // Another user's rows never enter it.
    expect(
      (await rest(server.url, 'GET', `/api/budgets/${saved.budget.id}/overview`, { token: user.token })).status,
    ).toBe(404);
  });
});

describe('the budget overview of sums past exact integers', () => {
  // SQLite's overview pass sums its groups in JavaScript (PostgreSQL's come from its GROUP BY, and
  // its amount column holds no such rows).
  it.skipIf(testDatabase === 'postgresql')(
    'sums in the database when a running total leaves them, and refuses only a total that does (rows stored before amounts were bounded)',
    async () => {
      const owner = await signUp(server.url);
      ok(await owner.post('/api/accounts', { name: 'Old', type: 'checking' }));
      const ids: number[] = [];
      for (const day of ['03', '02', '01']) {
        ids.push(
          ok(
            await owner.post('/api/transactions', {
              postDate: `2024-05-${day}`,
              description: `old ${day}`,
              amount: 100,
              account: 'Old',
              category: 'Legacy',
            }),
          ).id,
        );
      }
      const big = 5_000_000_000_000_000;
      // Newest first: +big, +big (a running total of 1e16, past 2^53), then -big: the total is big again.
      for (const [id, amount] of [
        [ids[0], big],
        [ids[1], big],
        [ids[2], -big],
      ] as const) {
        await server.sql(`update ${TRANSACTION_TABLE} set amount = ? where id = ?`, [amount, id]);
      }
      const saved = ok(
        await owner.post('/api/budgets/save', {
          name: 'May',
          startDate: '2024-05-01',
          endDate: '2024-05-31',
          lineItems: [{ name: 'Legacy', amount: 100, type: 'Fixed', relatedCategories: ['legacy'] }],
        }),
      );
      const reference = await referenceRows(owner.userId, '2024-05-01', '2024-05-31');
      const expected = {
        budget: saved.budget,
        lineItems: saved.lineItems,
        transactions: reference,
        overview: { ...computeBudgetOverview(reference, saved.lineItems), currency: 'USD', noRate: 0 },
      };
      expect(Math.abs(expected.overview.lineItems[0]?.actual ?? 0)).toBe(big);
      const res = await rawGet(`/api/budgets/${saved.budget.id}/overview`, owner.token);
      expect(res.status).toBe(200);
      expect(res.text).toBe(JSON.stringify(expected));

      await server.sql(`update ${TRANSACTION_TABLE} set amount = ? where id = ?`, [big, ids[2]]);
      const refused = await rawGet(`/api/budgets/${saved.budget.id}/overview`, owner.token);
      expect(refused.status).toBe(422);
      expect(refused.text).toContain('too large to total exactly');
    },
  );
});

describe('the register built by the database', () => {
  it('answers the same text as the running balance walked row by row', async () => {
    const accounts = ok<{ id: number; name: string }[]>(await user.get('/api/accounts'));
    for (const account of accounts) {
      for (const range of [
        {},
        { startDate: '2024-03-02', endDate: '2024-03-04' },
        { startDate: '2024-03-03' },
        { endDate: '2024-03-02' },
        { startDate: '2030-01-01' },
      ]) {
        const { rows: reference } = await withUserScope(server.app.orm.em.fork(), user.userId, (em) =>
          accountRegister(em, user.userId, account.id, range),
        );
        // The database's running balances are the walk row by row from the newest row's balance.
        const walked = withRunningBalance(reference, reference[0]?.runningBalance ?? 0);
        expect(reference.map((r) => r.runningBalance)).toEqual(walked.map((r) => r.runningBalance));
        const query = new URLSearchParams({
          ...(range.startDate ? { start_date: range.startDate } : {}),
          ...(range.endDate ? { end_date: range.endDate } : {}),
        });
        const res = await rawGet(`/api/accounts/${account.id}/register?${query.toString()}`);
        expect(res.status).toBe(200);
        expect(res.text).toBe(JSON.stringify(reference));
      }
    }
    const checking = ok<{ id: number; name: string; balance: number }[]>(await user.get('/api/accounts')).find(
      (a) => a.name === 'Checking',
    );
    const whole = ok<{ isSplit: boolean; runningBalance: number }[]>(
      await user.get(`/api/accounts/${checking?.id}/register`),
    );
    expect(whole.some((row) => row.isSplit)).toBe(true);
    // The newest row's balance is the account's: its opening balance plus its counted rows.
    expect(whole[0]?.runningBalance).toBe(checking?.balance);
    expect(checking?.balance).not.toBe(12345);
  });
});

describe('rows with a transfer link, a memo, an original amount', () => {
  it('are written by the database as the row-by-row path answers them: search, register and overview', async () => {
    const owner = await signUp(server.url);
    ok(await owner.post('/api/accounts', { name: 'Main', type: 'checking' }));
    ok(await owner.post('/api/accounts', { name: 'Card', type: 'credit' }));
    ok(await owner.post('/api/accounts', { name: 'Nest "egg"', type: 'savings', onBudget: false }));
    ok(await owner.post('/api/transfers', { fromAccount: 'Main', toAccount: 'Card', amount: 700, date: '2025-02-03' }));
    ok(
      await owner.post('/api/transfers', {
        fromAccount: 'Main',
        toAccount: 'Nest "egg"',
        amount: 2500,
        date: '2025-02-04',
        toDate: '2025-02-06',
      }),
    );
    const hotel = ok<TransactionDto>(
      await owner.post('/api/transactions', {
        postDate: '2025-02-04',
        description: 'Hotel',
        amount: -12345,
        originalAmount: -20000,
        originalCurrency: 'JPY',
        account: 'Card',
        category: 'Travel',
      }),
    );
    ok(
      await owner.put(`/api/transactions/${hotel.id}`, {
        memo: 'Quote " and backslash \\ and café 😀',
        cleared: 'reconciled',
      }),
    );
    ok(
      await owner.post('/api/transactions', {
        postDate: '2025-02-05',
        description: 'Plain',
        amount: 99,
        account: 'Main',
      }),
    );
    const range = { startDate: '2025-02-01', endDate: '2025-02-28' };
    const reference = await referenceRows(owner.userId, range.startDate, range.endDate);
    // Every kind of row is there: both sides of a transfer within the plan and across it, and the rest.
    expect(reference.filter((t) => t.transferId !== null)).toHaveLength(4);
    expect(reference.filter((t) => t.transferCounterpartOnBudget)).toHaveLength(3);
    expect(reference.filter((t) => !t.accountOnBudget)).toHaveLength(1);
    expect(
      reference.filter((t) => t.memo !== null && t.originalAmount !== null && t.cleared === 'reconciled'),
    ).toHaveLength(1);
    const search = await rawGet('/api/transactions?start_date=2025-02-01&end_date=2025-02-28', owner.token);
    expect(search.text).toBe(JSON.stringify(reference));
    const paged = await rawGet(
      '/api/transactions?start_date=2025-02-01&end_date=2025-02-28&limit=2&offset=1',
      owner.token,
    );
    expect(paged.text).toBe(JSON.stringify(reference.slice(1, 3)));
    for (const account of ok<{ id: number }[]>(await owner.get('/api/accounts'))) {
      const { rows } = await withUserScope(server.app.orm.em.fork(), owner.userId, (em) =>
        accountRegister(em, owner.userId, account.id, {}),
      );
      expect(rows.some((row) => row.transferId !== null)).toBe(true);
      expect((await rawGet(`/api/accounts/${account.id}/register`, owner.token)).text).toBe(JSON.stringify(rows));
    }
    const saved = ok(
      await owner.post('/api/budgets/save', {
        name: 'February',
        ...range,
        lineItems: [{ name: 'Trips', amount: 5000, type: 'Variable', relatedCategories: ['Travel'] }],
      }),
    );
    const overview = JSON.parse((await rawGet(`/api/budgets/${saved.budget.id}/overview`, owner.token)).text) as {
      transactions: TransactionDto[];
    };
    expect(JSON.stringify(overview.transactions)).toBe(JSON.stringify(reference));
  });
});

describe('at scale', () => {
  it('keeps the order of thousands of rows written in shuffled date order, in the search and the overview', async () => {
    const big = await signUp(server.url);
    const account = ok(await big.post('/api/accounts', { name: 'Main', type: 'checking' })).id as number;
    const categoryIds: number[] = [];
    for (const name of ['Food', 'Rent', 'Fun']) {
      const tx = ok(
        await big.post('/api/transactions', {
          postDate: '2023-12-31',
          description: 'seed',
          amount: -1,
          account: 'Main',
          category: name,
        }),
      );
      categoryIds.push(
        Number(
          (
            await server.sql<{ category_id: number }>(`select category_id from ${TRANSACTION_TABLE} where id = ?`, [
              tx.id,
            ])
          )[0]?.category_id,
        ),
      );
    }
    let state = 7;
    const next = (n: number) => (state = (state * 1103515245 + 12345) % 2147483648) % n;
    const now = new Date().toISOString();
    for (let chunk = 0; chunk < 6; chunk += 1) {
      const values: unknown[] = [];
      for (let i = 0; i < 500; i += 1) {
        const category = next(4);
        values.push(
          big.userId,
          account,
          category === 3 ? null : categoryIds[category],
          `2024-0${next(9) + 1}-${String(next(28) + 1).padStart(2, '0')}`,
          `Row ${chunk}-${i}`,
          next(20_000) - 10_000,
          next(2) ? 'debit' : 'credit',
          now,
        );
      }
      await server.sql(
        `insert into ${TRANSACTION_TABLE} (user_id, account_id, category_id, post_date, description, amount, type, is_split, created_at) values ${Array.from({ length: 500 }, () => '(?, ?, ?, ?, ?, ?, ?, false, ?)').join(', ')}`,
        values,
        'run',
      );
    }
    const reference = await referenceRows(big.userId, '2024-01-01', '2024-12-31');
    expect(reference).toHaveLength(3000);
    const res = await rawGet('/api/transactions?start_date=2024-01-01&end_date=2024-12-31', big.token);
    expect(res.text).toBe(JSON.stringify(reference));
    const saved = ok(
      await big.post('/api/budgets/save', {
        name: '2024',
        startDate: '2024-01-01',
        endDate: '2024-12-31',
        lineItems: [
          { name: 'Living', amount: 1, type: 'Variable', relatedCategories: ['food', 'fun'] },
          { name: 'Home', amount: 2, type: 'Fixed', relatedCategories: ['rent'] },
        ],
      }),
    );
    const overview = await rawGet(`/api/budgets/${saved.budget.id}/overview`, big.token);
    expect(overview.text).toBe(
      JSON.stringify({
        budget: saved.budget,
        lineItems: saved.lineItems,
        transactions: reference,
        overview: { ...computeBudgetOverview(reference, saved.lineItems), currency: 'USD', noRate: 0 },
      }),
    );
    const register = await rawGet(`/api/accounts/${account}/register?start_date=2024-01-01`, big.token);
    expect(register.text).toBe(
      JSON.stringify(
        (
          await withUserScope(server.app.orm.em.fork(), big.userId, (em) =>
            accountRegister(em, big.userId, account, { startDate: '2024-01-01' }),
          )
        ).rows,
      ),
    );
  });
});

describe('envelopes built by the database', () => {
  it('answer over REST and tRPC what the shared membership rule selects from the rows, totals from SQL sums', async () => {
    const made = [
      { name: 'Eating', categories: ['FOOD & "drink"', 'fun'], color: '#ff0000', isActive: true },
      {
        name: 'Loose ends',
        categories: ['Uncategorized', 'Nothing yet'],
        color: '#00ff00',
        isActive: false,
        description: 'A "quoted"\nnote',
      },
      { name: 'Empty', categories: ['Nothing yet'], color: '#0000ff', isActive: true },
    ];
    for (const body of made) ok(await user.post('/api/envelopes', body));
    const all = await referenceRows(user.userId, '0000-01-01', '9999-12-31');
    for (const range of [{}, { startDate: '2024-03-02' }, { startDate: '2024-03-02', endDate: '2024-03-03' }]) {
      const query = new URLSearchParams({
        ...(range.startDate ? { start_date: range.startDate } : {}),
        ...(range.endDate ? { end_date: range.endDate } : {}),
      });
      const res = await rawGet(`/api/envelopes?${query.toString()}`);
      expect(res.status).toBe(200);
      const answer = JSON.parse(res.text) as {
        id: number;
        name: string;
        description: string | null;
        categories: string[];
        color: string;
        isActive: boolean;
      }[];
      const expected = answer.map(({ id, name, description, categories, color, isActive }) => {
        const transactions = envelopeTransactions(all, categories, range);
        return {
          id,
          name,
          description,
          categories,
          color,
          isActive,
          transactions,
          ...summarizeEnvelope(transactions),
          currency: 'USD',
          noRate: 0,
        };
      });
      expect(answer.map((e) => e.name)).toEqual(['Eating', 'Empty', 'Loose ends']);
      expect(res.text).toBe(JSON.stringify(expected));
      expect(data(await user.trpc.envelopes.list.query(range))).toEqual(expected);
    }
    expect(JSON.parse((await rawGet('/api/envelopes')).text)[0].transactionCount).toBeGreaterThan(1);
  });
});
