import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { authRoutes } from '../../src/server/modules/auth/auth.rest';
import { domainRoutes } from '../../src/server/http/domain-routes';
import { appRouter } from '../../src/server/trpc/router';
import { rest, trpc } from '../helpers/http';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { jsonSchemaOf, setAt, stringPaths, validInput } from '../helpers/schema-inputs';
import { startServer, type TestServer } from '../helpers/server';

/**
 * A control character (NUL and the rest) or a bidirectional override (U+202E and the rest) in
 * any text field of any JSON, query or tRPC input answers 400 naming the field, never a 500,
 * and changes nothing. The fields are found from the routes' own schemas, so a new field or
 * route is covered without editing this test.
 */
let server: TestServer;
let user: ApiUser;

const TABLES = ['transaction', 'account', 'category', 'batch', 'budget', 'line_item', 'envelope'];
async function snapshot(): Promise<string> {
  const conn = server.app.orm.em.fork().getConnection();
  const parts: unknown[] = [
    await conn.execute('select id, username, password_hash, api_token_hash from user order by id'),
  ];
  for (const table of TABLES) parts.push(await conn.execute(`select * from \`${table}\` order by 1`));
  return JSON.stringify(parts);
}

beforeAll(async () => {
  server = await startServer({ LOGIN_MAX_FAILURES: '1000', LOGIN_ADDRESS_MAX_FAILURES: '100000' });
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
});
afterAll(() => server.close());

function fieldPath(path: (string | number)[]): string {
  return path.join('.');
}

const NASTY = ['a\u0000b', '\u0000', 'tab\u0001', 'esc\u001b[31m', 'del\u007f'];
/** Bidirectional overrides and isolates: text that displays in another order than it is stored. */
const BIDI = ['pay\u202eevil', '\u202aa', '\u202d', 'x\u2066y\u2069', '\u2068'];
/** A password is never shown, so it may hold any printable character. */
const isPassword = (path: (string | number)[]) => /password$/i.test(String(path.at(-1)));

interface Case {
  label: string;
  send: (value: unknown, path: (string | number)[]) => Promise<{ status: number; message: string }>;
  paths: (string | number)[][];
}

function urlOf(route: { url: string }, params: Record<string, unknown> = {}): string {
  return `/api${route.url.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params[name] ?? (name === 'month' ? '2026-01' : '1');
    return encodeURIComponent(
      typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value),
    );
  })}`;
}

const restCases: Case[] = [];
for (const op of [...authRoutes, ...domainRoutes] as {
  method: string;
  url: string;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
}[]) {
  for (const part of ['body', 'query', 'params'] as const) {
    const schema = op[part];
    if (!schema) continue;
    const json = jsonSchemaOf(schema);
    const base = validInput(json) as Record<string, unknown>;
    restCases.push({
      label: `${op.method} ${op.url} (${part})`,
      paths: stringPaths(json),
      async send(value, path) {
        const input = setAt(base, path, value) as Record<string, unknown>;
        let target = urlOf(
          op,
          part === 'params' ? input : (validInput(op.params ? jsonSchemaOf(op.params) : {}) as Record<string, unknown>),
        );
        if (part === 'query') target += `?${new URLSearchParams(input as Record<string, string>).toString()}`;
        const token =
          op.url.startsWith('/auth/') && ['/auth/login', '/auth/register', '/auth/status'].includes(op.url)
            ? null
            : user.token;
        const res = await rest(server.url, op.method, target, {
          token,
          ...(part === 'body'
            ? { body: input }
            : op.method === 'PUT' || op.method === 'POST'
              ? { body: validInput(op.body ? jsonSchemaOf(op.body) : {}) }
              : {}),
        });
        return { status: res.status, message: String(res.body?.error ?? res.body) };
      },
    });
  }
}

type Procedure = { _def: { type: 'query' | 'mutation'; inputs: z.ZodType[] } };
const procedures = (appRouter as unknown as { _def: { procedures: Record<string, Procedure> } })._def.procedures;
const trpcCases: Case[] = [];
/** Inputs that carry a whole file's text, read as a file is (as uploads are, which travel as multipart). */
const FILE_TEXT_PROCEDURES = new Set(['rates.import']);
for (const [name, procedure] of Object.entries(procedures)) {
  const schema = procedure._def.inputs.at(0);
  if (!schema || FILE_TEXT_PROCEDURES.has(name)) continue;
  const json = jsonSchemaOf(schema);
  const base = validInput(json);
  trpcCases.push({
    label: `tRPC ${name}`,
    paths: stringPaths(json),
    async send(value, path) {
      const res = await trpc(server.url, procedure._def.type, name, setAt(base, path, value), user.token);
      return { status: res.status, message: res.error?.message ?? '' };
    },
  });
}

describe('control characters in text fields', () => {
  it('finds text fields in the REST and tRPC schemas', () => {
    expect(restCases.flatMap((c) => c.paths).length).toBeGreaterThan(30);
    expect(trpcCases.flatMap((c) => c.paths).length).toBeGreaterThan(30);
  });

  it('a NUL in the login username answers 400 naming the field', async () => {
    const res = await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: 'a\u0000b', password: 'whatever-password' },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('username');
  });

  it.each([...restCases, ...trpcCases].filter((c) => c.paths.length > 0).map((c) => [c.label, c] as const))(
    '%s: every text field refuses control characters and bidirectional overrides with a 400 naming it, changing nothing',
    async (_label, testCase) => {
      const before = await snapshot();
      for (const path of testCase.paths) {
        for (const nasty of isPassword(path) ? NASTY : [...NASTY, ...BIDI]) {
          const answer = await testCase.send(nasty, path);
          expect(answer.status, `${fieldPath(path)} = ${JSON.stringify(nasty)}: ${answer.message}`).toBe(400);
          expect(answer.message, `${fieldPath(path)} = ${JSON.stringify(nasty)}`).toContain(String(path[0]));
        }
      }
      expect(await snapshot()).toBe(before);
    },
  );

  it('an envelope with a NUL in a category name is refused and not saved; envelopes keep working', async () => {
    const res = await user.post('/api/envelopes', { name: 'Food', categories: ['Groce\u0000ries'] });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('categories');
    const list = await user.get('/api/envelopes');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([]);
  });
});
