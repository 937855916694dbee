import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD_HASH_COST } from '../helpers/password-cost';

/** The production entry point: `node dist/server/main.js`, as `npm start` and the Dockerfile run it. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

let child: ChildProcess;
let url: string;
let dataDir: string;
let output = '';

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-bundle-'));
  const port = await freePort();
  url = `http://127.0.0.1:${port}`;
  child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'info',
      PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  // Waits for the server to answer (a loaded machine may take a while) or to exit.
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline && child.exitCode === null) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`server did not start:\n${output}`);
});

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('the built server', () => {
  it('serves the app on / and on every client route, with security headers', async () => {
    for (const route of ['/', '/upload', '/transactions', '/create-budget']) {
      const res = await fetch(`${url}${route}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      const html = await res.text();
      expect(html).toContain('<div id="root"></div>');
      expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('serves hashed assets with a long cache and unknown API paths as JSON 404s', async () => {
    const html = await (await fetch(url)).text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)![1];
    const res = await fetch(`${url}${asset}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toContain('immutable');
    // Read the whole asset: an unread body keeps the connection busy, and the SIGTERM test below
    // would then wait for it until the grace period runs out.
    expect((await res.arrayBuffer()).byteLength).toBeGreaterThan(0);
    const missing = await fetch(`${url}/api/unknown`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      error: 'No such endpoint: GET /api/unknown',
      message: 'No such endpoint: GET /api/unknown',
    });
  });

  it('creates the SQLite file and a private signing secret in the data directory', () => {
    expect(statSync(path.join(dataDir, 'budget-tracker.sqlite')).size).toBeGreaterThan(0);
    expect(statSync(path.join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
    expect(output).toContain('applied migration');
  });

  it('closes gracefully on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });
});
