/**
 * `npm run fixture:upgrade -- <release>` writes tests/fixtures/upgrade/<release>.sqlite, a database
 * made by THIS release (demo data plus extra splits, budgets, envelopes and a second user), and
 * <release>.json beside it: the figures tests/integration/upgrade.test.ts must find again after
 * later releases' migrations ran on a copy. Run it once per release, before changing entities,
 * and commit both files (see "Fixtures" in docs/testing.md).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app';
import { loadConfig } from '../src/server/config/config';
import { runDemo } from '../src/server/demo/run-demo';
import { collectFigures, type UserFigures } from '../tests/helpers/upgrade-figures';

const release = process.argv[2];
if (!release || !/^[\w.-]+$/.test(release)) {
  console.error('Usage: npm run fixture:upgrade -- <release>   (e.g. v0.1.0-441eb6b)');
  process.exit(2);
}
const TODAY = '2026-03-31';
const out = path.resolve('tests/fixtures/upgrade');
const dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-upgrade-'));
const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
const users = [
  { username: 'demo', password: 'demo-password' },
  { username: 'other', password: 'other-password' },
];

async function call<T = any>(
  app: FastifyInstance,
  method: string,
  url: string,
  token?: string,
  body?: unknown,
): Promise<T> {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    payload: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return (res.body ? res.json() : undefined) as T;
}

async function extrasForDemo(app: FastifyInstance, token: string): Promise<void> {
  const post = (url: string, body: unknown) => call(app, 'POST', url, token, body);
  await post('/api/accounts', { name: 'Cash Wallet', type: 'cash', balance: 12_345 });
  const cash = await post('/api/transactions', {
    postDate: '2026-03-02',
    description: 'Farmers market',
    amount: -4_250,
    account: 'Cash Wallet',
    category: 'Groceries',
  });
  await post(`/api/transactions/${cash.id}/split`, {
    splits: [
      { amount: -2_000, category: 'Groceries', splitNote: 'vegetables' },
      { amount: -1_250, category: 'Café Crème', description: 'Coffee beans' },
      { amount: -1_000, category: 'Gifts', splitNote: 'flowers' },
    ],
  });
  await post('/api/transactions', { postDate: '2026-03-15', description: 'Found in a coat', amount: 2_000 });
  await post('/api/transactions', {
    postDate: '2026-02-28',
    description: 'Vet – Überweisung',
    amount: -9_999,
    account: 'Cash Wallet',
    category: 'Pets',
  });
  await post('/api/budgets/save', {
    name: 'First quarter',
    startDate: '2026-01-01',
    endDate: '2026-03-31',
    lineItems: [
      { name: 'Pay', amount: 1_500_000, type: 'Income', relatedCategories: ['Salary'] },
      { name: 'Food', amount: 240_000, type: 'Variable', relatedCategories: ['Groceries', 'café crème'] },
      { name: 'Treats', amount: 30_000, type: 'Variable', relatedCategories: ['Dining Out'] },
      { name: 'Loose change', amount: 0, type: 'NotCounted', relatedCategories: ['uncategorized'] },
    ],
  });
  await post('/api/envelopes', {
    name: 'Odds and ends',
    categories: ['Uncategorized', 'Café Crème'],
    color: '#795548',
  });
}

async function otherUser(app: FastifyInstance, token: string): Promise<void> {
  const post = (url: string, body: unknown) => call(app, 'POST', url, token, body);
  await post('/api/accounts', { name: 'Everyday Checking', type: 'checking', balance: -5_000 });
  await post('/api/transactions', {
    postDate: '2026-01-05',
    description: 'Salary',
    amount: 300_000,
    account: 'Everyday Checking',
    category: 'Salary',
  });
  const rent = await post('/api/transactions', {
    postDate: '2026-01-06',
    description: 'Rent and parking',
    amount: -150_000,
    account: 'Everyday Checking',
    category: 'Rent',
  });
  await post(`/api/transactions/${rent.id}/split`, {
    splits: [
      { amount: -140_000, category: 'Rent' },
      { amount: -10_000, category: 'Parking' },
    ],
  });
  await post('/api/budgets/save', {
    name: 'January',
    startDate: '2026-01-01',
    endDate: '2026-01-31',
    lineItems: [
      { name: 'Income', amount: 300_000, type: 'Income', relatedCategories: ['Salary'] },
      { name: 'Home', amount: 150_000, type: 'Fixed', relatedCategories: ['Rent', 'Parking'] },
    ],
  });
  await post('/api/envelopes', { name: 'Car', categories: ['Parking'], isActive: false });
}

try {
  const summary = await runDemo({ config, today: TODAY, intensity: 1 });
  console.log(`demo: ${summary.transactions} transactions`);
  const app = await buildApp(config, { logger: false });
  const figures: UserFigures[] = [];
  try {
    const demo = await call(app, 'POST', '/api/auth/login', undefined, users[0]);
    await extrasForDemo(app, demo.accessToken);
    const other = await call(app, 'POST', '/api/auth/register', undefined, users[1]);
    await otherUser(app, other.accessToken);
    for (const [user, token] of [
      [users[0], demo.accessToken],
      [users[1], other.accessToken],
    ] as const) {
      figures.push(await collectFigures(user.username, (url) => call(app, 'GET', url, token)));
    }
  } finally {
    await app.close();
  }
  // One self-contained file: no WAL beside it, no free pages.
  const db = new Database(config.databaseFile);
  db.pragma('journal_mode = DELETE');
  db.exec('vacuum');
  const migrations = db.prepare('select name from mikro_orm_migrations order by id').all() as { name: string }[];
  db.close();
  const target = path.join(out, `${release}.sqlite`);
  rmSync(target, { force: true });
  const copy = new Database(config.databaseFile, { readonly: true });
  await copy.backup(target);
  copy.close();
  writeFileSync(
    path.join(out, `${release}.json`),
    `${JSON.stringify({ release, madeOn: TODAY, migrations: migrations.map((m) => m.name), users, figures }, null, 1)}\n`,
  );
  console.log(`wrote ${target} and ${release}.json`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
