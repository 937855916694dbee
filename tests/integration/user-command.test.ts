import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { TEST_PASSWORD_HASH_COST } from '../helpers/password-cost';
import { bundledEntry } from '../helpers/process';
import { startServer, type TestServer } from '../helpers/server';

/**
 * `npm run user -- reset-password NAME` (dist/server/user.js in the Docker image), run beside a live server on the
 * same database (SQLite here, PostgreSQL in the integration-pg project): it prints a new password, the old one stops
 * working, and every sign-in of the user ends.
 */
const run = promisify(execFile);
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

async function userCommand(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const env = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
    ...(server.config.databaseUrl
      ? { DATABASE_URL: server.config.databaseUrl, DATA_DIR: server.dataDir }
      : { DATA_DIR: server.dataDir, DATABASE_FILE: server.config.databaseFile }),
  };
  try {
    const { stdout, stderr } = await run(process.execPath, [bundledEntry('scripts/user.ts'), ...args], {
      cwd: path.resolve('.'),
      env,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

describe('npm run user -- reset-password', () => {
  it('prints a new password that signs in, and ends every sign-in of the user', async () => {
    const user = await registerUser(server.url);
    const other = await registerUser(server.url);
    const laptop = await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: user.user.username, password: user.password },
    });
    expect(laptop.status).toBe(200);

    const result = await userCommand('reset-password', user.user.username.toUpperCase());
    expect(result.code, result.stderr).toBe(0);
    const password = /New password for \S+: (\S+)/.exec(result.stdout)?.[1];
    expect(password).toMatch(/^[\w-]{24}$/);
    expect(result.stdout).toContain('Ended 2 sign-in(s)');

    const old = await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: user.user.username, password: user.password },
    });
    expect(old.status).toBe(401);
    const fresh = await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: user.user.username, password },
    });
    expect(fresh.status).toBe(200);
    // The running server notices the ended sign-ins within its check interval.
    for (const token of [user.accessToken, laptop.body.accessToken as string]) {
      await expect
        .poll(async () => (await rest(server.url, 'GET', '/api/auth/me', { token })).status, { timeout: 15_000 })
        .toBe(401);
    }
    expect((await rest(server.url, 'POST', '/api/auth/refresh', { token: user.refreshToken })).status).toBe(401);
    // Nobody else is touched.
    expect((await rest(server.url, 'GET', '/api/auth/me', { token: other.accessToken })).status).toBe(200);
  });

  it('names an unknown user and a wrong command', async () => {
    const unknown = await userCommand('reset-password', 'nobody-by-this-name');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('No user named "nobody-by-this-name"');
    const wrong = await userCommand('delete-everything');
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Usage: npm run user -- reset-password NAME');
  });
});
