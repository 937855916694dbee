import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { domainRoutes } from '../../src/server/http/domain-routes';
import { appRouter } from '../../src/server/trpc/router';
import { data, ok, seedBatch, signUp, type ApiUser } from '../helpers/api';
import { trpc } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Walks every REST route and tRPC procedure as a second user aimed at the first
 * user's rows: each must answer 404 (or only the caller's own data) and change nothing.
 * A route or procedure added without an entry here fails this test.
 */
let server: TestServer;
let owner: ApiUser;
let intruder: ApiUser;
const ids = {
  account: 0,
  tx: 0,
  parent: 0,
  child: 0,
  batch: '',
  budget: 0,
  lineItem: 0,
  envelope: 0,
  rule: 0,
  schedule: 0,
  category: 0,
  otherCategory: 0,
  entry: 0,
  trashed: 0,
  transfer: 0,
  offeredOut: 0,
  offeredIn: 0,
  candidate: 0,
};

async function snapshot(): Promise<string> {
  const tables = [
    'transaction',
    'account',
    'category',
    'batch',
    'budget',
    'line_item',
    'envelope',
    'import_profile',
    'rule',
    'schedule',
    'schedule_occurrence',
    'plan_assigned',
    'plan_move',
    'plan_hold',
    'history_entry',
    'history_row',
    'trashed_transaction',
    'transfer',
    'transfer_candidate',
    'sign_in',
  ];
  const parts: unknown[] = [];
  for (const table of tables)
    parts.push(await server.sql(`select * from "${table}" where user_id = ? order by 1`, [owner.userId]));
  return JSON.stringify(parts);
}

beforeAll(async () => {
  server = await startServer();
  owner = await signUp(server.url);
  intruder = await signUp(server.url);
  ids.account = ok(await owner.post('/api/accounts', { name: 'SECRET-A', type: 'checking' })).id;
  ok(await intruder.post('/api/accounts', { name: 'Mine', type: 'checking' }));
  ids.tx = ok(
    await owner.post('/api/transactions', {
      postDate: '2024-01-01',
      description: 'SECRET plain',
      amount: -100,
      account: 'SECRET-A',
      category: 'SECRET-cat',
    }),
  ).id;
  ids.parent = ok(
    await owner.post('/api/transactions', {
      postDate: '2024-01-02',
      description: 'SECRET parent',
      amount: -1000,
      account: 'SECRET-A',
    }),
  ).id;
  const split = ok(
    await owner.post(`/api/transactions/${ids.parent}/split`, {
      splits: [
        { amount: -400, category: 'SECRET-x' },
        { amount: -600, category: 'SECRET-y' },
      ],
    }),
  );
  ids.child = split.childTransactions[0].id;
  ids.batch = await seedBatch(server.app, owner.userId, ids.account, [ids.tx]);
  ok(
    await owner.put(`/api/accounts/${ids.account}/import-profile`, {
      mapping: { header: true, date: 0, description: [1], amount: 2 },
      columnCount: 3,
      headers: ['SECRET-h', 'b', 'c'],
    }),
  );
  ids.budget = ok(
    await owner.post('/api/budgets', { name: 'SECRET budget', startDate: '2024-01-01', endDate: '2024-12-31' }),
  ).id;
  ids.lineItem = ok(await owner.post('/api/line-items', { budgetId: ids.budget, name: 'SECRET item', amount: 1 })).id;
  ids.envelope = ok(await owner.post('/api/envelopes', { name: 'SECRET env', categories: ['SECRET-cat'] })).id;
  ids.rule = ok(
    await owner.post('/api/rules', {
      name: 'SECRET rule',
      conditions: [{ field: 'description', op: 'contains', value: 'secret' }],
      actions: { category: 'SECRET-cat' },
    }),
  ).id;
  const ownerCategories = ok<{ id: number; name: string }[]>(await owner.get('/api/categories'));
  ids.category = ownerCategories.find((category) => category.name === 'SECRET-cat')?.id ?? 0;
  ids.otherCategory = ownerCategories.find((category) => category.name === 'SECRET-x')?.id ?? 0;
  ok(await owner.put('/api/plan/2024-01/assigned', { category: ids.category, amount: 500 }));
  ok(await owner.post('/api/plan/2024-01/move', { from: ids.category, to: ids.otherCategory, amount: 100 }));
  ids.schedule = ok(
    await owner.post('/api/schedules', {
      name: 'SECRET schedule',
      account: 'SECRET-A',
      description: 'SECRET plain',
      amount: -100,
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1',
      mode: 'expect',
      startDate: '2024-01-01',
    }),
  ).id;
  ok(await owner.post('/api/accounts', { name: 'SECRET-B', type: 'savings' }));
  ids.transfer = ok(
    await owner.post('/api/transfers', {
      fromAccount: 'SECRET-A',
      toAccount: 'SECRET-B',
      amount: 700,
      date: '2023-05-01',
    }),
  ).transferId;
  const offered = async (account: string, amount: number) =>
    ok(await owner.post('/api/transactions', { postDate: '2023-06-01', description: 'SECRET plain', amount, account }))
      .id as number;
  ids.offeredOut = await offered('SECRET-A', -900);
  ids.offeredIn = await offered('SECRET-B', 900);
  await server.sql(
    `insert into transfer_candidate (created_at, user_id, first_id, second_id, score, reason, status) values (?, ?, ?, ?, 50, 'SECRET reason', 'open')`,
    [new Date().toISOString(), owner.userId, ids.offeredOut, ids.offeredIn],
  );
  [{ id: ids.candidate }] = await server.sql<{ id: number }>('select id from transfer_candidate where user_id = ?', [
    owner.userId,
  ]);
});
afterAll(async () => {
  await server.close();
});

