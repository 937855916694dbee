import { trpcClient } from '../helpers/trpc-client';
import { afterEach, describe, expect, it } from 'vitest';
import { generateApiToken } from '../../src/client/features/profile/profile-helpers';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Weak API tokens are refused, generated ones carry a recognisable prefix,
 * and guessing bearer tokens is counted per address like failed logins.
 * A token with two dots (read as an access token) can never be saved as an API token.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function setToken(apiToken: string) {
  const user = await registerUser(server!.url);
  return rest(server!.url, 'PUT', '/api/auth/profile', {
    token: user.accessToken,
    body: { apiToken, currentPassword: user.password },
  });
}

describe('API token strength', () => {
  it.each([
    ['a'.repeat(32)],
    ['a'.repeat(200)],
    ['abcdefghijklmnopqrstuvwxyz012345'],
    ['abcabcabcabcabcabcabcabcabcabcabcabc'],
    ['Password123Password123Password123!'],
    ['0123456789abcdef0123456789abcdef0123456789'],
    ['btapi_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'],
  ])('refuses %s as too guessable', async (token) => {
    server ??= await startServer();
    const res = await setToken(token);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/apiToken: .*128 bits/);
  });

  it('refuses a token with two dots, which would be read as an access token', async () => {
    server = await startServer();
    const res = await setToken('Zk3r9QxT2mPa.Lq7Vw8Yb4Nc1Hd.Gs6Fj5Ke0Rt3Uz');
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('dots');
  });

  it('accepts strong tokens, and the Profile screen generates them with the btapi_ prefix', async () => {
    server = await startServer();
    const generated = generateApiToken();
    expect(generated).toMatch(/^btapi_[A-Za-z0-9_-]{43}$/);
    expect(generateApiToken()).not.toBe(generated);
    expect((await setToken(generated)).status).toBe(200);
    const hex = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('hex');
    expect((await setToken(hex)).status).toBe(200);
  });
});

describe('guessing bearer tokens', () => {
  it('answers 429 with Retry-After after 50 wrong bearer tokens from one address; sessions there keep working', async () => {
    server = await startServer({ TRUST_PROXY: '1' });
    const user = await registerUser(server.url);
    const apiToken = generateApiToken();
    expect(
      (
        await rest(server.url, 'PUT', '/api/auth/profile', {
          token: user.accessToken,
          body: { apiToken, currentPassword: user.password },
        })
      ).status,
    ).toBe(200);
    const attacker = { 'x-forwarded-for': '203.0.113.50' };
    const statuses: number[] = [];
    const guesses = Array.from({ length: 300 }, (_, i) => `btapi_${String(i).padStart(43, 'Q')}`);
    for (let i = 0; i < guesses.length; i += 30) {
      const batch = await Promise.all(
        guesses.slice(i, i + 30).map((token) => rest(server!.url, 'GET', '/api/auth/me', { token, headers: attacker })),
      );
      statuses.push(...batch.map((r) => r.status));
    }
    expect(statuses.filter((s) => s === 401).length).toBeLessThanOrEqual(50);
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(250);
    const refused = await rest(server.url, 'GET', '/api/auth/me', {
      token: 'btapi_not-a-real-token-but-long-enough-1234',
      headers: attacker,
    });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    // Even a right guess from there is refused now, so guessing teaches nothing.
    expect((await rest(server.url, 'GET', '/api/auth/me', { token: apiToken, headers: attacker })).status).toBe(429);
    expect((await trpcClient(server.url, apiToken).auth.me.query()).status).toBe(200);
    // A signed-in browser at that address is not locked out, and other addresses are unaffected.
    expect((await rest(server.url, 'GET', '/api/auth/me', { token: user.accessToken, headers: attacker })).status).toBe(
      200,
    );
    expect(
      (
        await rest(server.url, 'GET', '/api/auth/me', {
          token: apiToken,
          headers: { 'x-forwarded-for': '203.0.113.51' },
        })
      ).status,
    ).toBe(200);
    // Sign-in attempts from that address wait too: one counter per address.
    const login = await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: user.user.username, password: user.password },
      headers: attacker,
    });
    expect(login.status).toBe(429);
  });

  it('counts forged access tokens too', async () => {
    server = await startServer({ TRUST_PROXY: '1' });
    const user = await registerUser(server.url);
    const [header, payload] = user.accessToken.split('.');
    const attacker = { 'x-forwarded-for': '203.0.113.60' };
    const statuses: number[] = [];
    for (let i = 0; i < 55; i++) {
      statuses.push(
        (await rest(server.url, 'GET', '/api/auth/me', { token: `${header}.${payload}.forged${i}`, headers: attacker }))
          .status,
      );
    }
    expect(statuses.slice(0, 50).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
  });
});
