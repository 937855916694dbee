import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBundle, type RunningBundle } from './production-bundle';

/** The production entry point: `node dist/server/main.js`, as `npm start` and the Dockerfile run it. */
let server: RunningBundle;
let url: string;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-bundle-'));
  server = await startBundle({ dataDir });
  url = server.url;
});

afterAll(() => {
  if (server?.child.exitCode === null) server.child.kill('SIGKILL');
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
    expect(server.output()).toContain('applied migration');
  });

  it('closes gracefully on SIGTERM', async () => {
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(0);
  });
});