beforeAll(async () => {
  ids.trashed = ok(
    await owner.post('/api/transactions', {
      postDate: '2024-01-03',
      description: 'SECRET gone',
      amount: -5,
      account: 'SECRET-A',
    }),
  ).id;
  ok(await owner.del(`/api/transactions/${ids.trashed}`));
  ids.entry = await ownerEntry();
});

type Expect = 404 | 409 | 'own';

/** The sign-in an access token belongs to (its `sid` claim). */
function signInOf(token: string): string {
  return (JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()) as { sid: string }).sid;
}

/** The owner's latest history entry (its first transaction's creation, at least). */
async function ownerEntry(): Promise<number> {
  return ok(await owner.get<{ entries: { id: number }[] }>('/api/history?limit=1')).entries[0].id;
}
interface Attempt {
  path: () => string;
  body?: () => unknown;
  expect: Expect;
}

const txBody = { postDate: '2024-01-01', description: 'x', amount: -1 };
const restAttempts: Record<string, Attempt> = {
  'GET /transactions': { path: () => '/api/transactions?start_date=2000-01-01&end_date=2100-01-01', expect: 'own' },
  'POST /transactions': {
    path: () => '/api/transactions',
    body: () => ({ ...txBody, account: 'SECRET-A' }),
    expect: 404,
  },
  'PUT /transactions/bulk': {
    path: () => '/api/transactions/bulk',
    body: () => ({ transactionIds: [ids.tx], updates: { category: 'hacked' } }),
    expect: 404,
  },
  'POST /transactions/fix-split-status': { path: () => '/api/transactions/fix-split-status', expect: 'own' },
  'GET /transactions/batches/list': { path: () => '/api/transactions/batches/list', expect: 'own' },
  'GET /transactions/batches/:batchId/transactions': {
    path: () => `/api/transactions/batches/${ids.batch}/transactions`,
    expect: 404,
  },
  'DELETE /transactions/batches/:batchId': { path: () => `/api/transactions/batches/${ids.batch}`, expect: 404 },
  'GET /transactions/:id': { path: () => `/api/transactions/${ids.tx}`, expect: 404 },
  'PUT /transactions/:id': {
    path: () => `/api/transactions/${ids.tx}`,
    body: () => ({ description: 'hacked' }),
    expect: 404,
  },
  'DELETE /transactions/:id': { path: () => `/api/transactions/${ids.child}`, expect: 404 },
  'POST /transactions/:id/split': {
    path: () => `/api/transactions/${ids.parent}/split`,
    body: () => ({
      splits: [
        { amount: -500, category: 'a' },
        { amount: -500, category: 'b' },
      ],
    }),
    expect: 404,
  },
  'GET /transactions/:id/splits': { path: () => `/api/transactions/${ids.child}/splits`, expect: 404 },
  'GET /categories': { path: () => '/api/categories', expect: 'own' },
  'POST /categories': { path: () => '/api/categories', body: () => ({ name: 'SECRET-cat' }), expect: 'own' },
  // Learns only from the caller's rows: the owner's 'SECRET plain' row (SECRET-cat) is never suggested.
  'PUT /categories/:id': {
    path: () => `/api/categories/${ids.category}`,
    body: () => ({ name: 'hacked' }),
    expect: 404,
  },
  'GET /categories/:id/usage': { path: () => `/api/categories/${ids.category}/usage`, expect: 404 },
  'POST /categories/:id/merge': {
    path: () => `/api/categories/${ids.category}/merge`,
    body: () => ({ into: ids.otherCategory }),
    expect: 404,
  },
  'DELETE /categories/:id': {
    path: () => `/api/categories/${ids.category}?reassignTo=${ids.otherCategory}`,
    expect: 404,
  },
  'GET /plan/:month': { path: () => '/api/plan/2024-01', expect: 'own' },
  'PUT /plan/:month/assigned': {
    path: () => '/api/plan/2024-01/assigned',
    body: () => ({ category: ids.category, amount: 1 }),
    expect: 404,
  },
  'POST /plan/:month/move': {
    path: () => '/api/plan/2024-01/move',
    body: () => ({ from: null, to: ids.category, amount: 1 }),
    expect: 404,
  },
  'PUT /plan/:month/hold': { path: () => '/api/plan/2024-01/hold', body: () => ({ amount: 0 }), expect: 'own' },
  'POST /plan/:month/fill': {
    path: () => '/api/plan/2024-01/fill',
    body: () => ({ mode: 'zero', categories: [ids.category] }),
    expect: 404,
  },
  'POST /categories/suggest': {
    path: () => '/api/categories/suggest',
    body: () => ({ transactions: [{ description: 'SECRET plain', amount: -100 }] }),
    expect: 'own',
  },
  'GET /accounts': { path: () => '/api/accounts', expect: 'own' },
  'GET /accounts/net-worth': { path: () => '/api/accounts/net-worth', expect: 'own' },
  'POST /accounts': { path: () => '/api/accounts', body: () => ({ name: 'Second', type: 'cash' }), expect: 'own' },
  'PUT /accounts/:id': { path: () => `/api/accounts/${ids.account}`, body: () => ({ name: 'hacked' }), expect: 404 },
  'DELETE /accounts/:id': { path: () => `/api/accounts/${ids.account}`, expect: 404 },
  'GET /budgets': { path: () => '/api/budgets', expect: 'own' },
  'POST /budgets': {
    path: () => '/api/budgets',
    body: () => ({ name: 'mine', startDate: '2024-01-01', endDate: '2024-01-31' }),
    expect: 'own',
  },
  'POST /budgets/save': {
    path: () => '/api/budgets/save',
    body: () => ({ id: ids.budget, name: 'hacked', startDate: '2024-01-01', endDate: '2024-01-31', lineItems: [] }),
    expect: 404,
  },
  'GET /budgets/:id/overview': { path: () => `/api/budgets/${ids.budget}/overview`, expect: 404 },
  'PUT /budgets/:id': { path: () => `/api/budgets/${ids.budget}`, body: () => ({ name: 'hacked' }), expect: 404 },
  'DELETE /budgets/:id': { path: () => `/api/budgets/${ids.budget}`, expect: 404 },
  'GET /budgets/:id/line-items': { path: () => `/api/budgets/${ids.budget}/line-items`, expect: 404 },
  'GET /line-items/:id': { path: () => `/api/line-items/${ids.budget}`, expect: 404 },
  'POST /line-items': {
    path: () => '/api/line-items',
    body: () => ({ budgetId: ids.budget, name: 'x', amount: 1 }),
    expect: 404,
  },
  'PUT /line-items/:id': {
    path: () => `/api/line-items/${ids.lineItem}`,
    body: () => ({ name: 'hacked' }),
    expect: 404,
  },
  'DELETE /line-items/:id': { path: () => `/api/line-items/${ids.lineItem}`, expect: 404 },
  'GET /envelopes': { path: () => '/api/envelopes', expect: 'own' },
  'POST /envelopes': {
    path: () => '/api/envelopes',
    body: () => ({ name: 'mine', categories: ['SECRET-cat'] }),
    expect: 'own',
  },
  'PUT /envelopes/:id': { path: () => `/api/envelopes/${ids.envelope}`, body: () => ({ name: 'hacked' }), expect: 404 },
  'DELETE /envelopes/:id': { path: () => `/api/envelopes/${ids.envelope}`, expect: 404 },
  'GET /accounts/:id/import-profile': { path: () => `/api/accounts/${ids.account}/import-profile`, expect: 404 },
  'PUT /accounts/:id/import-profile': {
    path: () => `/api/accounts/${ids.account}/import-profile`,
    body: () => ({ mapping: { header: false, date: 0, description: [1], amount: 2 }, columnCount: 3 }),
    expect: 404,
  },
  'DELETE /accounts/:id/import-profile': { path: () => `/api/accounts/${ids.account}/import-profile`, expect: 404 },
  'GET /reports/monthly': {
    path: () => '/api/reports/monthly?start_date=2000-01-01&end_date=2099-12-31&account=SECRET-A',
    expect: 404,
  },
  'GET /reports/payees': {
    path: () => '/api/reports/payees?start_date=2000-01-01&end_date=2100-01-01&limit=1000',
    expect: 'own',
  },
  'GET /accounts/:id/register': { path: () => `/api/accounts/${ids.account}/register`, expect: 404 },
  'GET /accounts/:id/reconcile': {
    path: () => `/api/accounts/${ids.account}/reconcile?statement_date=2024-01-01&statement_balance=0`,
    expect: 404,
  },
  'POST /accounts/:id/reconcile': {
    path: () => `/api/accounts/${ids.account}/reconcile`,
    body: () => ({ statementDate: '2024-01-01', statementBalance: 999 }),
    expect: 404,
  },
  'GET /transactions/total': {
    path: () => '/api/transactions/total?start_date=2000-01-01&end_date=2100-01-01',
    expect: 'own',
  },
  'GET /transactions/export.csv': {
    path: () => '/api/transactions/export.csv?start_date=2000-01-01&end_date=2100-01-01',
    expect: 'own',
  },
  'GET /export': { path: () => '/api/export', expect: 'own' },
  // The intruder has data of its own, so a restore is refused; it could only ever write to its own user.
  'GET /rules': { path: () => '/api/rules', expect: 'own' },
  'POST /rules': {
    path: () => '/api/rules',
    body: () => ({
      name: 'mine',
      conditions: [{ field: 'description', op: 'contains', value: 'x' }],
      actions: { type: 'transfer' },
    }),
    expect: 'own',
  },
  'PUT /rules/:id': { path: () => `/api/rules/${ids.rule}`, body: () => ({ name: 'hacked' }), expect: 404 },
  'DELETE /rules/:id': { path: () => `/api/rules/${ids.rule}`, expect: 404 },
  'PUT /rules/order': { path: () => '/api/rules/order', body: () => ({ ids: [ids.rule] }), expect: 404 },
  // Counts and applies only the caller's own rows with the caller's own rules: the owner's rows stay as they are.
  'POST /rules/count': {
    path: () => '/api/rules/count',
    body: () => ({ conditions: [{ field: 'description', op: 'contains', value: 'secret' }] }),
    expect: 'own',
  },
  'POST /rules/apply': { path: () => '/api/rules/apply', body: () => ({ onlyUncategorized: false }), expect: 'own' },
  'GET /history': { path: () => '/api/history', expect: 'own' },
  'POST /history/:id/undo': { path: () => `/api/history/${ids.entry}/undo`, expect: 404 },
  'POST /history/:id/redo': { path: () => `/api/history/${ids.entry}/redo`, expect: 404 },
  'GET /trash': { path: () => '/api/trash', expect: 'own' },
  'POST /trash/restore': {
    path: () => '/api/trash/restore',
    body: () => ({ transactionIds: [ids.trashed] }),
    expect: 404,
  },
  'DELETE /trash': { path: () => '/api/trash', expect: 'own' },
  'GET /schedules': { path: () => '/api/schedules', expect: 'own' },
  'POST /schedules': {
    path: () => '/api/schedules',
    body: () => ({
      name: 'mine',
      account: 'SECRET-A',
      description: 'x',
      amount: -1,
      recurrence: 'FREQ=DAILY',
      startDate: '2024-01-01',
    }),
    expect: 404,
  },
  'GET /schedules/upcoming': { path: () => '/api/schedules/upcoming?days=400', expect: 'own' },
  'GET /schedules/suggestions': { path: () => '/api/schedules/suggestions', expect: 'own' },
  'GET /schedules/occurrences': {
    path: () => '/api/schedules/occurrences?start_date=2024-01-01&end_date=2025-12-31',
    expect: 'own',
  },
  'GET /schedules/:id': { path: () => `/api/schedules/${ids.schedule}`, expect: 404 },
  'PUT /schedules/:id': { path: () => `/api/schedules/${ids.schedule}`, body: () => ({ name: 'hacked' }), expect: 404 },
  'DELETE /schedules/:id': { path: () => `/api/schedules/${ids.schedule}`, expect: 404 },
  'POST /schedules/:id/skip': { path: () => `/api/schedules/${ids.schedule}/skip`, expect: 404 },
  'POST /schedules/:id/post-now': { path: () => `/api/schedules/${ids.schedule}/post-now`, expect: 404 },
  'POST /transfers': {
    path: () => '/api/transfers',
    body: () => ({ fromAccount: 'Mine', toAccount: ids.account, amount: 1, date: '2024-01-01' }),
    expect: 404,
  },
  'POST /transfers/link': {
    path: () => '/api/transfers/link',
    body: () => ({ transactionIds: [ids.offeredOut, ids.offeredIn] }),
    expect: 404,
  },
  'GET /transfers/candidates': { path: () => '/api/transfers/candidates', expect: 'own' },
  'POST /transfers/candidates/:id/accept': {
    path: () => `/api/transfers/candidates/${ids.candidate}/accept`,
    expect: 404,
  },
  'POST /transfers/candidates/:id/dismiss': {
    path: () => `/api/transfers/candidates/${ids.candidate}/dismiss`,
    expect: 404,
  },
  'GET /transfers/:id': { path: () => `/api/transfers/${ids.transfer}`, expect: 404 },
  'DELETE /transfers/:id': { path: () => `/api/transfers/${ids.transfer}`, expect: 404 },
  'GET /settings': { path: () => '/api/settings', expect: 'own' },
  'PUT /settings': { path: () => '/api/settings', body: () => ({ transferWindowDays: 3 }), expect: 'own' },
  // Rates are the instance's, not a user's: any signed-in user reads and changes them.
  'GET /rates': { path: () => '/api/rates?base=EUR&quote=EUR', expect: 'own' },
  'GET /rates/pairs': { path: () => '/api/rates/pairs', expect: 'own' },
  'PUT /rates': {
    path: () => '/api/rates',
    body: () => ({ date: '2001-01-02', base: 'EUR', quote: 'USD', rate: '0.9' }),
    expect: 'own',
  },
  'DELETE /rates': { path: () => '/api/rates?base=EUR&quote=USD&date=1999-01-04', expect: 404 },
  'POST /import': {
    path: () => '/api/import',
    body: () => ({
      format: 'budget-tracker',
      version: 1,
      accounts: [],
      categories: [],
      batches: [],
      transactions: [],
      budgets: [],
      envelopes: [],
    }),
    expect: 409,
  },
};

