import { afterEach, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Behind a proxy, the client address is the right-most address that is
 * not a trusted proxy, so a client cannot pick its own address by prepending X-Forwarded-For
 * entries. Observed through the login limit, which counts per client address.
 * HSTS only when the request came over HTTPS from a trusted proxy.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function failuresUntilRefused(headersFor: (i: number) => Record<string, string>, tries = 12): Promise<number[]> {
  const user = await registerUser(server!.url);
  const statuses: number[] = [];
  for (let i = 0; i < tries; i++) {
    const res = await rest(server!.url, 'POST', '/api/auth/login', {
      body: { username: user.user.username, password: 'wrong-password' },
      headers: headersFor(i),
    });
    statuses.push(res.status);
  }
  return statuses;
}

const tenFailuresThenRefused = [...Array(10).fill(401), 429, 429];

describe('TRUST_PROXY', () => {
  for (const setting of ['true', '1', '127.0.0.1', 'loopback', '127.0.0.0/8, 10.0.0.1']) {
    it(`with TRUST_PROXY=${setting} a spoofed left-most X-Forwarded-For entry does not change the address`, async () => {
      server = await startServer({ TRUST_PROXY: setting, LOGIN_MAX_FAILURES: '10' });
      const statuses = await failuresUntilRefused((i) => ({ 'x-forwarded-for': `10.9.${i}.1, 203.0.113.7` }));
      expect(statuses).toEqual(tenFailuresThenRefused);
    });
  }

  it('with two hops trusted, the address two hops back is the client', async () => {
    server = await startServer({ TRUST_PROXY: '2', LOGIN_MAX_FAILURES: '10' });
    const statuses = await failuresUntilRefused((i) => ({
      'x-forwarded-for': `10.9.${i}.1, 203.0.113.8, 192.0.2.${i}`,
    }));
    expect(statuses).toEqual(tenFailuresThenRefused);
    // ...and a different client behind the same proxies is counted apart.
    const other = await failuresUntilRefused(() => ({ 'x-forwarded-for': '203.0.113.9, 192.0.2.1' }), 1);
    expect(other).toEqual([401]);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored', async () => {
    server = await startServer({ LOGIN_MAX_FAILURES: '10' });
    const statuses = await failuresUntilRefused((i) => ({ 'x-forwarded-for': `203.0.113.${i}` }));
    expect(statuses).toEqual(tenFailuresThenRefused);
  });

  it('refuses a TRUST_PROXY value that is neither a switch, a hop count nor addresses', async () => {
    await expect(startServer({ TRUST_PROXY: 'everyone' })).rejects.toThrow(/TRUST_PROXY/);
  });
});

describe('HSTS', () => {
  it('is sent when a trusted proxy says the request came over HTTPS, and only then', async () => {
    server = await startServer({ TRUST_PROXY: '1' });
    const https = await rest(server.url, 'GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(https.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/);
    const http = await rest(server.url, 'GET', '/api/health');
    expect(http.headers.get('strict-transport-security')).toBeNull();
  });

  it('is not sent on a spoofed X-Forwarded-Proto without TRUST_PROXY', async () => {
    server = await startServer();
    const res = await rest(server.url, 'GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });
});
