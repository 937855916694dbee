import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * The login limit must hold under concurrency, inside one tRPC batch,
 * and across usernames from one address (credential stuffing).
 */
let server: TestServer;

beforeAll(async () => {
  // TRUST_PROXY lets each test speak from its own client address (X-Forwarded-For), so they do not share counters.
  server = await startServer({ LOGIN_MAX_FAILURES: '10', LOGIN_WINDOW: '15m', TRUST_PROXY: '1' });
});
afterAll(() => server.close());

let addressCounter = 1;
function freshAddress(): Record<string, string> {
  addressCounter += 1;
  return { 'x-forwarded-for': `198.51.100.${addressCounter}` };
}

function login(username: string, password: string, headers: Record<string, string>) {
  return rest(server.url, 'POST', '/api/auth/login', { body: { username, password }, headers });
}

describe('failed logins are counted before the password is checked', () => {
  it('60 parallel wrong passwords plus the right one: at most 10 are checked, the rest answer 429', async () => {
    const user = await registerUser(server.url);
    const headers = freshAddress();
    const attempts = [
      ...Array.from({ length: 60 }, () => login(user.user.username, 'wrong-password', headers)),
      login(user.user.username, user.password, headers),
    ];
    const answers = await Promise.all(attempts);
    const statuses = answers.map((a) => a.status);
    const checked = statuses.filter((s) => s === 401 || s === 200).length;
    expect(checked).toBeLessThanOrEqual(10);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(51);
    expect(statuses.every((s) => s === 401 || s === 200 || s === 429)).toBe(true);
    for (const answer of answers.filter((a) => a.status === 429)) {
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // The counter was not reset by anything: the right password is still refused for now.
    const after = await login(user.user.username, user.password, headers);
    if (statuses.at(-1) !== 200) expect(after.status).toBe(429);
  });

  it('a success does not wipe the failures counted before it', async () => {
    const user = await registerUser(server.url);
    const headers = freshAddress();
    for (let i = 0; i < 9; i++) expect((await login(user.user.username, 'wrong-password', headers)).status).toBe(401);
    expect((await login(user.user.username, user.password, headers)).status).toBe(200);
    expect((await login(user.user.username, 'wrong-password', headers)).status).toBe(401);
    expect((await login(user.user.username, user.password, headers)).status).toBe(429);
  });
});

describe('tRPC batches', () => {
  it('refuses a batch of 49 wrong and 1 right login: auth procedures are never batched', async () => {
    const user = await registerUser(server.url);
    const headers = freshAddress();
    const calls = 50;
    const input: Record<string, unknown> = {};
    for (let i = 0; i < calls; i++)
      input[i] = { username: user.user.username, password: i === calls - 1 ? user.password : `wrong-${i}` };
    const res = await fetch(`${server.url}/trpc/${Array(calls).fill('auth.login').join(',')}?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(input),
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text).not.toContain('accessToken');

    const two: Record<string, unknown> = {
      0: { username: user.user.username, password: 'x' },
      1: { name: 'Groceries' },
    };
    const mixed = await fetch(`${server.url}/trpc/auth.login,categories.create?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(two),
    });
    expect(mixed.status).toBe(400);
    expect(await mixed.text()).toContain('cannot be batched');

    // A batch of one sign-in call is how the browser's client sends it: still answered.
    const single = await fetch(`${server.url}/trpc/auth.login?batch=1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify({ 0: { username: user.user.username, password: user.password } }),
    });
    expect(single.status).toBe(200);
  });

  it('answers at most 20 calls per batch', async () => {
    const user = await registerUser(server.url);
    const call = (n: number) =>
      fetch(
        `${server.url}/trpc/${Array(n).fill('categories.list').join(',')}?batch=1&input=${encodeURIComponent('{}')}`,
        {
          headers: { authorization: `Bearer ${user.accessToken}` },
        },
      );
    expect((await call(20)).status).toBe(200);
    const tooMany = await call(21);
    expect(tooMany.status).toBe(400);
    expect(await tooMany.text()).toMatch(/at most 20|maximum size/);
  });
});

describe('per-address limit across usernames (credential stuffing)', () => {
  it('answers 429 with Retry-After after 50 failures from one address, whatever the usernames', async () => {
    const headers = freshAddress();
    const answers = [];
    for (let i = 0; i < 60; i++) answers.push(await login(`stuffed-${i}`, 'password-guess', headers));
    const statuses = answers.map((a) => a.status);
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
    expect(Number(answers[55].headers.get('retry-after'))).toBeGreaterThan(0);
    expect(answers[55].body.error).toMatch(/Too many failed/);

    // Another address is not affected.
    const user = await registerUser(server.url);
    expect((await login(user.user.username, user.password, freshAddress())).status).toBe(200);
    // The blocked address is refused even with the right password, in parallel too.
    const blocked = await Promise.all(
      Array.from({ length: 5 }, () => login(user.user.username, user.password, headers)),
    );
    expect(blocked.map((b) => b.status)).toEqual([429, 429, 429, 429, 429]);
  });
});