const trpcAttempts: Record<string, { kind: 'query' | 'mutation'; input: () => unknown; expect: Expect } | 'public'> = {
  'auth.status': 'public',
  'auth.register': 'public',
  'auth.login': 'public',
  'auth.logout': 'public',
  'auth.verifyMfa': 'public',
  'auth.me': { kind: 'query', input: () => undefined, expect: 'own' },
  // Before setupMfa: the intruder has no secret set up yet.
  'auth.enableMfa': { kind: 'mutation', input: () => ({ code: '123456' }), expect: 409 },
  'auth.setupMfa': { kind: 'mutation', input: () => ({ currentPassword: 'correct horse battery' }), expect: 'own' },
  'auth.disableMfa': { kind: 'mutation', input: () => ({ currentPassword: 'correct horse battery' }), expect: 'own' },
  'auth.signIns': { kind: 'query', input: () => undefined, expect: 'own' },
  'auth.revokeSignIn': { kind: 'mutation', input: () => ({ id: signInOf(owner.token) }), expect: 404 },
  'auth.revokeOtherSignIns': { kind: 'mutation', input: () => undefined, expect: 'own' },
  'auth.updateProfile': {
    kind: 'mutation',
    input: () => ({ username: `${intruder.username}x`, currentPassword: 'correct horse battery' }),
    expect: 'own',
  },
  'auth.setHomeCurrency': { kind: 'mutation', input: () => ({ homeCurrency: 'EUR' }), expect: 'own' },
  'transactions.list': {
    kind: 'query',
    input: () => ({ startDate: '2000-01-01', endDate: '2100-01-01' }),
    expect: 'own',
  },
  'transactions.total': {
    kind: 'query',
    input: () => ({ startDate: '2000-01-01', endDate: '2100-01-01' }),
    expect: 'own',
  },
  'transactions.create': { kind: 'mutation', input: () => ({ ...txBody, account: 'SECRET-A' }), expect: 404 },
  'transactions.update': {
    kind: 'mutation',
    input: () => ({ id: ids.tx, data: { description: 'hacked' } }),
    expect: 404,
  },
  'transactions.deleteMany': { kind: 'mutation', input: () => ({ ids: [ids.tx, ids.parent] }), expect: 404 },
  'transactions.bulkUpdate': {
    kind: 'mutation',
    input: () => ({ transactionIds: [ids.tx], updates: { type: 'transfer' } }),
    expect: 404,
  },
  'transactions.split': {
    kind: 'mutation',
    input: () => ({
      id: ids.tx,
      splits: [
        { amount: -50, category: 'a' },
        { amount: -50, category: 'b' },
      ],
    }),
    expect: 404,
  },
  'transactions.get': { kind: 'query', input: () => ({ id: ids.parent }), expect: 404 },
  'transactions.splits': { kind: 'query', input: () => ({ id: ids.parent }), expect: 404 },
  'transactions.fixSplitStatus': { kind: 'mutation', input: () => undefined, expect: 'own' },
  'transactions.batches': { kind: 'query', input: () => undefined, expect: 'own' },
  'transactions.batchTransactions': { kind: 'query', input: () => ({ batchId: ids.batch }), expect: 404 },
  'transactions.deleteBatch': { kind: 'mutation', input: () => ({ batchId: ids.batch }), expect: 404 },
  'categories.list': { kind: 'query', input: () => undefined, expect: 'own' },
  'categories.create': { kind: 'mutation', input: () => ({ name: 'SECRET-x' }), expect: 'own' },
  'categories.update': {
    kind: 'mutation',
    input: () => ({ id: ids.category, data: { name: 'hacked' } }),
    expect: 404,
  },
  'categories.usage': { kind: 'query', input: () => ({ id: ids.category }), expect: 404 },
  'categories.merge': { kind: 'mutation', input: () => ({ id: ids.category, into: ids.otherCategory }), expect: 404 },
  'categories.delete': {
    kind: 'mutation',
    input: () => ({ id: ids.category, reassignTo: ids.otherCategory }),
    expect: 404,
  },
  'plan.get': { kind: 'query', input: () => ({ month: '2024-01' }), expect: 'own' },
  'plan.setAssigned': {
    kind: 'mutation',
    input: () => ({ month: '2024-01', category: ids.category, amount: 1 }),
    expect: 404,
  },
  'plan.move': {
    kind: 'mutation',
    input: () => ({ month: '2024-01', from: ids.category, to: null, amount: 1 }),
    expect: 404,
  },
  'plan.hold': { kind: 'mutation', input: () => ({ month: '2024-01', amount: 0 }), expect: 'own' },
  'plan.fill': { kind: 'mutation', input: () => ({ month: '2024-01', mode: 'zero' }), expect: 'own' },
  'categories.suggest': {
    kind: 'mutation',
    input: () => ({ transactions: [{ description: 'SECRET plain', amount: -100 }] }),
    expect: 'own',
  },
  'accounts.list': { kind: 'query', input: () => undefined, expect: 'own' },
  'accounts.netWorth': { kind: 'query', input: () => ({}), expect: 'own' },
  'accounts.create': { kind: 'mutation', input: () => ({ name: 'Third', type: 'cash' }), expect: 'own' },
  'accounts.update': { kind: 'mutation', input: () => ({ id: ids.account, data: { name: 'hacked' } }), expect: 404 },
  'accounts.delete': { kind: 'mutation', input: () => ({ id: ids.account }), expect: 404 },
  'budgets.list': { kind: 'query', input: () => undefined, expect: 'own' },
  'budgets.delete': { kind: 'mutation', input: () => ({ id: ids.budget }), expect: 404 },
  'budgets.save': {
    kind: 'mutation',
    input: () => ({ id: ids.budget, name: 'h', startDate: '2024-01-01', endDate: '2024-01-02', lineItems: [] }),
    expect: 404,
  },
  'budgets.lineItems': { kind: 'query', input: () => ({ budgetId: ids.budget }), expect: 404 },
  'budgets.deleteLineItem': { kind: 'mutation', input: () => ({ id: ids.lineItem }), expect: 404 },
  'envelopes.list': { kind: 'query', input: () => undefined, expect: 'own' },
  'envelopes.create': { kind: 'mutation', input: () => ({ name: 'mine', categories: ['SECRET-cat'] }), expect: 'own' },
  'envelopes.update': { kind: 'mutation', input: () => ({ id: ids.envelope, data: { name: 'hacked' } }), expect: 404 },
  'envelopes.delete': { kind: 'mutation', input: () => ({ id: ids.envelope }), expect: 404 },
  'reports.monthly': {
    kind: 'query',
    input: () => ({ startDate: '2024-01-01', endDate: '2024-12-31', account: 'SECRET-A' }),
    expect: 404,
  },
  'reports.payees': { kind: 'query', input: () => ({ startDate: '2000-01-01', endDate: '2100-01-01' }), expect: 'own' },
  'accounts.register': { kind: 'query', input: () => ({ id: ids.account }), expect: 404 },
  'accounts.reconcile': {
    kind: 'query',
    input: () => ({ id: ids.account, statementDate: '2024-01-01', statementBalance: 0 }),
    expect: 404,
  },
  'accounts.adjustBalance': {
    kind: 'mutation',
    input: () => ({ id: ids.account, statementDate: '2024-01-01', statementBalance: 999 }),
    expect: 404,
  },
  'rules.list': { kind: 'query', input: () => undefined, expect: 'own' },
  'rules.create': {
    kind: 'mutation',
    input: () => ({
      name: 'mine too',
      conditions: [{ field: 'amount', op: 'lt', value: 0 }],
      actions: { type: 'transfer' },
    }),
    expect: 'own',
  },
  'rules.update': { kind: 'mutation', input: () => ({ id: ids.rule, data: { enabled: false } }), expect: 404 },
  'rules.delete': { kind: 'mutation', input: () => ({ id: ids.rule }), expect: 404 },
  'rules.reorder': { kind: 'mutation', input: () => ({ ids: [ids.rule] }), expect: 404 },
  'rules.countMatches': {
    kind: 'query',
    input: () => ({ conditions: [{ field: 'description', op: 'contains', value: 'secret' }] }),
    expect: 'own',
  },
  'rules.applyToTransactions': {
    kind: 'mutation',
    input: () => ({ ruleIds: [ids.rule], onlyUncategorized: false }),
    expect: 404,
  },
  'history.list': { kind: 'query', input: () => ({}), expect: 'own' },
  'history.undo': { kind: 'mutation', input: () => ({ id: ids.entry }), expect: 404 },
  'history.redo': { kind: 'mutation', input: () => ({ id: ids.entry }), expect: 404 },
  'history.trash': { kind: 'query', input: () => undefined, expect: 'own' },
  'history.restore': { kind: 'mutation', input: () => ({ transactionIds: [ids.trashed] }), expect: 404 },
  'history.emptyTrash': { kind: 'mutation', input: () => undefined, expect: 'own' },
  'schedules.list': { kind: 'query', input: () => undefined, expect: 'own' },
  'schedules.get': { kind: 'query', input: () => ({ id: ids.schedule }), expect: 404 },
  'schedules.create': {
    kind: 'mutation',
    input: () => ({
      name: 'mine',
      account: 'SECRET-A',
      description: 'x',
      amount: -1,
      recurrence: 'FREQ=DAILY',
      startDate: '2024-01-01',
    }),
    expect: 404,
  },
  'schedules.update': { kind: 'mutation', input: () => ({ id: ids.schedule, data: { name: 'hacked' } }), expect: 404 },
  'schedules.delete': { kind: 'mutation', input: () => ({ id: ids.schedule }), expect: 404 },
  'schedules.skip': { kind: 'mutation', input: () => ({ id: ids.schedule }), expect: 404 },
  'schedules.postNow': { kind: 'mutation', input: () => ({ id: ids.schedule }), expect: 404 },
  'schedules.upcoming': { kind: 'query', input: () => ({ days: 400 }), expect: 'own' },
  'schedules.occurrences': {
    kind: 'query',
    input: () => ({ startDate: '2024-01-01', endDate: '2025-12-31' }),
    expect: 'own',
  },
  'schedules.suggestions': { kind: 'query', input: () => undefined, expect: 'own' },
  'transfers.create': {
    kind: 'mutation',
    input: () => ({ fromAccount: ids.account, toAccount: 'Mine', amount: 1, date: '2024-01-01' }),
    expect: 404,
  },
  'transfers.link': {
    kind: 'mutation',
    input: () => ({ transactionIds: [ids.offeredOut, ids.offeredIn] }),
    expect: 404,
  },
  'transfers.get': { kind: 'query', input: () => ({ id: ids.transfer }), expect: 404 },
  'transfers.unlink': { kind: 'mutation', input: () => ({ id: ids.transfer }), expect: 404 },
  'transfers.candidates': { kind: 'query', input: () => undefined, expect: 'own' },
  'transfers.accept': { kind: 'mutation', input: () => ({ id: ids.candidate }), expect: 404 },
  'transfers.dismiss': { kind: 'mutation', input: () => ({ id: ids.candidate }), expect: 404 },
  'settings.get': { kind: 'query', input: () => undefined, expect: 'own' },
  'settings.update': { kind: 'mutation', input: () => ({ transferWindowDays: 2 }), expect: 'own' },
  'rates.lookup': { kind: 'query', input: () => ({ base: 'EUR', quote: 'EUR' }), expect: 'own' },
  'rates.pairs': { kind: 'query', input: () => undefined, expect: 'own' },
  'rates.import': {
    kind: 'mutation',
    input: () => ({ text: 'date,base,quote,rate\n2001-01-03,EUR,USD,0.91\n' }),
    expect: 'own',
  },
  'rates.put': {
    kind: 'mutation',
    input: () => ({ date: '2001-01-02', base: 'EUR', quote: 'USD', rate: '0.9' }),
    expect: 'own',
  },
  'rates.delete': { kind: 'mutation', input: () => ({ base: 'EUR', quote: 'USD', date: '1999-01-04' }), expect: 404 },
};

