import { afterEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/server/modules/auth/crypto';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * PASSWORD_HASH_COST (log2 of scrypt's N) decides the N of new password hashes; a stored hash keeps its own N, so
 * users whose hash was made at another cost still sign in. Test servers run at 10 unless told otherwise.
 */
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function storedHash(s: TestServer, userId: number): Promise<string> {
  const [row] = await s.sql<{ password_hash: string }>('select password_hash from "user" where id = ?', [userId]);
  return row.password_hash;
}

async function login(s: TestServer, username: string, password: string): Promise<number> {
  return (await rest(s.url, 'POST', '/api/auth/login', { body: { username, password } })).status;
}

describe('PASSWORD_HASH_COST', () => {
  it('is 14 (N = 16384) when unset, as in production', async () => {
    // '' counts as unset: the production default instead of the test servers' 10.
    server = await startServer({ PASSWORD_HASH_COST: '' });
    const user = await registerUser(server.url);
    expect(await storedHash(server, user.user.id)).toMatch(/^scrypt\$16384\$8\$1\$[\w-]{22}\$[\w-]{86}$/);
    expect(await login(server, user.user.username, user.password)).toBe(200);
  });

  it('sets the N of new hashes, at sign-up and at a password change, and they sign in', async () => {
    server = await startServer({ PASSWORD_HASH_COST: '12' });
    const user = await registerUser(server.url);
    expect(await storedHash(server, user.user.id)).toMatch(/^scrypt\$4096\$8\$1\$/);
    expect(await login(server, user.user.username, user.password)).toBe(200);
    expect(await login(server, user.user.username, `${user.password}!`)).toBe(401);

    const changed = await rest(server.url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { password: 'a brand new passphrase', currentPassword: user.password },
    });
    expect(changed.status).toBe(200);
    expect(await storedHash(server, user.user.id)).toMatch(/^scrypt\$4096\$8\$1\$/);
    expect(await login(server, user.user.username, 'a brand new passphrase')).toBe(200);
  });

  it('test servers hash at 10 (N = 1024) unless the test says otherwise', async () => {
    server = await startServer();
    const user = await registerUser(server.url);
    expect(await storedHash(server, user.user.id)).toMatch(/^scrypt\$1024\$8\$1\$/);
  });

  it.each([
    ['a higher', 2 ** 14],
    ['a lower', 2 ** 11],
  ])('still signs in a user whose hash was stored at %s cost, and refuses a wrong password', async (_, N) => {
    server = await startServer({ PASSWORD_HASH_COST: '12' });
    const user = await registerUser(server.url);
    const older = await hashPassword('stored at another cost', N);
    await server.sql('update "user" set password_hash = ? where id = ?', [older, user.user.id]);
    expect(await storedHash(server, user.user.id)).toMatch(new RegExp(`^scrypt\\$${N}\\$`));
    expect(await login(server, user.user.username, 'stored at another cost')).toBe(200);
    expect(await login(server, user.user.username, 'stored at another cosT')).toBe(401);
    expect(await login(server, user.user.username, user.password)).toBe(401);
  });
});
