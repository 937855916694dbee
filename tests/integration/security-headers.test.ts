/**
 * Every answer carries the same security headers, whatever it is: a signed-in JSON answer, a refusal, an unknown
 * path, the health check, and over HTTPS (a trusted proxy's X-Forwarded-Proto) with HSTS besides.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

const EXPECTED: Record<string, string> = {
  'content-security-policy':
    "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;connect-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

let server: TestServer;
beforeAll(async () => {
  server = await startServer({ TRUST_PROXY: '1' });
});
afterAll(() => server.close());

function securityHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of [...Object.keys(EXPECTED), 'strict-transport-security']) {
    const value = headers.get(name);
    if (value !== null) out[name] = value;
  }
  return out;
}

describe('security headers', () => {
  it('are the same on every kind of answer, with HSTS only over HTTPS', async () => {
    const user = await registerUser(server.url);
    const answers = [
      await rest(server.url, 'GET', '/api/health'),
      await rest(server.url, 'GET', '/api/plan/2024-05', { token: user.accessToken }),
      await rest(server.url, 'GET', '/api/plan/2024-05'),
      await rest(server.url, 'GET', '/api/does-not-exist'),
      await rest(server.url, 'GET', '/trpc/nope.nothing'),
    ];
    expect(answers.map((res) => res.status)).toEqual([200, 200, 401, 404, 404]);
    for (const res of answers) expect(securityHeaders(res.headers)).toEqual(EXPECTED);
    const https = await rest(server.url, 'GET', '/api/health', { headers: { 'x-forwarded-proto': 'https' } });
    expect(securityHeaders(https.headers)).toEqual({ ...EXPECTED, 'strict-transport-security': 'max-age=31536000' });
  });
});