describe('every user’s data is sealed off', () => {
  it('has an isolation entry for every REST route and tRPC procedure', () => {
    const routeKeys = domainRoutes.map((route) => `${route.method} ${route.url}`);
    expect(routeKeys.filter((key) => !(key in restAttempts))).toEqual([]);
    const procedures = Object.keys(
      (appRouter as unknown as { _def: { procedures: Record<string, unknown> } })._def.procedures,
    );
    expect(procedures.filter((path) => !(path in trpcAttempts))).toEqual([]);
  });

  it.each(domainRoutes.map((route) => `${route.method} ${route.url}`))('REST %s as another user', async (key) => {
    const attempt = restAttempts[key];
    const method = key.split(' ')[0];
    const before = await snapshot();
    const res =
      method === 'GET'
        ? await intruder.get(attempt.path())
        : method === 'DELETE'
          ? await intruder.del(attempt.path())
          : method === 'PUT'
            ? await intruder.put(attempt.path(), attempt.body?.())
            : await intruder.post(attempt.path(), attempt.body?.());
    if (attempt.expect !== 'own') expect(res.status, JSON.stringify(res.body)).toBe(attempt.expect);
    else {
      expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
      expect(JSON.stringify(res.body)).not.toMatch(/SECRET (plain|parent|budget|item|env|rule)|SECRET-y|"SECRET-A"/i);
    }
    expect(await snapshot()).toBe(before);
    // without a token: 401
    const anonymous = await fetch(`${server.url}${attempt.path()}`, { method });
    expect(anonymous.status).toBe(401);
  });

  it.each(
    Object.entries(trpcAttempts)
      .filter(([, a]) => a !== 'public')
      .map(([path]) => path),
  )('tRPC %s as another user', async (path) => {
    const attempt = trpcAttempts[path] as Exclude<(typeof trpcAttempts)[string], 'public'>;
    const before = await snapshot();
    // Every procedure by its path, as the router lists them: the string path is the point here.
    const res = await trpc(
      server.url,
      attempt.kind === 'query' ? 'query' : 'mutation',
      path,
      attempt.input(),
      intruder.token,
    );
    if (attempt.expect !== 'own') expect(res.error?.data.httpStatus, JSON.stringify(res)).toBe(attempt.expect);
    else {
      expect(res.error, JSON.stringify(res.error)).toBeUndefined();
      expect(JSON.stringify(res.data)).not.toMatch(/SECRET (plain|parent|budget|item|env|rule)|SECRET-y|"SECRET-A"/i);
    }
    expect(await snapshot()).toBe(before);
  });

  it('POST /api/upload into another user’s account name answers 404 and writes nothing', async () => {
    const before = await snapshot();
    const body = new FormData();
    body.append('file', new Blob(['Date,Description,Amount\n2024-01-01,x,-1.00\n']), 'x.csv');
    body.append('account', 'SECRET-A');
    body.append('transactionType', 'debit');
    const res = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${intruder.token}` },
      body,
    });
    expect(res.status).toBe(404);
    expect(await snapshot()).toBe(before);
    expect((await fetch(`${server.url}/api/upload`, { method: 'POST', body })).status).toBe(401);
  });

  it('still shows the owner everything', async () => {
    expect(
      data(await owner.trpc.transactions.list.query({ startDate: '2024-01-01', endDate: '2024-12-31' })),
    ).toHaveLength(4);
    expect(ok(await owner.get('/api/envelopes'))[0].transactionCount).toBe(1);
  });
});

describe('OpenAPI document', () => {
  it('documents every REST route with its parameters', async () => {
    const res = await fetch(`${server.url}/api/openapi.json`);
    expect(res.status).toBe(200);
    const doc = (await res.json()) as {
      openapi: string;
      paths: Record<string, Record<string, { parameters?: { name: string }[] }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    for (const route of domainRoutes) {
      const path = `/api${route.url.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
      expect(
        Object.hasOwn(doc.paths, path) ? doc.paths[path][route.method.toLowerCase()] : undefined,
        `${route.method} ${path}`,
      ).toBeDefined();
    }
    const search = doc.paths['/api/transactions'].get.parameters!.map((p) => p.name);
    expect(search).toEqual(
      expect.arrayContaining([
        'start_date',
        'end_date',
        'categories',
        'account',
        'description',
        'min_amount',
        'max_amount',
        'payee',
        'direction',
        'counted',
      ]),
    );
    expect(doc.paths['/api/transactions/export.csv'].get.parameters!.map((p) => p.name)).toEqual([
      ...search,
      'access_token',
    ]);
    expect(doc.paths['/api/reports/monthly'].get.parameters!.map((p) => p.name)).toEqual([
      'start_date',
      'end_date',
      'account',
    ]);
    expect(doc.paths['/api/reports/payees'].get.parameters!.map((p) => p.name)).toEqual([
      'start_date',
      'end_date',
      'account',
      'limit',
    ]);
    expect(doc.paths['/api/accounts/{id}/register'].get.parameters!.map((p) => p.name)).toEqual([
      'id',
      'start_date',
      'end_date',
      'limit',
      'offset',
    ]);
  });
});
