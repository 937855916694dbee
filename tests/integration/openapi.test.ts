import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { restRoutes } from '../../src/server/http/openapi';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

type Operation = {
  operationId?: string;
  deprecated?: boolean;
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
};
let server: TestServer | undefined;
let user: ApiUser;
let doc: { paths: Record<string, Record<string, Operation>> };
const ids: Record<string, number | string> = {};

/** The document's operation at a path and method, or undefined where it has none. */
function operationAt(path: string, method: string): Operation | undefined {
  return Object.hasOwn(doc.paths, path) ? doc.paths[path][method] : undefined;
}

function openApiPath(url: string): string {
  return `/api${url.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
}

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ids.account = ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking', balance: 10_000 })).id;
  const tx = ok(
    await user.post('/api/transactions', {
      postDate: '2026-01-05',
      description: 'Groceries',
      amount: -2_500,
      category: 'Food',
      account: 'Checking',
    }),
  );
  ok(
    await user.post('/api/transactions', {
      postDate: '2026-01-06',
      description: 'Salary',
      amount: 100_000,
      category: 'Pay',
      account: 'Checking',
    }),
  );
  ok(
    await user.post(`/api/transactions/${tx.id}/split`, {
      splits: [
        { amount: -1_000, category: 'Food' },
        { amount: -1_500, category: 'Home' },
      ],
    }),
  );
  ids.transaction = tx.id;
  ids.budget = ok(
    await user.post('/api/budgets', { name: 'January', startDate: '2026-01-01', endDate: '2026-01-31' }),
  ).id;
  ok(
    await user.post('/api/line-items', {
      budgetId: ids.budget,
      name: 'Food',
      amount: -30_000,
      relatedCategories: ['Food'],
    }),
  );
  ids.envelope = ok(await user.post('/api/envelopes', { name: 'Eating', categories: ['Food'] })).id;
  ids.category = ok<{ id: number; name: string }[]>(await user.get('/api/categories')).find((c) => c.name === 'Food')
    ?.id as number;
  ids.schedule = ok(
    await user.post('/api/schedules', {
      name: 'Rent',
      account: 'Checking',
      description: 'Rent',
      amount: -90_000,
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=31',
      mode: 'expect',
      startDate: '2026-01-31',
    }),
  ).id;
  ok(
    await user.post('/api/rules', {
      name: 'Between',
      conditions: [
        { field: 'amount', op: 'between', value: [-5_000, -100] },
        { field: 'description', op: 'contains', value: 'groc' },
      ],
      actions: { category: 'Food', type: 'debit' },
    }),
  );
  const form = new FormData();
  form.append(
    'file',
    new Blob(['Date,Description,Amount\n2026-01-07,Coffee,-3.50\n2026-01-08,Bakery,-4.20\n']),
    'jan.csv',
  );
  form.append('account', 'Checking');
  const upload = await fetch(`${server.url}/api/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}` },
    body: form,
  });
  expect(upload.status).toBe(201);
  ids.batch = ((await upload.json()) as { batchId: string }).batchId;
  ok(
    await user.put(`/api/accounts/${ids.account}/import-profile`, {
      mapping: { header: true, date: 0, description: [1], amount: 2 },
      columnCount: 3,
      headers: ['Date', 'Description', 'Amount'],
    }),
  );
  ok(await user.post('/api/accounts', { name: 'Savings', type: 'savings' }));
  ids.transfer = ok(
    await user.post('/api/transfers', {
      fromAccount: 'Checking',
      toAccount: 'Savings',
      amount: 5_000,
      date: '2026-01-09',
    }),
  ).transferId;
  // A pair import would offer: two unlinked rows of two accounts with opposite amounts.
  const side = async (account: string, amount: number) =>
    ok(await user.post('/api/transactions', { postDate: '2026-01-10', description: 'Move', amount, account }))
      .id as number;
  const [out, into] = [await side('Checking', -7_000), await side('Savings', 7_000)];
  await server.sql(
    `insert into transfer_candidate (created_at, user_id, first_id, second_id, score, reason, status) values (?, ?, ?, ?, 40, 'same amount', 'open')`,
    [new Date().toISOString(), user.userId, out, into],
  );
  doc = ok(await user.get('/api/openapi.json'));
});

afterAll(async () => {
  await server?.close();
});

describe('the OpenAPI document', () => {
  it('documents every REST route, each with an operationId, all of them unique', () => {
    const seen: string[] = [];
    for (const route of restRoutes) {
      const operation = operationAt(openApiPath(route.url), route.method.toLowerCase());
      expect(operation, `${route.method} ${route.url}`).toBeDefined();
      expect(operation?.operationId, `${route.method} ${route.url}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
    }
    for (const methods of Object.values(doc.paths))
      for (const operation of Object.values(methods)) seen.push(operation.operationId!);
    expect(seen.length).toBe(new Set(seen).size);
  });

  it('includes the auth calls and the upload', () => {
    for (const path of [
      '/api/auth/login',
      '/api/auth/register',
      '/api/auth/refresh',
      '/api/auth/logout',
      '/api/upload',
    ])
      expect(operationAt(path, 'post'), path).toBeDefined();
    expect(doc.paths['/api/upload'].post.responses['201'].content?.['application/json']?.schema).toBeDefined();
  });

  it('describes every 2xx answer with a schema, file downloads, health and this document included', () => {
    for (const [path, methods] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          if (!status.startsWith('2') || status === '204') continue;
          const contents = Object.entries(response.content ?? {});
          expect(contents.length, `${method} ${path} ${status}`).toBeGreaterThan(0);
          for (const [type, content] of contents)
            expect(content.schema, `${method} ${path} ${status} ${type}`).toBeDefined();
        }
      }
    }
    expect(doc.paths['/api/health'].get.responses['503'].content?.['application/json']?.schema).toBeDefined();
  });

  it('has no two paths that differ only in a parameter name', () => {
    const shapes = Object.keys(doc.paths).map((path) => path.replace(/\{[^}]+\}/g, '{}'));
    expect(shapes.length).toBe(new Set(shapes).size);
  });

  it('keeps the old line-items URL working beside the documented one', async () => {
    const documented = ok(await user.get(`/api/budgets/${ids.budget}/line-items`));
    expect(documented).toHaveLength(1);
    expect(ok(await user.get(`/api/line-items/${ids.budget}`))).toEqual(documented);
    expect(doc.paths['/api/line-items/{id}'].get.deprecated).toBe(true);
  });
});

