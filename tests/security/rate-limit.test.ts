import { trpcClient } from '../helpers/trpc-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateApiToken } from '../../src/client/features/profile/profile-helpers';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Requests per API token are limited (API_TOKEN_RATE_LIMIT a minute, 600 by
 * default) with 429 and Retry-After; /api/health and the browser's own session are exempt.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer({ API_TOKEN_RATE_LIMIT: '30' });
});
afterAll(() => server.close());

async function userWithToken() {
  const user = await registerUser(server.url);
  const apiToken = generateApiToken();
  const res = await rest(server.url, 'PUT', '/api/auth/profile', {
    token: user.accessToken,
    body: { apiToken, currentPassword: user.password },
  });
  expect(res.status).toBe(200);
  return { ...user, apiToken };
}

describe('per-token request limit', () => {
  it('answers 429 with Retry-After past the limit, counting REST and tRPC alike', async () => {
    const user = await userWithToken();
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++)
      statuses.push((await rest(server.url, 'GET', '/api/categories', { token: user.apiToken })).status);
    for (let i = 0; i < 10; i++)
      statuses.push((await trpcClient(server.url, user.apiToken).categories.list.query()).status);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const over = await rest(server.url, 'GET', '/api/categories', { token: user.apiToken });
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(over.body.error).toMatch(/Too many requests/);
    expect((await trpcClient(server.url, user.apiToken).categories.list.query()).status).toBe(429);

    // Health (even asked with the exhausted token), the same user's browser session and other tokens are not limited.
    expect((await rest(server.url, 'GET', '/api/health')).status).toBe(200);
    expect((await rest(server.url, 'GET', '/api/health', { token: user.apiToken })).status).toBe(200);
    for (let i = 0; i < 40; i++)
      expect((await rest(server.url, 'GET', '/api/categories', { token: user.accessToken })).status).toBe(200);
    const other = await userWithToken();
    expect((await rest(server.url, 'GET', '/api/categories', { token: other.apiToken })).status).toBe(200);
  });

  it('never limits /api/health', async () => {
    for (let i = 0; i < 80; i++) expect((await rest(server.url, 'GET', '/api/health')).status).toBe(200);
  });
});
