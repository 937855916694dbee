import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { restRoutes } from '../../src/server/http/openapi';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { hostileInput, jsonSchemaOf } from '../helpers/schema-inputs';
import { startServer, type TestServer } from '../helpers/server';

/**
 * What an independent API fuzzer found, as a test. Every REST route is
 * walked with inputs generated (fast-check) from its own zod schemas — control characters,
 * huge, empty and wrongly typed values — and must never answer 5xx nor a status that
 * /api/openapi.json does not list for it. PUT with a null or missing body is a 400.
 */
let server: TestServer;
let user: ApiUser;
let document: { paths: Record<string, Record<string, { operationId?: string; responses: Record<string, unknown> }>> };

interface Operation {
  method: string;
  url: string;
  params?: z.ZodType;
  query?: z.ZodType;
  body?: z.ZodType;
  bodyType?: string;
  public?: boolean;
}
const operations: Operation[] = [...restRoutes];

beforeAll(async () => {
  server = await startServer({ LOGIN_MAX_FAILURES: '5' });
  user = await signUp(server.url);
  // Some rows so generated ids hit real ones now and then.
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  for (let i = 0; i < 3; i++)
    ok(
      await user.post('/api/transactions', {
        postDate: `2024-01-0${i + 1}`,
        description: `t${i}`,
        amount: -100 * (i + 1),
        category: 'Food',
      }),
    );
  const budget = ok(await user.post('/api/budgets', { name: 'B', startDate: '2024-01-01', endDate: '2024-12-31' }));
  ok(
    await user.post('/api/line-items', { budgetId: budget.id, name: 'Food', amount: 500, relatedCategories: ['Food'] }),
  );
  ok(await user.post('/api/envelopes', { name: 'E', categories: ['Food'] }));
  document = (await rest(server.url, 'GET', '/api/openapi.json')).body;
});
afterAll(() => server.close());

function openApiPath(url: string): string {
  return `/api${url.replace(/:([A-Za-z_]+)/g, '{$1}')}`;
}

function listedStatuses(op: Operation): string[] {
  const path = openApiPath(op.url);
  const operation = Object.hasOwn(document.paths, path) ? document.paths[path][op.method.toLowerCase()] : undefined;
  return Object.keys(operation?.responses ?? {});
}

function queryString(value: unknown): string {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return '';
  const search = new URLSearchParams();
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v])
      search.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  return search.size ? `?${search}` : '';
}

function pathOf(op: Operation, params: unknown): string {
  const values = (params && typeof params === 'object' ? params : {}) as Record<string, unknown>;
  return `/api${op.url.replace(/:([A-Za-z_]+)/g, (_, name) => {
    const v = values[name];
    const text =
      v === undefined || v === null
        ? 'x'
        : typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean'
          ? String(v)
          : JSON.stringify(v);
    return encodeURIComponent(text || 'x');
  })}`;
}

describe('OpenAPI document', () => {
  it('gives every operation a unique operationId and lists its error statuses', () => {
    const ids: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        expect(operation.operationId, `${method} ${path}`).toMatch(/^[a-z][A-Za-z0-9]+$/);
        ids.push(operation.operationId!);
        if (path !== '/api/health' && path !== '/api/openapi.json')
          expect(Object.keys(operation.responses), `${method} ${path}`).toContain('400');
      }
    }
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of operations) expect(listedStatuses(op).length, `${op.method} ${op.url}`).toBeGreaterThan(1);
  });
});

describe('every REST route under generated inputs', () => {
  it.each(operations.map((op) => [`${op.method} ${op.url}`, op] as const))(
    '%s never answers 5xx or an unlisted status',
    async (_label, op) => {
      const listed = listedStatuses(op);
      const arbitrary = fc.record({
        params: op.params ? hostileInput(jsonSchemaOf(op.params)) : fc.constant(undefined),
        query: op.query ? hostileInput(jsonSchemaOf(op.query)) : fc.constant(undefined),
        body:
          op.body && op.bodyType !== 'multipart/form-data'
            ? hostileInput(jsonSchemaOf(op.body))
            : fc.constant(undefined),
        withToken: op.public ? fc.boolean() : fc.constant(true),
      });
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ params, query, body, withToken }) => {
          const headers: Record<string, string> = {};
          if (withToken) headers.authorization = `Bearer ${user.token}`;
          let payload: string | undefined;
          if (op.method !== 'GET' && body !== undefined) {
            headers['content-type'] = 'application/json';
            payload = JSON.stringify(body);
          }
          const res = await fetch(`${server.url}${pathOf(op, params)}${queryString(query)}`, {
            method: op.method,
            headers,
            body: payload,
          });
          const text = await res.text();
          const where = `${op.method} ${pathOf(op, params)}${queryString(query)} ${payload ?? ''} -> ${res.status} ${text.slice(0, 300)}`;
          expect(res.status, where).toBeLessThan(500);
          expect(listed, where).toContain(String(res.status));
        }),
        { numRuns: 40 },
      );
    },
  );
});

describe('oversized requests', () => {
  it('a query string over 16 KB answers a listed status', async () => {
    const op = operations.find((o) => o.method === 'GET' && o.url === '/transactions')!;
    const res = await fetch(
      `${server.url}/api/transactions?start_date=2024-01-01&end_date=2024-12-31&description=${'x'.repeat(20_000)}`,
      {
        headers: { authorization: `Bearer ${user.token}` },
      },
    );
    expect(res.status).toBeLessThan(500);
    expect(listedStatuses(op)).toContain(String(res.status));
  });

  it('a JSON body over the limit answers 413, which every writing operation lists', async () => {
    const op = operations.find((o) => o.method === 'POST' && o.url === '/transactions')!;
    const res = await fetch(`${server.url}/api/transactions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(res.status).toBe(413);
    expect(listedStatuses(op)).toContain('413');
  });
});

describe('bodies that are not there', () => {
  const puts = operations.filter((op) => op.method === 'PUT' && op.body);
  it.each(puts.map((op) => [op.url, op] as const))(
    'PUT %s with a null or missing body answers 400 and changes nothing',
    async (_url, op) => {
      const target = pathOf(op, { id: 1, month: '2026-01' });
      const before = await server.app.orm.em.fork().getConnection().execute('select * from `transaction` order by id');
      for (const body of ['null', undefined, '']) {
        const headers: Record<string, string> = { authorization: `Bearer ${user.token}` };
        if (body !== undefined) headers['content-type'] = 'application/json';
        const res = await fetch(`${server.url}${target}`, { method: 'PUT', headers, body });
        const answer = (await res.json()) as { error: string };
        expect(res.status, `${op.url} body ${String(body)}`).toBe(400);
        expect(answer.error).toMatch(/body/i);
      }
      expect(await server.app.orm.em.fork().getConnection().execute('select * from `transaction` order by id')).toEqual(
        before,
      );
    },
  );
});
