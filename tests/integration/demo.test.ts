import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app';
import { loadConfig, type AppConfig } from '../../src/server/config/config';
import { DemoUserExistsError, runDemo, type DemoSummary } from '../../src/server/demo/run-demo';
import type { BudgetOverview } from '../../src/shared/budget/overview';
import type { AuthResult } from '../../src/shared/schemas/auth';
import type { BudgetDto, LineItemDto } from '../../src/shared/schemas/budgets';
import { ENVELOPE_COLORS, type EnvelopeDto } from '../../src/shared/schemas/envelopes';
import type { BatchDto, SplitDetails, TransactionDto } from '../../src/shared/schemas/transactions';
import { ok } from '../helpers/api';
import { registerUser, rest } from '../helpers/http';
import { TEST_PASSWORD_HASH_COST } from '../helpers/password-cost';

/**
 * `npm run demo` against a temporary data folder while the server runs on the same SQLite file
 * (WAL), with ALLOW_REGISTRATION=false and a first user already there. Everything is checked
 * over the server's HTTP API, as the newcomer's browser would see it.
 */
const TODAY = '2025-06-18';

let dataDir: string;
let config: AppConfig;
let app: FastifyInstance | undefined;
let url: string;
let summary: DemoSummary;
let token: string;

const get = <T = any>(p: string) => rest<T>(url, 'GET', p, { token }).then(ok);
const allTransactions = (t = token) =>
  rest<TransactionDto[]>(url, 'GET', '/api/transactions?start_date=1900-01-01&end_date=9999-12-31', { token: t }).then(
    ok,
  );

/** Rows of every table of the database file (read through a separate read-only handle). */
function tableCounts(): Record<string, number> {
  const db = new Database(config.databaseFile, { readonly: true, fileMustExist: true });
  try {
    const tables = db
      .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
      .all() as { name: string }[];
    return Object.fromEntries(
      tables.map(({ name }) => [name, (db.prepare(`select count(*) as n from "${name}"`).get() as { n: number }).n]),
    );
  } finally {
    db.close();
  }
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-demo-'));
  config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
    ALLOW_REGISTRATION: 'false',
    PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
  });
  app = await buildApp(config, { logger: false });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no TCP port');
  url = `http://127.0.0.1:${address.port}`;
  await registerUser(url, 'alice'); // the first user; registration is closed after this one
  summary = await runDemo({ config, today: TODAY });
  const login = await rest<AuthResult>(url, 'POST', '/api/auth/login', {
    body: { username: 'demo', password: 'demo-password' },
  });
  expect(login.status).toBe(200);
  token = login.body.accessToken;
});

