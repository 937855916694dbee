import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BackupScheduler } from '../../src/server/db/backup-scheduler';
import { backupDatabase, scheduledBackupName, scheduledBackups } from '../../src/server/db/backup';
import { ok, signUp } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';
import { bundledEntry } from '../helpers/process';

/**
 * Server backups: `npm run backup -- <file>` copies the live database with SQLite's online
 * backup API while the server keeps writing, and the copy restores to a server that shows
 * every row committed before the backup began, consistently. With BACKUP_DIR the server
 * writes them itself on a schedule and keeps BACKUP_KEEP.
 */
let work: string;
beforeEach(() => {
  work = mkdtempSync(path.join(os.tmpdir(), 'bt-backup-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(work, { recursive: true, force: true });
});

function runBackupCommand(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [bundledEntry('scripts/backup.ts'), ...args], {
      env: { ...process.env, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** Puts `count` rows straight into the file (a few MB), so a backup takes many steps. */
function bulkRows(databaseFile: string, userId: number, count: number): void {
  const db = new Database(databaseFile);
  try {
    db.pragma('busy_timeout = 5000');
    const insert = db.prepare(
      "insert into `transaction` (user_id, account_id, category_id, post_date, description, amount, type, is_split, created_at) values (?, null, null, ?, ?, ?, 'debit', 0, 'x')",
    );
    db.transaction(() => {
      for (let i = 0; i < count; i += 1)
        insert.run(
          userId,
          `2020-01-${String((i % 28) + 1).padStart(2, '0')}`,
          `Bulk purchase number ${i} ${'x'.repeat(60)}`,
          -(i + 1),
        );
    })();
  } finally {
    db.close();
  }
}

describe('npm run backup -- <file>', () => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
  });

  it('copies the live database during writes; the copy is intact and restores every row committed before it began', async () => {
    server = await startServer();
    const user = await signUp(server.url);
    ok(await user.post('/api/accounts', { name: 'Main', type: 'checking' }));
    bulkRows(server.config.databaseFile, user.userId, 40_000);

    // A writer that keeps committing rows, one request after another, until told to stop.
    const committed: { id: number; description: string; amount: number }[] = [];
    const stopWriting = new AbortController();
    let n = 0;
    const writer = (async () => {
      while (!stopWriting.signal.aborted) {
        n += 1;
        const body = { postDate: '2024-06-01', description: `During backup ${n}`, amount: -n, account: 'Main' };
        const res = ok(await user.post('/api/transactions', body));
        committed.push({ id: res.id, description: body.description, amount: body.amount });
        if (n % 7 === 0)
          ok(
            await user.post(`/api/transactions/${res.id}/split`, {
              splits: [
                { amount: -1, category: 'A' },
                { amount: -(n - 1), category: 'B' },
              ],
            }),
          );
      }
    })();
    await expect.poll(() => committed.length, { timeout: 20_000 }).toBeGreaterThan(5);
    const before = committed.length;
    const file = path.join(work, 'copy.sqlite');
    const run = await runBackupCommand([file, '--pages-per-step', '16'], {
      DATABASE_FILE: server.config.databaseFile,
      DATA_DIR: work,
    });
    const duringBackup = committed.length - before;
    stopWriting.abort();
    await writer;
    expect(run.code, run.out).toBe(0);
    expect(run.out).toMatch(/^Backed up .* to .*copy\.sqlite: [\d.]+ MB in [\d.]+ s.*; integrity check ok\.$/m);
    expect(duringBackup, 'the server kept writing while the backup ran').toBeGreaterThan(0);

    const copy = new Database(file, { readonly: true });
    let restored: { id: number; description: string; amount: number }[];
    try {
      expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
      expect(copy.pragma('foreign_key_check')).toEqual([]);
      expect(copy.pragma('journal_mode', { simple: true })).toBe('delete');
      restored = copy
        .prepare(
          "select id, description, amount from `transaction` where description like 'During backup %' and parent_id is null order by id",
        )
        .all() as typeof restored;
      // Every split in the copy is whole: its parts sum to its parent.
      const broken = copy
        .prepare(
          'select p.id from `transaction` p where p.is_split = 1 and p.amount != (select sum(c.amount) from `transaction` c where c.parent_id = p.id)',
        )
        .all();
      expect(broken).toEqual([]);
      expect(
        (
          copy.prepare('select count(*) as n from "transaction" where description like ?').get('Bulk purchase%') as {
            n: number;
          }
        ).n,
      ).toBe(40_000);
    } finally {
      copy.close();
    }
    // One snapshot: the rows committed before the backup began, then at most some that came
    // after them in commit order, nothing else.
    expect(restored.length).toBeGreaterThanOrEqual(before);
    expect(restored).toEqual(committed.slice(0, restored.length));

    // Restore: a server started on the copy shows them.
    const restoredDir = mkdtempSync(path.join(os.tmpdir(), 'bt-restored-'));
    copyFileSync(file, path.join(restoredDir, 'budget-tracker.sqlite'));
    const second = await startServer({ DATA_DIR: restoredDir });
    try {
      const login = ok(
        await rest(second.url, 'POST', '/api/auth/login', {
          body: { username: user.username, password: 'correct horse battery' },
        }),
      );
      const rows = ok<{ id: number; parentTransactionId: number | null }[]>(
        await rest(second.url, 'GET', '/api/transactions?start_date=2024-06-01&end_date=2024-06-01', {
          token: login.accessToken,
        }),
      );
      expect(
        rows
          .filter((r) => r.parentTransactionId === null)
          .map((r) => r.id)
          .sort((a, b) => a - b),
      ).toEqual(restored.map((r) => r.id));
    } finally {
      await second.close();
      rmSync(restoredDir, { recursive: true, force: true });
    }
  });

  it('refuses to overwrite a file, and names what is missing', async () => {
    const data = path.join(work, 'data');
    server = await startServer({ DATA_DIR: data });
    const existing = path.join(work, 'existing.sqlite');
    writeFileSync(existing, 'keep me');
    const refused = await runBackupCommand([existing], { DATA_DIR: server.config.dataDir });
    expect(refused.code).toBe(1);
    expect(refused.out).toContain('already exists');
    const none = await runBackupCommand([], { DATA_DIR: server.config.dataDir, BACKUP_DIR: '' });
    expect(none.code).toBe(2);
    expect(none.out).toContain('Name the backup file, or set BACKUP_DIR');
    const missing = await runBackupCommand([path.join(work, 'x.sqlite')], {
      DATA_DIR: path.join(work, 'nothing-here'),
    });
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('There is no database');
    // On PostgreSQL there is no file to copy: the command says so instead of copying a stale one.
    const onPostgres = await runBackupCommand([path.join(work, 'pg.sqlite')], {
      DATA_DIR: server.config.dataDir,
      DATABASE_URL: 'postgres://app:pw@db:5432/budget',
    });
    expect(onPostgres.code).toBe(2);
    expect(onPostgres.out).toContain('pg_dump');
    expect(existsSync(path.join(work, 'pg.sqlite'))).toBe(false);
    const intoFolder = await runBackupCommand([], {
      DATA_DIR: server.config.dataDir,
      BACKUP_DIR: path.join(work, 'backups'),
      BACKUP_KEEP: '1',
    });
    expect(intoFolder.code, intoFolder.out).toBe(0);
    expect(scheduledBackups(path.join(work, 'backups'))).toHaveLength(1);
  });
});

describe('scheduled backups (BACKUP_DIR, BACKUP_INTERVAL, BACKUP_KEEP)', () => {
  it('a listening server writes one at once when the folder has none', async () => {
    const dir = path.join(work, 'backups');
    const server = await startServer({ BACKUP_DIR: dir });
    try {
      await expect.poll(() => scheduledBackups(dir).length, { timeout: 20_000 }).toBe(1);
      const copy = new Database(scheduledBackups(dir)[0].file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(
          (copy.prepare('select count(*) as n from mikro_orm_migrations').get() as { n: number }).n,
        ).toBeGreaterThan(0);
      } finally {
        copy.close();
      }
    } finally {
      await server.close();
    }
  });

  it('writes one every interval after the newest, keeping the newest BACKUP_KEEP and no other file', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2025-01-01T12:00:00Z'));
    const databaseFile = path.join(work, 'db.sqlite');
    const db = new Database(databaseFile);
    db.exec('create table t (x); insert into t values (1)');
    db.close();
    const dir = path.join(work, 'backups');
    const log = { info: vi.fn(), error: vi.fn() };
    const scheduler = new BackupScheduler({ databaseFile, dir, intervalSeconds: 3600, keep: 2, log });
    // An earlier backup taken 30 minutes ago, and a file of the user's own.
    scheduler.start();
    await scheduler.stop();
    expect(scheduledBackups(dir)).toHaveLength(0); // stopped before its timer fired
    await backupDatabase(databaseFile, path.join(dir, scheduledBackupName(new Date('2025-01-01T11:30:00Z'))));
    writeFileSync(path.join(dir, 'notes.txt'), 'mine');

    const running = new BackupScheduler({ databaseFile, dir, intervalSeconds: 3600, keep: 2, log });
    running.start();
    await vi.advanceTimersByTimeAsync(29 * 60_000);
    await running.idle();
    expect(scheduledBackups(dir)).toHaveLength(1); // not due before 12:30
    await vi.advanceTimersByTimeAsync(60_000);
    await running.idle();
    expect(scheduledBackups(dir).map((b) => new Date(b.takenAt).toISOString())).toEqual([
      '2025-01-01T12:30:00.000Z',
      '2025-01-01T11:30:00.000Z',
    ]);
    await vi.advanceTimersByTimeAsync(3600_000);
    await running.idle();
    await vi.advanceTimersByTimeAsync(3600_000);
    await running.idle();
    expect(scheduledBackups(dir).map((b) => new Date(b.takenAt).toISOString())).toEqual([
      '2025-01-01T14:30:00.000Z',
      '2025-01-01T13:30:00.000Z',
    ]);
    expect(readdirSync(dir).sort()).toEqual(
      [
        scheduledBackupName(new Date('2025-01-01T13:30:00Z')),
        scheduledBackupName(new Date('2025-01-01T14:30:00Z')),
        'notes.txt',
      ].sort(),
    );
    expect(log.error).not.toHaveBeenCalled();
    expect(log.info).toHaveBeenCalledTimes(3);
    await running.stop();
    expect(existsSync(path.join(dir, 'notes.txt'))).toBe(true);
  });
});
