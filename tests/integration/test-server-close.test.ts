import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { startServer } from '../helpers/server';

/**
 * The test servers' own close: a clean-clone CI run (load ~10) hung 60 s in an afterAll because a
 * static file's response was still being written to a fetch whose body the test never read; the
 * keep-alive connection held the server's close for keepAliveTimeout (72 s). Here the response
 * cannot finish (20 MB, never read): the close must not wait for it (this test's 30 s limit).
 */
const clientDir = mkdtempSync(path.join(os.tmpdir(), 'bt-client-'));
afterAll(() => rmSync(clientDir, { recursive: true, force: true }));

it('closes a test server at once while a response is still streaming to an unread fetch', async () => {
  mkdirSync(path.join(clientDir, 'assets'));
  writeFileSync(path.join(clientDir, 'index.html'), '<!doctype html><title>t</title>');
  writeFileSync(path.join(clientDir, 'assets', 'big.js'), 'x'.repeat(20_000_000));
  const server = await startServer({ CLIENT_DIR: clientDir });
  const res = await fetch(`${server.url}/assets/big.js`);
  expect(res.status).toBe(200);
  await server.close();
  // The unread body ends with the connection, as an error, not as a whole file.
  await expect(res.text()).rejects.toThrow();
});