afterAll(async () => {
  await app?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

describe('npm run demo', () => {
  it('creates the user even though public registration is closed, and leaves the other user alone', async () => {
    const closed = await rest(url, 'POST', '/api/auth/register', {
      body: { username: 'mallory', password: 'long enough password' },
    });
    expect(closed.status).toBe(403);
    expect(summary).toMatchObject({
      username: 'demo',
      password: 'demo-password',
      from: '2024-07-01',
      to: TODAY,
      accounts: 3,
      budgets: 2,
      envelopes: 6,
      inactiveEnvelopes: 1,
    });
    const alice = await rest<AuthResult>(url, 'POST', '/api/auth/login', {
      body: { username: 'alice', password: 'correct horse battery' },
    });
    expect(await allTransactions(alice.body.accessToken)).toEqual([]);
    expect(ok(await rest(url, 'GET', '/api/accounts', { token: alice.body.accessToken }))).toEqual([]);
  });

  it('has three accounts, 20+ categories and a few thousand transactions in the last 12 months, in several batches', async () => {
    const accounts = await get<{ name: string; type: string }[]>('/api/accounts');
    expect(accounts.map((a) => a.type).sort()).toEqual(['checking', 'credit', 'savings']);
    const categories = await get<{ name: string }[]>('/api/categories');
    expect(categories.length).toBeGreaterThanOrEqual(20);
    expect(categories.length).toBeLessThanOrEqual(35);
    expect(categories).toHaveLength(summary.categories);

    const transactions = await allTransactions();
    expect(transactions.length).toBe(summary.transactions);
    expect(transactions.length).toBeGreaterThanOrEqual(2000);
    expect(transactions.length).toBeLessThan(5000);
    const dates = transactions.map((t) => t.postDate).sort();
    expect(dates[0].slice(0, 7)).toBe('2024-07');
    expect(dates.at(-1)! <= TODAY).toBe(true);
    expect(dates.at(-1)!.slice(0, 7)).toBe('2025-06');
    expect(
      transactions.every((t) => /^\d{4}-\d{2}-\d{2}$/.test(t.postDate) && Number.isInteger(t.amount) && t.amount !== 0),
    ).toBe(true);
    // Every category is in use, and the household's regular life shows every month.
    const used = new Set(transactions.map((t) => t.category));
    expect(categories.filter((c) => !used.has(c.name))).toEqual([]);
    const months = (category: string) =>
      new Set(transactions.filter((t) => t.category === category).map((t) => t.postDate.slice(0, 7))).size;
    for (const category of [
      'Salary',
      'Rent',
      'Groceries',
      'Electricity',
      'Internet',
      'Streaming',
      'Dining Out',
      'Coffee',
    ])
      expect(months(category), category).toBe(12);
    expect(transactions.some((t) => t.category === 'Travel')).toBe(true);
    expect(transactions.filter((t) => t.category === 'Rent').every((t) => t.amount < 0 && t.type === 'debit')).toBe(
      true,
    );
    expect(transactions.filter((t) => t.category === 'Salary').every((t) => t.amount > 0 && t.type === 'credit')).toBe(
      true,
    );
    expect(new Set(transactions.map((t) => t.account))).toEqual(new Set(accounts.map((a) => a.name)));
    expect(new Set(transactions.map((t) => t.type))).toEqual(new Set(['credit', 'debit', 'charge', 'transfer']));

    const batches = await get<BatchDto[]>('/api/transactions/batches/list');
    expect(batches.length).toBeGreaterThanOrEqual(3);
    expect(batches).toHaveLength(summary.batches);
    expect(new Set(batches.map((b) => b.account)).size).toBe(3);
    expect(batches.every((b) => b.fileName?.endsWith('.csv') && b.transactionCount > 0)).toBe(true);
    // Every imported row belongs to a batch; only split parts were made afterwards.
    expect(batches.reduce((sum, b) => sum + b.transactionCount, 0)).toBe(summary.imported);
    expect(transactions.filter((t) => t.batchId === null)).toEqual([]);
  });

  it('has split parents whose parts sum to them', async () => {
    const transactions = await allTransactions();
    const parents = transactions.filter((t) => t.isSplit);
    expect(parents.length).toBeGreaterThanOrEqual(3);
    for (const parent of parents) {
      const split = await get<SplitDetails>(`/api/transactions/${parent.id}/splits`);
      expect(split.childTransactions.length).toBeGreaterThanOrEqual(2);
      expect(split.childTransactions.reduce((sum, c) => sum + c.amount, 0)).toBe(parent.amount);
      expect(new Set(split.childTransactions.map((c) => c.category)).size).toBe(split.childTransactions.length);
    }
    expect(transactions.filter((t) => t.parentTransactionId !== null)).toHaveLength(summary.splitParts);
  });

  it('has a monthly and a yearly budget with every line item type and a live overview', async () => {
    const budgets = await get<BudgetDto[]>('/api/budgets');
    expect(budgets.map((b) => [b.startDate, b.endDate]).sort()).toEqual([
      ['2024-07-01', '2025-06-30'],
      ['2025-06-01', '2025-06-30'],
    ]);
    const categoryNames = new Set((await get<{ name: string }[]>('/api/categories')).map((c) => c.name));
    for (const budget of budgets) {
      const items = await get<LineItemDto[]>(`/api/line-items/${budget.id}`);
      expect(new Set(items.map((i) => i.type))).toEqual(new Set(['Income', 'Fixed', 'Variable', 'NotCounted']));
      for (const item of items) for (const name of item.relatedCategories) expect(categoryNames.has(name)).toBe(true);

      const rest = await get<{ overview: BudgetOverview }>(`/api/budgets/${budget.id}/overview`);
      const { actual, budgeted, untracked } = rest.overview;
      expect(actual.income).toBeGreaterThan(0);
      expect(actual.fixed).toBeGreaterThan(0);
      expect(actual.variable).toBeGreaterThan(0);
      expect(budgeted.income).toBeGreaterThan(0);
      expect(budgeted.fixed + budgeted.variable).toBeGreaterThan(0);
      expect(untracked.transactionCount).toBeGreaterThan(0);
    }
    const year = budgets.find((b) => b.startDate === '2024-07-01')!;
    const overview = (await get(`/api/budgets/${year.id}/overview`)).overview;
    // Over the year every line item has its transactions, and the plan is close to what happened.
    // Card payments and savings moves are linked transfers between the demo's accounts: they count nowhere.
    for (const item of overview.lineItems.filter(
      (line: { name: string }) => line.name !== 'Transfers & card payments',
    )) {
      expect(item.transactionCount, item.name).toBeGreaterThan(0);
      if (item.type !== 'NotCounted')
        expect(Math.abs(item.actual - item.budgeted), item.name).toBeLessThan(
          Math.max(item.budgeted, item.actual) * 0.3,
        );
    }
    expect(overview.actual.net).toBeGreaterThan(0); // the household ends the year in the black
    expect(overview.splits.parentCount).toBe(summary.splitParents);
  });

  it('has envelopes in several colours, exactly one inactive', async () => {
    const envelopes = await get<EnvelopeDto[]>('/api/envelopes');
    expect(envelopes.length).toBeGreaterThanOrEqual(4);
    expect(envelopes.length).toBeLessThanOrEqual(6);
    expect(envelopes.filter((e) => !e.isActive)).toHaveLength(1);
    const palette = new Set<string>(ENVELOPE_COLORS.map((c) => c.value));
    expect(envelopes.every((e) => palette.has(e.color))).toBe(true);
    expect(new Set(envelopes.map((e) => e.color)).size).toBe(envelopes.length);
    expect(envelopes.every((e) => e.transactionCount > 0)).toBe(true);
  });

  it('refuses an existing username regardless of case and changes nothing', async () => {
    const before = tableCounts();
    expect(before.transaction).toBe(summary.transactions);
    await expect(runDemo({ config, username: 'DEMO', today: TODAY })).rejects.toThrow(DemoUserExistsError);
    await expect(runDemo({ config, today: TODAY })).rejects.toThrow("A user named 'demo' already exists");
    expect(tableCounts()).toEqual(before);
    const login = await rest(url, 'POST', '/api/auth/login', { body: { username: 'demo', password: 'demo-password' } });
    expect(login.status).toBe(200);
  });

  it('removes a half-made user again when a step fails', async () => {
    const before = tableCounts();
    // An upload limit below the first CSV makes the first import fail after accounts and categories exist.
    await expect(
      runDemo({ config: { ...config, uploadLimitBytes: 1024 }, username: 'demo-broken', today: TODAY }),
    ).rejects.toThrow('413');
    // The registration attempt stays counted against the address (auth_failure), as every registration is.
    const { auth_failure: _attempts, ...after } = tableCounts();
    const { auth_failure: _before, ...expected } = before;
    expect(after).toEqual(expected);
    const login = await rest(url, 'POST', '/api/auth/login', {
      body: { username: 'demo-broken', password: 'demo-password' },
    });
    expect(login.status).toBe(401);
  });

  it('is deterministic given the date', async () => {
    const twin = await runDemo({ config, username: 'demo-twin', password: 'another password', today: TODAY });
    expect({ ...twin, username: 'demo', password: 'demo-password', userId: summary.userId, elapsedMs: 0 }).toEqual({
      ...summary,
      elapsedMs: 0,
    });
    const login = await rest<AuthResult>(url, 'POST', '/api/auth/login', {
      body: { username: 'demo-twin', password: 'another password' },
    });
    const shape = (rows: TransactionDto[]) =>
      rows
        .map((t) =>
          [
            t.postDate,
            t.description,
            t.amount,
            t.category,
            t.type,
            t.account,
            t.isSplit,
            t.parentTransactionId !== null,
          ].join('|'),
        )
        .sort();
    expect(shape(await allTransactions(login.body.accessToken))).toEqual(shape(await allTransactions()));
  });
});
