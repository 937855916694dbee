import { chmodSync, chownSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registerUser, rest } from '../helpers/http';
import { spawnServer, unprivilegedUser, type ServerProcess } from '../helpers/process';

/**
 * An unwritable database or data folder is refused at start with a message
 * naming the path and the cause; at run time /api/health answers 503 {status: "degraded",
 * reason} when a write probe fails. File permissions do not bind root, so when the tests run as
 * root the server runs as `nobody` here.
 */
const runAs = unprivilegedUser();
if (runAs === null)
  console.warn('unwritable storage tests skipped: running as root and user nobody cannot read this checkout');
const asUser: { uid?: number; gid?: number } = runAs ?? {};
let server: ServerProcess | undefined;
let root: string | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (root) rmSync(root, { recursive: true, force: true });
  root = undefined;
});

function ownedDir(): string {
  root = mkdtempSync(path.join(os.tmpdir(), 'bt-unwritable-'));
  chmodSync(root, 0o755);
  const dir = path.join(root, 'data');
  mkdirSync(dir, { mode: 0o700 });
  if (asUser.uid !== undefined) chownSync(dir, asUser.uid, asUser.gid!);
  return dir;
}

async function firstRun(dataDir: string): Promise<void> {
  server = spawnServer({ DATA_DIR: dataDir }, asUser);
  await registerUser(await server.url);
  await server.stop();
}

describe.skipIf(runAs === null)('unwritable storage', () => {
  it('refuses to start on a read-only database file, naming the path and the cause', async () => {
    const dataDir = ownedDir();
    await firstRun(dataDir);
    const file = path.join(dataDir, 'budget-tracker.sqlite');
    chmodSync(file, 0o400);
    server = spawnServer({ DATA_DIR: dataDir }, asUser);
    const { code, stderr } = await server.exited;
    expect(code).not.toBe(0);
    expect(stderr).toContain(file);
    expect(stderr).toMatch(/read-only|permission denied|not writable/i);
  });

  it('refuses to start when DATA_DIR cannot be written, naming it', async () => {
    const dataDir = ownedDir();
    chmodSync(dataDir, 0o500);
    server = spawnServer({ DATA_DIR: dataDir }, asUser);
    const { code, stderr } = await server.exited;
    expect(code).not.toBe(0);
    expect(stderr).toContain(dataDir);
    expect(stderr).toMatch(/permission denied|not writable/i);
  });

  it('refuses to start when DATA_DIR cannot be created, naming it', async () => {
    const dataDir = ownedDir();
    chmodSync(dataDir, 0o500);
    const inner = path.join(dataDir, 'inner');
    server = spawnServer({ DATA_DIR: inner }, asUser);
    const { code, stderr } = await server.exited;
    expect(code).not.toBe(0);
    expect(stderr).toContain(inner);
  });

  it('reports 503 degraded from /api/health while the database cannot be written (the path only in the log), and ok again after', async () => {
    const dataDir = ownedDir();
    server = spawnServer({ DATA_DIR: dataDir }, asUser);
    const url = await server.url;
    expect((await rest(url, 'GET', '/api/health')).body).toEqual({ status: 'ok' });
    const file = path.join(dataDir, 'budget-tracker.sqlite');
    chmodSync(file, 0o400);
    await expect.poll(async () => (await rest(url, 'GET', '/api/health')).status, { timeout: 10_000 }).toBe(503);
    const degraded = await rest(url, 'GET', '/api/health');
    expect(degraded.body.status).toBe('degraded');
    expect(degraded.body.reason).toMatch(/read-only|readonly|permission/i);
    // Anyone may ask: the answer names no path, the log does.
    expect(JSON.stringify(degraded.body)).not.toContain(dataDir);
    expect(JSON.stringify(degraded.body)).not.toContain('budget-tracker.sqlite');
    chmodSync(file, 0o600);
    await expect.poll(async () => (await rest(url, 'GET', '/api/health')).status, { timeout: 10_000 }).toBe(200);
    await server.stop();
    expect((await server.exited).stdout).toContain(file);
  });
});
