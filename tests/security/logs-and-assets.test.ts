import { trpcClient } from '../helpers/trpc-client';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Logs never carry SQL with inlined values, passwords, tokens or the
 * Authorization header, and a 500 answer carries an error id its log line also has; no source
 * maps are served.
 */
class Capture extends Writable {
  lines: string[] = [];
  override _write(chunk: Buffer, _encoding: string, done: () => void) {
    this.lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    done();
  }
  get text() {
    return this.lines.join('\n');
  }
}

describe('logs', () => {
  let server: TestServer;
  const capture = new Capture();
  beforeAll(async () => {
    server = await startServer({ LOG_LEVEL: 'trace' }, { logStream: capture });
  });
  afterAll(() => server.close());

  it('never logs passwords, tokens or Authorization headers', async () => {
    const user = await registerUser(server.url, 'log-user', 'Password-S3CRET-value');
    await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: 'log-user', password: 'Password-S3CRET-value' },
    });
    await rest(server.url, 'POST', '/api/auth/login', {
      body: { username: 'log-user', password: 'Wrong-S3CRET-guess' },
    });
    await trpcClient(server.url).auth.login.mutate({ username: 'log-user', password: 'Trpc-S3CRET-guess' });
    await rest(server.url, 'GET', '/api/auth/me', { token: user.accessToken });
    await rest(server.url, 'POST', '/api/auth/refresh', { token: user.refreshToken });
    await rest(server.url, 'PUT', '/api/auth/profile', {
      token: user.accessToken,
      body: { apiToken: 'btapi_S3CRETtokenS3CRETtokenS3CRETtoken0123456', currentPassword: 'Password-S3CRET-value' },
    });
    const text = capture.text;
    expect(text.length).toBeGreaterThan(0);
    expect(text).not.toContain('S3CRET');
    expect(text).not.toContain(user.accessToken);
    expect(text).not.toContain(user.refreshToken);
    expect(text).not.toMatch(/Bearer /);
  });

  it('a 500 from a failing query logs an error id, never the SQL with its values', async () => {
    const user = await registerUser(server.url);
    // Break the envelopes table behind the server's back, so the next insert fails inside the driver.
    await server.app.orm.em.fork().getConnection().execute('drop table envelope');
    const marker = 'Envelope-S3CRET-name';
    const res = await rest(server.url, 'POST', '/api/envelopes', {
      token: user.accessToken,
      body: { name: marker, categories: ['Rent-S3CRET'] },
    });
    expect(res.status).toBe(500);
    expect(res.body.errorId).toMatch(/^[A-Za-z0-9-]{8,}$/);
    expect(res.body.error).toContain(res.body.errorId);
    const line = capture.lines.find((l) => l.includes(res.body.errorId) && l.includes('"level":50'));
    expect(line, 'an error log line with the same id').toBeDefined();
    expect(capture.text).not.toContain('S3CRET');
    expect(capture.text).not.toMatch(/insert into/i);

    const t = await trpcClient(server.url, user.accessToken).envelopes.create.mutate({
      name: marker,
      categories: ['x'],
    });
    expect(t.status).toBe(500);
    const trpcId = (t.error?.data as { errorId?: string }).errorId;
    expect(trpcId).toMatch(/^[A-Za-z0-9-]{8,}$/);
    expect(capture.lines.some((l) => l.includes(trpcId!) && l.includes('"level":50'))).toBe(true);
    expect(capture.text).not.toContain('S3CRET');
  });
});

describe('source maps', () => {
  let server: TestServer;
  let clientDir: string;
  beforeAll(async () => {
    clientDir = mkdtempSync(path.join(os.tmpdir(), 'bt-client-'));
    mkdirSync(path.join(clientDir, 'assets'));
    writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>t</title>');
    writeFileSync(path.join(clientDir, 'assets', 'app.js'), 'console.log(1)\n');
    writeFileSync(path.join(clientDir, 'assets', 'app.js.map'), '{"version":3,"sources":["secret.ts"]}');
    server = await startServer({ CLIENT_DIR: clientDir });
  });
  afterAll(async () => {
    await server.close();
    rmSync(clientDir, { recursive: true, force: true });
  });

  it('serves no .map file even when one is on disk', async () => {
    expect((await fetch(`${server.url}/assets/app.js`)).status).toBe(200);
    const map = await fetch(`${server.url}/assets/app.js.map`);
    expect(map.status).toBe(404);
    expect(await map.text()).not.toContain('secret.ts');
  });
  // That the production build has no source maps and points at none: tests/e2e/bundle-size.test.ts (after the build).
});
