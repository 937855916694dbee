import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

/**
 * The client's fetch wrapper: one refresh for any number of concurrent 401/403s,
 * each retried once with the new token; a failed refresh ends the session.
 */
class MemoryStorage {
  private items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
  get length() {
    return this.items.size;
  }
}

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

let calls: Array<{ url: string; auth: string | null }>;
let validToken: string;
let refreshResult: 'ok' | 'fail';

beforeEach(() => {
  vi.resetModules();
  calls = [];
  validToken = 'access-2';
  refreshResult = 'ok';
  const storage = new MemoryStorage();
  storage.setItem('accessToken', 'access-1');
  storage.setItem('refreshToken', 'refresh-1');
  storage.setItem('user', JSON.stringify({ id: 1, username: 'a', apiTokenSet: false, apiTokenCreatedAt: null }));
  vi.stubGlobal('localStorage', storage);
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init?: RequestInit) => {
      const auth = new Headers(init?.headers).get('authorization');
      calls.push({ url: input, auth });
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (input === '/api/auth/refresh') {
        if (refreshResult === 'fail' || auth !== 'Bearer refresh-1')
          return json(401, { error: 'Invalid or expired refresh token' });
        return json(200, { accessToken: 'access-2', refreshToken: 'refresh-2', user: { id: 1, username: 'a' } });
      }
      if (input.startsWith('/trpc/mixed')) {
        return json(207, [
          { result: { data: 1 } },
          auth === `Bearer ${validToken}` ? { result: { data: 2 } } : { error: { data: { httpStatus: 401 } } },
        ]);
      }
      if (input.includes('auth.updateProfile'))
        return json(403, { error: { message: 'Current password is incorrect', data: { httpStatus: 403 } } });
      return auth === `Bearer ${validToken}`
        ? json(200, { ok: true })
        : json(input.includes('forbidden') ? 403 : 401, { error: 'expired' });
    }),
  );
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('authFetch', () => {
  it('refreshes once for concurrent failures and retries each with the new token', async () => {
    const { authFetch } = await import('../../src/client/lib/authFetch');
    const results = await Promise.all([authFetch('/trpc/a'), authFetch('/trpc/b'), authFetch('/api/forbidden')]);
    expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
    expect(
      calls
        .filter((c) => c.auth === 'Bearer access-2')
        .map((c) => c.url)
        .sort(),
    ).toEqual(['/api/forbidden', '/trpc/a', '/trpc/b']);
    expect(localStorage.getItem('refreshToken')).toBe('refresh-2');
  });

  it('treats a tRPC batch with a 401 inside a 207 as a failed request', async () => {
    const { authFetch } = await import('../../src/client/lib/authFetch');
    const res = await authFetch('/trpc/mixed');
    expect(res.status).toBe(207);
    expect(await res.json()).toEqual([{ result: { data: 1 } }, { result: { data: 2 } }]);
    expect(calls.map((c) => c.url)).toEqual(['/trpc/mixed', '/api/auth/refresh', '/trpc/mixed']);
  });

  it('does not refresh for a request that succeeded or for the login call', async () => {
    validToken = 'access-1';
    const { authFetch } = await import('../../src/client/lib/authFetch');
    expect((await authFetch('/trpc/a')).status).toBe(200);
    validToken = 'nobody';
    expect((await authFetch('/trpc/auth.login')).status).toBe(401);
    expect(calls.some((c) => c.url === '/api/auth/refresh')).toBe(false);
  });

  it('ends the session when the refresh fails', async () => {
    refreshResult = 'fail';
    const module = await import('../../src/client/lib/authFetch');
    const expired = vi.fn(() => localStorage.removeItem('accessToken'));
    module.setOnSessionExpired(expired);
    const results = await Promise.all([module.authFetch('/trpc/a'), module.authFetch('/trpc/b')]);
    expect(results.map((r) => r.status)).toEqual([401, 401]);
    expect(calls.filter((c) => c.url === '/api/auth/refresh')).toHaveLength(1);
    expect(expired).toHaveBeenCalled();
  });

  it('does not refresh or retry when a profile change is refused for a wrong current password (403)', async () => {
    const { authFetch } = await import('../../src/client/lib/authFetch');
    const res = await authFetch('/trpc/auth.updateProfile', { method: 'POST', body: '{}' });
    expect(res.status).toBe(403);
    expect(calls.map((c) => c.url)).toEqual(['/trpc/auth.updateProfile']);
  });

  it('sends no Authorization header without a stored token', async () => {
    localStorage.removeItem('accessToken');
    const { authFetch } = await import('../../src/client/lib/authFetch');
    expect((await authFetch('/trpc/auth.status')).status).toBe(401);
    expect(calls).toEqual([{ url: '/trpc/auth.status', auth: null }]);
  });
});
