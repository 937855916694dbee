import { trpcClient } from '../helpers/trpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiToken } from '../../src/client/features/profile/profile-helpers';
import { registerUser, rest, trpc } from '../helpers/http';
import { startServer, testDatabase, type TestServer } from '../helpers/server';

let server: TestServer;
let url: string;

beforeAll(async () => {
  server = await startServer({ LOGIN_MAX_FAILURES: '10', LOGIN_WINDOW: '15m' });
  url = server.url;
});
afterAll(() => server.close());

describe('health, 404s and headers', () => {
  it('answers /api/health without auth', async () => {
    const res = await rest(url, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it.skipIf(testDatabase !== 'sqlite')('runs SQLite in WAL mode with foreign keys enforced', async () => {
    const connection = server.app.orm.em.fork().getConnection();
    expect(await connection.execute('pragma journal_mode')).toEqual([{ journal_mode: 'wal' }]);
    expect(await connection.execute('pragma foreign_keys')).toEqual([{ foreign_keys: 1 }]);
  });

  it('answers unknown /api and /trpc paths with JSON 404s', async () => {
    const api = await rest(url, 'GET', '/api/does-not-exist');
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
    expect(api.body).toEqual({
      error: 'No such endpoint: GET /api/does-not-exist',
      message: 'No such endpoint: GET /api/does-not-exist',
    });
    const post = await rest(url, 'POST', '/api/nothing/here', { body: {} });
    expect(post.status).toBe(404);
    const t = await trpc(url, 'query', 'nope.nothing');
    expect(t.status).toBe(404);
    expect(t.error?.data.code).toBe('NOT_FOUND');
  });

  it('sends security headers, with a CSP that allows no inline script', async () => {
    const res = await rest(url, 'GET', '/api/health');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
  });

  it('refuses malformed JSON and oversized bodies with JSON errors', async () => {
    const bad = await rest(url, 'POST', '/api/auth/login', {
      body: '{"username":',
      headers: { 'content-type': 'application/json' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Request body is not valid JSON');
    const big = await rest(url, 'POST', '/api/auth/login', {
      body: { username: 'x', password: 'y'.repeat(2 * 1024 * 1024) },
    });
    expect(big.status).toBe(413);
    expect(big.body.message).toBe('Request body is too large');
  });
});

describe('register and login', () => {
  it('registers a user and answers tokens and the user', async () => {
    const res = await rest(url, 'POST', '/api/auth/register', { body: { username: 'Alice', password: 'password-1' } });
    expect(res.status).toBe(200);
    expect(res.body.accessToken.split('.')).toHaveLength(3);
    expect(typeof res.body.refreshToken).toBe('string');
    expect(res.body.user).toMatchObject({ username: 'Alice', apiTokenSet: false, apiTokenCreatedAt: null });
    expect(res.body.user).not.toHaveProperty('passwordHash');
  });

  it('refuses a username taken regardless of case', async () => {
    const res = await rest(url, 'POST', '/api/auth/register', { body: { username: 'aLiCe', password: 'password-2' } });
    expect(res.status).toBe(409);
    expect(res.body.error).toBe('That username is already taken');
  });

  it('refuses short passwords and empty usernames, naming the field', async () => {
    const res = await rest(url, 'POST', '/api/auth/register', { body: { username: ' ', password: 'short' } });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain('username: Username is required');
    expect(res.body.error).toContain('password: Password must be at least 8 characters');
  });

  it('logs in regardless of username case, over REST and tRPC', async () => {
    const res = await rest(url, 'POST', '/api/auth/login', { body: { username: 'ALICE', password: 'password-1' } });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe('Alice');
    const t = await trpcClient(url).auth.login.mutate({ username: 'alice', password: 'password-1' });
    expect(t.status).toBe(200);
    expect(t.data && 'user' in t.data ? t.data.user.username : null).toBe('Alice');
  });

  it('gives one message for a wrong password and an unknown user', async () => {
    const wrong = await rest(url, 'POST', '/api/auth/login', { body: { username: 'Alice', password: 'nope-nope' } });
    const unknown = await rest(url, 'POST', '/api/auth/login', {
      body: { username: 'nobody-here', password: 'nope-nope' },
    });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
    expect(wrong.body.error).toBe('Invalid username or password');
    const t = await trpcClient(url).auth.login.mutate({ username: 'Alice', password: 'nope-nope' });
    expect(t.status).toBe(401);
    expect(t.error?.message).toBe('Invalid username or password');
  });

  it('answers 429 with Retry-After after ten failures for one username, without locking others', async () => {
    const victim = await registerUser(url);
    const other = await registerUser(url);
    for (let i = 0; i < 10; i++) {
      const res = await rest(url, 'POST', '/api/auth/login', {
        body: { username: victim.user.username, password: 'wrong-guess' },
      });
      expect(res.status).toBe(401);
    }
    const locked = await rest(url, 'POST', '/api/auth/login', {
      body: { username: victim.user.username, password: victim.password },
    });
    expect(locked.status).toBe(429);
    const retryAfter = Number(locked.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(locked.body.error).toMatch(/Too many failed login attempts/);
    const t = await trpcClient(url).auth.login.mutate({ username: victim.user.username, password: victim.password });
    expect(t.status).toBe(429);
    const fine = await rest(url, 'POST', '/api/auth/login', {
      body: { username: other.user.username, password: other.password },
    });
    expect(fine.status).toBe(200);
  });
});

describe('tokens', () => {
  it('rotates refresh tokens: the old one stops working', async () => {
    const user = await registerUser(url);
    const first = await rest(url, 'POST', '/api/auth/refresh', { token: user.refreshToken });
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(user.refreshToken);
    expect(first.body.accessToken.split('.')).toHaveLength(3);
    const again = await rest(url, 'POST', '/api/auth/refresh', { token: user.refreshToken });
    expect(again.status).toBe(401);
    expect(again.body.error).toBe('Invalid or expired refresh token');
  });

  it('revokes the whole sign-in when a spent refresh token is replayed', async () => {
    const user = await registerUser(url);
    const next = await rest(url, 'POST', '/api/auth/refresh', { token: user.refreshToken });
    expect(next.status).toBe(200);
    expect((await rest(url, 'POST', '/api/auth/refresh', { token: user.refreshToken })).status).toBe(401);
    // The replay ended the family, so the newest token is dead too.
    expect((await rest(url, 'POST', '/api/auth/refresh', { token: next.body.refreshToken })).status).toBe(401);
  });

  it('logout revokes the refresh token on the server', async () => {
    const user = await registerUser(url);
    const out = await rest(url, 'POST', '/api/auth/logout', { token: user.refreshToken });
    expect(out.status).toBe(204);
    const res = await rest(url, 'POST', '/api/auth/refresh', { token: user.refreshToken });
    expect(res.status).toBe(401);
  });

  it('never accepts a refresh token as an access token, nor an access or API token as a refresh token', async () => {
    const user = await registerUser(url);
    const asAccess = await rest(url, 'GET', '/api/auth/me', { token: user.refreshToken });
    expect(asAccess.status).toBe(401);
    const trpcAsAccess = await trpcClient(url, user.refreshToken).auth.me.query();
    expect(trpcAsAccess.status).toBe(401);
    const accessAsRefresh = await rest(url, 'POST', '/api/auth/refresh', { token: user.accessToken });
    expect(accessAsRefresh.status).toBe(401);
    const apiToken = generateApiToken();
    expect(
      (
        await rest(url, 'PUT', '/api/auth/profile', {
          token: user.accessToken,
          body: { apiToken, currentPassword: user.password },
        })
      ).status,
    ).toBe(200);
    const apiAsRefresh = await rest(url, 'POST', '/api/auth/refresh', { token: apiToken });
    expect(apiAsRefresh.status).toBe(401);
  });

  it('refuses a tampered or unsigned access token', async () => {
    const user = await registerUser(url);
    const [header, payload] = user.accessToken.split('.');
    const forged = `${header}.${payload}.AAAA`;
    expect((await rest(url, 'GET', '/api/auth/me', { token: forged })).status).toBe(401);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect((await rest(url, 'GET', '/api/auth/me', { token: none })).status).toBe(401);
    expect((await rest(url, 'GET', '/api/auth/me')).status).toBe(401);
  });
});

describe('profile and API token', () => {
  it('changes the username and password', async () => {
    const user = await registerUser(url);
    const newName = `${user.user.username}-renamed`;
    const res = await rest(url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { username: newName, password: 'a brand new password', currentPassword: user.password },
    });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe(newName);
    expect(
      (await rest(url, 'POST', '/api/auth/login', { body: { username: newName, password: user.password } })).status,
    ).toBe(401);
    expect(
      (await rest(url, 'POST', '/api/auth/login', { body: { username: newName, password: 'a brand new password' } }))
        .status,
    ).toBe(200);
  });

  it('a new password ends every other sign-in and keeps the one that changed it', async () => {
    const user = await registerUser(url);
    const other = (
      await rest(url, 'POST', '/api/auth/login', { body: { username: user.user.username, password: user.password } })
    ).body;
    const third = (
      await rest(url, 'POST', '/api/auth/login', { body: { username: user.user.username, password: user.password } })
    ).body;
    // A username-only change signs nobody out.
    expect(
      (
        await rest(url, 'PUT', '/api/auth/profile', {
          token: user.accessToken,
          body: { username: `${user.user.username}-x`, currentPassword: user.password },
        })
      ).status,
    ).toBe(200);
    const third2 = await rest(url, 'POST', '/api/auth/refresh', { token: third.refreshToken });
    expect(third2.status).toBe(200);

    expect(
      (
        await rest(url, 'PUT', '/api/auth/profile', {
          token: user.accessToken,
          body: { password: 'another new password', currentPassword: user.password },
        })
      ).status,
    ).toBe(200);
    expect((await rest(url, 'POST', '/api/auth/refresh', { token: other.refreshToken })).status).toBe(401);
    expect((await rest(url, 'POST', '/api/auth/refresh', { token: third2.body.refreshToken })).status).toBe(401);
    const mine = await rest(url, 'POST', '/api/auth/refresh', { token: user.refreshToken });
    expect(mine.status).toBe(200);

    // Over an API token, a password change ends every sign-in.
    const apiToken = generateApiToken();
    expect(
      (
        await rest(url, 'PUT', '/api/auth/profile', {
          token: mine.body.accessToken,
          body: { apiToken, currentPassword: 'another new password' },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await rest(url, 'PUT', '/api/auth/profile', {
          token: apiToken,
          body: { password: 'yet another password', currentPassword: 'another new password' },
        })
      ).status,
    ).toBe(200);
    expect((await rest(url, 'POST', '/api/auth/refresh', { token: mine.body.refreshToken })).status).toBe(401);
  });

  it('refuses an empty change, a taken username and a short API token, changing nothing', async () => {
    const user = await registerUser(url);
    const currentPassword = user.password;
    const empty = await rest(url, 'PUT', '/api/auth/profile', { token: user.accessToken, body: { currentPassword } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe('No changes to save');
    const taken = await rest(url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { username: 'ALICE', currentPassword },
    });
    expect(taken.status).toBe(409);
    const short = await rest(url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { apiToken: 'too-short', currentPassword },
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe('apiToken: API token must be at least 32 characters');
    const me = await rest(url, 'GET', '/api/auth/me', { token: user.accessToken });
    expect(me.body).toMatchObject({ username: user.user.username, apiTokenSet: false });
  });

  it('accepts the API token as a bearer on REST and tRPC, stores only its hash, and can remove it', async () => {
    const user = await registerUser(url);
    const apiToken = generateApiToken();
    const set = await trpcClient(url, user.accessToken).auth.updateProfile.mutate({
      apiToken,
      currentPassword: user.password,
    });
    expect(set.status).toBe(200);
    expect(set.data?.apiTokenSet).toBe(true);
    expect(set.data?.apiTokenCreatedAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(JSON.stringify(set.data)).not.toContain(apiToken);

    const me = await rest(url, 'GET', '/api/auth/me', { token: apiToken });
    expect(me.status).toBe(200);
    expect(me.body.username).toBe(user.user.username);
    expect((await trpcClient(url, apiToken).auth.me.query()).status).toBe(200);

    const rows = await server.sql('select api_token_hash from "user" where id = ?', [user.user.id]);
    expect(rows[0].api_token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(rows[0].api_token_hash).not.toContain(apiToken);

    expect(
      (
        await rest(url, 'PUT', '/api/auth/profile', {
          token: apiToken,
          body: { apiToken: null, currentPassword: user.password },
        })
      ).status,
    ).toBe(200);
    expect((await rest(url, 'GET', '/api/auth/me', { token: apiToken })).status).toBe(401);
  });
});

describe('registration switch', () => {
  it('closes registration once the first user exists when ALLOW_REGISTRATION=false', async () => {
    const closed = await startServer({ ALLOW_REGISTRATION: 'false' });
    try {
      expect((await rest(closed.url, 'GET', '/api/auth/status')).body).toEqual({
        hasUsers: false,
        registrationOpen: true,
      });
      expect(
        (await rest(closed.url, 'POST', '/api/auth/register', { body: { username: 'owner', password: 'password-1' } }))
          .status,
      ).toBe(200);
      expect((await rest(closed.url, 'GET', '/api/auth/status')).body).toEqual({
        hasUsers: true,
        registrationOpen: false,
      });
      const second = await rest(closed.url, 'POST', '/api/auth/register', {
        body: { username: 'guest', password: 'password-1' },
      });
      expect(second.status).toBe(403);
      expect(second.body.error).toBe('Registration is closed on this server');
    } finally {
      await closed.close();
    }
  });
});

describe('access token lifetime', () => {
  it('refuses an expired access token, and the refresh token renews it', async () => {
    // Three seconds: long enough that a renewed token is still fresh when it is used on a loaded
    // machine, short enough to wait for the first one to lapse (polled, not slept).
    const short = await startServer({ ACCESS_TOKEN_TTL: '3' });
    try {
      const user = await registerUser(short.url);
      expect((await rest(short.url, 'GET', '/api/auth/me', { token: user.accessToken })).status).toBe(200);
      await expect
        .poll(async () => (await rest(short.url, 'GET', '/api/auth/me', { token: user.accessToken })).status, {
          timeout: 15_000,
          interval: 250,
        })
        .toBe(401);
      const expired = await rest(short.url, 'GET', '/api/auth/me', { token: user.accessToken });
      expect(expired.status).toBe(401);
      expect(expired.body.error).toBe('Invalid or expired access token');
      const renewed = await rest(short.url, 'POST', '/api/auth/refresh', { token: user.refreshToken });
      expect((await rest(short.url, 'GET', '/api/auth/me', { token: renewed.body.accessToken })).status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('keeps the signing secret in the data directory so tokens survive a restart', async () => {
    const first = await startServer();
    const user = await registerUser(first.url);
    await first.app.close();
    const { buildApp } = await import('../../src/server/app');
    const again = await buildApp(first.config, { logger: false });
    try {
      await again.listen({ port: 0, host: '127.0.0.1' });
      const port = (again.server.address() as { port: number }).port;
      const me = await rest(`http://127.0.0.1:${port}`, 'GET', '/api/auth/me', { token: user.accessToken });
      expect(me.status).toBe(200);
    } finally {
      await again.close();
      await first.close().catch(() => undefined);
    }
  });
});
