import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';
import { rawRequest } from '../helpers/stall-watch';

/**
 * Attacks on restore (POST /api/import): two restores sent at once into one empty user must not both succeed
 * (exactly one answers 201, the other 409, never a 5xx), more at once are refused with 429, and a large
 * document whose split parents come after their parts, each with parts that do not add up, is refused with
 * 400 naming them, in time linear in the document.
 */
let server: TestServer;
let template: any;

beforeAll(async () => {
  server = await startServer();
  const owner = await signUp(server.url);
  ok(await owner.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  ok(
    await owner.post('/api/transactions', {
      account: 'Checking',
      postDate: '2024-02-01',
      description: 'Groceries',
      amount: -1250,
    }),
  );
  template = ok(await owner.get('/api/export'));
});

afterAll(async () => {
  await server.close();
});

/** The template's document with `n` transactions made by `row` in place of its own. */
function documentWith(n: number, row: (i: number, base: any) => any): any {
  const base = template.transactions[0];
  return { ...template, transactions: Array.from({ length: n }, (_, i) => row(i, base)) };
}

const restore = (user: ApiUser, body: string) =>
  rawRequest(server.url, 'POST', '/api/import', { token: user.token, body });

describe('restores at once', () => {
  it('two into one empty user: one answers 201, the other 409, and the user holds one copy', async () => {
    const user = await signUp(server.url);
    const body = JSON.stringify(documentWith(2000, (i, base) => ({ ...base, id: i + 1, description: `row ${i}` })));
    const answers = await Promise.all([restore(user, body), restore(user, body)]);
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409]);
    const conflict = answers.find((a) => a.status === 409)!;
    expect(conflict.body.error).toMatch(/without data/);
    const accounts = ok(await user.get('/api/accounts'));
    expect(accounts).toHaveLength(1);
  });

  it('more than one waiting is refused with 429 saying why, and none answers a 5xx', async () => {
    const users = await Promise.all([signUp(server.url), signUp(server.url), signUp(server.url), signUp(server.url)]);
    const body = JSON.stringify(documentWith(3000, (i, base) => ({ ...base, id: i + 1, description: `row ${i}` })));
    const answers = await Promise.all(users.map((user) => restore(user, body)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.every((status) => status === 201 || status === 429)).toBe(true);
    expect(statuses).toContain(201);
    for (const answer of answers.filter((a) => a.status === 429)) expect(answer.body.error).toMatch(/restore/);
  });
});

describe('a document of many split parents listed after their parts', () => {
  it('is refused with 400 naming a parent whose parts do not add up', async () => {
    const parents = 60_000;
    const doc = documentWith(parents * 2, (i, base) => {
      const parent = Math.floor(i / 2);
      // Each part first, then its parent (id above every part's), whose amount its one part does not match.
      return i % 2 === 0
        ? { ...base, id: parent + 1, parentId: parents + parent + 1, isSplit: false, amount: -100 }
        : { ...base, id: parents + parent + 1, parentId: null, isSplit: true, amount: -300, categoryId: null };
    });
    const user = await signUp(server.url);
    const answer = await restore(user, JSON.stringify(doc));
    expect(answer.status).toBe(400);
    expect(answer.body.error).toMatch(/split of transaction \d+/);
    expect(ok(await user.get('/api/accounts'))).toEqual([]);
  });
});