/** Concrete URLs (and queries) for every GET route, on the data made above. */
const getPaths: Record<string, () => string> = {
  '/auth/status': () => '/api/auth/status',
  '/auth/me': () => '/api/auth/me',
  '/auth/sign-ins': () => '/api/auth/sign-ins',
  '/transactions': () => '/api/transactions?start_date=2026-01-01&end_date=2026-01-31',
  '/transactions/total': () => '/api/transactions/total?start_date=2026-01-01&end_date=2026-01-31',
  '/transactions/export.csv': () => '/api/transactions/export.csv?start_date=2026-01-01&end_date=2026-01-31',
  '/transactions/batches/list': () => '/api/transactions/batches/list',
  '/transactions/batches/:batchId/transactions': () => `/api/transactions/batches/${ids.batch}/transactions`,
  '/transactions/:id': () => `/api/transactions/${ids.transaction}`,
  '/transactions/:id/splits': () => `/api/transactions/${ids.transaction}/splits`,
  '/categories': () => '/api/categories',
  '/categories/:id/usage': () => `/api/categories/${ids.category}/usage`,
  '/plan/:month': () => '/api/plan/2026-01',
  '/accounts': () => '/api/accounts',
  '/accounts/net-worth': () => '/api/accounts/net-worth?months=3',
  '/accounts/:id/register': () => `/api/accounts/${ids.account}/register`,
  '/accounts/:id/reconcile': () =>
    `/api/accounts/${ids.account}/reconcile?statement_date=2026-01-31&statement_balance=50000`,
  '/accounts/:id/import-profile': () => `/api/accounts/${ids.account}/import-profile`,
  '/budgets': () => '/api/budgets',
  '/budgets/:id/overview': () => `/api/budgets/${ids.budget}/overview`,
  '/budgets/:id/line-items': () => `/api/budgets/${ids.budget}/line-items`,
  '/line-items/:id': () => `/api/line-items/${ids.budget}`,
  '/envelopes': () => '/api/envelopes',
  '/reports/monthly': () => '/api/reports/monthly?start_date=2026-01-01&end_date=2026-01-31',
  '/reports/payees': () => '/api/reports/payees?start_date=2026-01-01&end_date=2026-01-31',
  '/export': () => '/api/export',
  '/rules': () => '/api/rules',
  '/history': () => '/api/history',
  '/trash': () => '/api/trash',
  '/schedules': () => '/api/schedules',
  '/schedules/upcoming': () => '/api/schedules/upcoming?days=90',
  '/schedules/suggestions': () => '/api/schedules/suggestions',
  '/schedules/occurrences': () => '/api/schedules/occurrences?start_date=2026-01-01&end_date=2026-04-30',
  '/schedules/:id': () => `/api/schedules/${ids.schedule}`,
  '/transfers/candidates': () => '/api/transfers/candidates',
  '/transfers/:id': () => `/api/transfers/${ids.transfer}`,
  '/settings': () => '/api/settings',
  // Any currency converts into itself, with no stored rate.
  '/rates': () => '/api/rates?base=EUR&quote=EUR&date=2026-01-15',
  '/rates/pairs': () => '/api/rates/pairs',
};

describe('real answers match their output schemas', () => {
  const gets = restRoutes.filter((route) => route.method === 'GET');

  it('has a URL for every GET route', () => {
    expect(gets.map((route) => route.url).filter((url) => !(url in getPaths))).toEqual([]);
  });

  it.each(gets.filter((route) => route.output).map((route) => [route.url, route] as const))(
    'GET %s',
    async (url, route) => {
      const body = ok(await user.get(getPaths[url]()));
      const parsed = route.output!.safeParse(body);
      expect(parsed.success, JSON.stringify(parsed.error?.issues.slice(0, 3))).toBe(true);
    },
  );
});
