import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { registerUser } from '../helpers/http';
import { spawnServer, type ServerProcess } from '../helpers/process';

/**
 * The data folder and the database files are private to the server's user
 * whatever umask the process started with: folder 0700, database, -wal, -shm and the signing
 * secret 0600; files left looser by an older version are tightened at start.
 */
let server: ServerProcess | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

const mode = (file: string) => statSync(file).mode & 0o777;

function expectPrivate(dir: string) {
  expect(mode(dir).toString(8), dir).toBe('700');
  for (const name of [
    'budget-tracker.sqlite',
    'budget-tracker.sqlite-wal',
    'budget-tracker.sqlite-shm',
    'jwt-secret',
  ]) {
    const file = path.join(dir, name);
    expect(existsSync(file), `${name} exists`).toBe(true);
    expect(mode(file).toString(8), name).toBe('600');
  }
}

describe('private file modes', () => {
  it('creates the data folder 0700 and its files 0600 under umask 000', async () => {
    const parent = mkdtempSync(path.join(os.tmpdir(), 'bt-modes-'));
    dataDir = path.join(parent, 'data');
    server = spawnServer({ DATA_DIR: dataDir }, { umask: 0o000 });
    const url = await server.url;
    await registerUser(url);
    expectPrivate(dataDir);
    await server.stop();
    rmSync(parent, { recursive: true, force: true });
  });

  it('tightens an existing data folder and files left readable by everyone', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-modes-'));
    server = spawnServer({ DATA_DIR: dataDir }, { umask: 0o022 });
    await registerUser(await server.url);
    await server.stop();
    chmodSync(dataDir, 0o777);
    for (const name of ['budget-tracker.sqlite', 'jwt-secret']) chmodSync(path.join(dataDir, name), 0o666);
    for (const name of ['budget-tracker.sqlite-wal', 'budget-tracker.sqlite-shm']) {
      const file = path.join(dataDir, name);
      if (!existsSync(file)) writeFileSync(file, '');
      chmodSync(file, 0o644);
    }
    server = spawnServer({ DATA_DIR: dataDir }, { umask: 0o000 });
    await registerUser(await server.url);
    expectPrivate(dataDir);
  });

  it('keeps a database file outside the data folder private too', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-modes-'));
    const elsewhere = path.join(dataDir, 'elsewhere');
    mkdirSync(elsewhere, { mode: 0o755 });
    const databaseFile = path.join(elsewhere, 'books.sqlite');
    server = spawnServer({ DATA_DIR: path.join(dataDir, 'data'), DATABASE_FILE: databaseFile }, { umask: 0o000 });
    await registerUser(await server.url);
    for (const file of [databaseFile, `${databaseFile}-wal`, `${databaseFile}-shm`])
      expect(mode(file).toString(8), file).toBe('600');
  });

  it('forces an existing BACKUP_DIR left open to 0700, and writes its backups 0600', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-modes-'));
    const backups = path.join(dataDir, 'backups');
    mkdirSync(backups, { mode: 0o755 });
    chmodSync(backups, 0o755);
    server = spawnServer({ DATA_DIR: path.join(dataDir, 'data'), BACKUP_DIR: backups }, { umask: 0o022 });
    await server.url;
    await expect.poll(() => readdirSync(backups).filter((name) => name.endsWith('.sqlite')).length).toBe(1);
    expect(mode(backups).toString(8)).toBe('700');
    const [backup] = readdirSync(backups).filter((name) => name.endsWith('.sqlite'));
    expect(mode(path.join(backups, backup)).toString(8)).toBe('600');
  });

  it('creates a missing BACKUP_DIR 0700 under umask 000', async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-modes-'));
    const backups = path.join(dataDir, 'nested', 'backups');
    server = spawnServer({ DATA_DIR: path.join(dataDir, 'data'), BACKUP_DIR: backups }, { umask: 0o000 });
    await server.url;
    await expect
      .poll(() => existsSync(backups) && readdirSync(backups).some((name) => name.endsWith('.sqlite')))
      .toBe(true);
    expect(mode(backups).toString(8)).toBe('700');
  });
});
