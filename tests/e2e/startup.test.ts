import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBundle } from './production-bundle';

/**
 * Start-up does only what the first request needs: the production
 * bundle (`node dist/server/main.js`) on a database whose schema is current loads neither the
 * migration runner nor the other database's driver. A preload records which packages the process
 * loaded (the code files in require.cache; MikroORM reads its packages' package.json files only
 * to compare versions) when it exits.
 */
const PRELOAD = `
const { writeFileSync } = require('node:fs');
process.on('exit', () => writeFileSync(process.env.LOADED_MODULES_FILE, Object.keys(require.cache).join('\\n')));
`;

let dataDir: string;

/** Starts the bundle until healthy, registers a user, stops it; answers its output and the packages it loaded. */
async function startAndStop(): Promise<{ output: string; packages: Set<string> }> {
  const loadedFile = path.join(dataDir, 'loaded.txt');
  rmSync(loadedFile, { force: true });
  const server = await startBundle({
    dataDir,
    nodeArgs: ['--require', path.join(dataDir, 'preload.cjs')],
    env: { LOADED_MODULES_FILE: loadedFile },
  });
  const url = server.url;
  try {
    const username = `u${Math.random().toString(36).slice(2, 10)}`;
    const registered = await fetch(`${url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password: 'correct horse battery staple' }),
    });
    expect(registered.status).toBe(200);
  } finally {
    server.child.kill('SIGTERM');
  }
  expect(await server.exited).toBe(0);
  const packages = new Set(
    readFileSync(loadedFile, 'utf8')
      .split('\n')
      .map((file) => /node_modules\/((?:@[^/]+\/)?[^/]+)\/.*\.[cm]?js$/.exec(file)?.[1])
      .filter((name): name is string => name !== undefined),
  );
  return { output: server.output(), packages };
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-startup-'));
  writeFileSync(path.join(dataDir, 'preload.cjs'), PRELOAD);
});

afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

describe('starting the built server', () => {
  it('migrates a new database, then starts on it without the migration runner or the PostgreSQL driver', async () => {
    const first = await startAndStop();
    expect(first.output).toContain('applied migration');
    expect(first.packages).toContain('umzug');

    const again = await startAndStop();
    expect(again.output).not.toContain('applied migration');
    expect(again.packages).toContain('better-sqlite3');
    for (const unneeded of ['umzug', '@mikro-orm/migrations', '@mikro-orm/postgresql', 'pg'])
      expect(again.packages).not.toContain(unneeded);
  });
});
