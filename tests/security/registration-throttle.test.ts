import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../src/server/modules/auth/crypto';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { trpcClient } from '../helpers/trpc-client';

/**
 * Registration is open by default, so anyone can make the server hash passwords: each client address may try
 * REGISTRATIONS_PER_ADDRESS registrations an hour (429 with Retry-After beyond), and a name that is taken is refused
 * before the password hash runs.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const from = (address: string) => ({ 'x-forwarded-for': address });

function register(url: string, username: string, address: string) {
  return rest(url, 'POST', '/api/auth/register', {
    body: { username, password: 'correct horse battery' },
    headers: from(address),
  });
}

describe('registrations from one address', () => {
  it('are refused with 429 and Retry-After once the hourly allowance is spent, over REST and tRPC', async () => {
    server = await startServer({ REGISTRATIONS_PER_ADDRESS: '3', TRUST_PROXY: 'true' });
    const url = server.url;
    const first = await Promise.all([0, 1, 2].map((i) => register(url, `burst${i}`, '203.0.113.7')));
    expect(first.map((r) => r.status)).toEqual([200, 200, 200]);

    const refused = await register(url, 'burst3', '203.0.113.7');
    expect(refused.status).toBe(429);
    expect(refused.body.error).toMatch(/accounts created from your address/i);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3000);
    const viaTrpc = await fetch(`${url}/trpc/auth.register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...from('203.0.113.7') },
      body: JSON.stringify({ username: 'burst4', password: 'correct horse battery' }),
    });
    expect(viaTrpc.status).toBe(429);
    const users = await server.sql<{ n: number }>('select count(*) as n from "user"');
    expect(Number(users[0].n)).toBe(3);

    // Another address has its own allowance.
    expect((await register(url, 'elsewhere', '198.51.100.4')).status).toBe(200);
  });

  it('count every attempt, a taken name included, so names cannot be probed without limit', async () => {
    server = await startServer({ REGISTRATIONS_PER_ADDRESS: '2', TRUST_PROXY: 'true' });
    expect((await register(server.url, 'taken', '203.0.113.9')).status).toBe(200);
    expect((await register(server.url, 'Taken', '203.0.113.9')).status).toBe(409);
    expect((await register(server.url, 'fresh', '203.0.113.9')).status).toBe(429);
  });

  it('a concurrent burst cannot exceed the allowance', async () => {
    server = await startServer({ REGISTRATIONS_PER_ADDRESS: '4', TRUST_PROXY: 'true' });
    const url = server.url;
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => register(url, `racer${i}`, '203.0.113.11')));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(4);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(16);
  });
});

describe('a taken username', () => {
  it('is refused with 409 before the password is hashed, over REST and tRPC', async () => {
    const hashing = vi.fn(hashPassword);
    server = await startServer({}, { passwords: { hash: hashing } });
    expect((await register(server.url, 'Alice', '127.0.0.1')).status).toBe(200);
    expect(hashing).toHaveBeenCalledTimes(1);

    const again = await register(server.url, 'alice', '127.0.0.1');
    expect(again.status).toBe(409);
    expect(again.body.error).toMatch(/already taken/);
    const viaTrpc = await trpcClient(server.url, null).auth.register.mutate({
      username: 'ALICE',
      password: 'another password',
    });
    expect(viaTrpc.status).toBe(409);
    expect(hashing).toHaveBeenCalledTimes(1);
  });
});
