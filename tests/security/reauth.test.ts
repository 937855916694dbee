import { trpcClient } from '../helpers/trpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * A leaked access token or API token must not take over the account.
 * Changing the password, the username or the API token needs the current password; a wrong
 * one answers 403 and counts as a failed login.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ LOGIN_MAX_FAILURES: '10' });
});
afterAll(() => server.close());

const STRONG_TOKEN = () => `btapi_${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url')}`;

async function withApiToken() {
  const user = await registerUser(server.url);
  const apiToken = STRONG_TOKEN();
  const set = await rest(server.url, 'PUT', '/api/auth/profile', {
    token: user.accessToken,
    body: { apiToken, currentPassword: user.password },
  });
  expect(set.status).toBe(200);
  return { ...user, apiToken };
}

async function me(token: string) {
  return (await rest(server.url, 'GET', '/api/auth/me', { token })).body;
}

describe('a stolen token alone cannot change the credentials', () => {
  const changes = (username: string) => [
    { password: 'attacker-password' },
    { username: `${username}-stolen` },
    { apiToken: STRONG_TOKEN() },
    { apiToken: null },
  ];

  it('refuses every credential change without currentPassword, over an access token and an API token (REST)', async () => {
    const user = await withApiToken();
    const before = await me(user.accessToken);
    for (const token of [user.accessToken, user.apiToken]) {
      for (const change of changes(user.user.username)) {
        const res = await rest(server.url, 'PUT', '/api/auth/profile', { token, body: change });
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.body.error).toContain('currentPassword');
      }
    }
    expect(await me(user.accessToken)).toEqual(before);
    expect(
      (
        await rest(server.url, 'POST', '/api/auth/login', {
          body: { username: user.user.username, password: user.password },
        })
      ).status,
    ).toBe(200);
  });

  it('refuses them over tRPC too', async () => {
    const user = await withApiToken();
    for (const token of [user.accessToken, user.apiToken]) {
      for (const change of changes(user.user.username)) {
        const res = await trpcClient(server.url, token).auth.updateProfile.mutate(change);
        expect(res.status, JSON.stringify(change)).toBe(400);
        expect(res.error?.message).toContain('currentPassword');
      }
    }
  });

  it('answers 403 for a wrong current password, changes nothing, and counts it as a failed login', async () => {
    const user = await withApiToken();
    const before = await me(user.accessToken);
    for (let i = 0; i < 5; i++) {
      const res = await rest(server.url, 'PUT', '/api/auth/profile', {
        token: user.apiToken,
        body: { password: 'attacker-password', currentPassword: `guess-${i}` },
      });
      expect(res.status).toBe(403);
      expect(res.body.error).toBe('Current password is incorrect');
    }
    for (let i = 0; i < 5; i++) {
      const res = await trpcClient(server.url, user.accessToken).auth.updateProfile.mutate({
        username: 'taken-over',
        currentPassword: `guess-t${i}`,
      });
      expect(res.status).toBe(403);
    }
    expect(await me(user.accessToken)).toEqual(before);
    // Ten failures: further guesses, and even the right password, wait.
    const eleventh = await rest(server.url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { password: 'attacker-password', currentPassword: user.password },
    });
    expect(eleventh.status).toBe(429);
    expect(Number(eleventh.headers.get('retry-after'))).toBeGreaterThan(0);
    const login = await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: user.user.username, password: user.password },
    });
    expect(login.status).toBe(429);
  });

  it('accepts the changes with the right current password', async () => {
    const user = await withApiToken();
    const res = await rest(server.url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { username: `${user.user.username}-new`, password: 'brand-new-password', currentPassword: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe(`${user.user.username}-new`);
    const login = await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: `${user.user.username}-new`, password: 'brand-new-password' },
    });
    expect(login.status).toBe(200);
  });
});
