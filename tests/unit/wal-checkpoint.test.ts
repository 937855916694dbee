import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import {
  checkpointInBackground,
  checkpointWorkers,
  closeCheckpointer,
  withCheckpointAfter,
  writesAwaitingCheckpoint,
  type PragmaConnection,
} from '../../src/server/db/wal-checkpoint';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-wal-'));
const opened: string[] = [];
afterAll(async () => {
  for (const file of opened) await closeCheckpointer(file);
  rmSync(dir, { recursive: true, force: true });
});

/**
 * The autocheckpoint the test files run under (the server's is SQLite's default of 1,000 pages;
 * smaller here, so the tests write less on a busy disk), and the pages one test transaction writes.
 */
const AUTOCHECKPOINT = 100;
const PAGES = 250;
/** Bytes of PAGES pages of 4 KiB, less a margin. */
const WRITTEN = PAGES * 4096 * 0.8;

/** A WAL database file as the server opens it, with autocheckpoint at AUTOCHECKPOINT pages. */
function walFile(name: string): { db: Database.Database; file: string } {
  const file = path.join(dir, name);
  opened.push(file);
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT}`);
  db.exec('create table t (id integer primary key, payload blob)');
  return { db, file };
}

const connection = (db: Database.Database): PragmaConnection => ({
  all: <T extends object>(sql: string) => Promise.resolve(db.prepare(sql).all() as T[]),
  run: (sql: string) => Promise.resolve(db.prepare(sql).run()),
});

/** One transaction of about PAGES pages: more than autocheckpoint lets stay in the log. */
function writeManyPages(db: Database.Database): Promise<number> {
  db.transaction(() => {
    const insert = db.prepare('insert into t (payload) values (randomblob(3000))');
    for (let i = 0; i < PAGES; i++) insert.run();
  })();
  return Promise.resolve(PAGES);
}

const fileBytes = (file: string) => statSync(file).size;
const autocheckpoint = (db: Database.Database) => db.pragma('wal_autocheckpoint', { simple: true });

// Patience, not a figure: the worker thread starts and loads the driver (seconds on a loaded machine).
const WORKER_PATIENCE = { timeout: 60_000 };

describe('withCheckpointAfter', () => {
  it(
    'commits a large transaction without copying the log into the file, then asks for the checkpoint; the worker copies it',
    WORKER_PATIENCE,
    async () => {
      // Without it, the commit itself copies the whole log into the file (the cost moved off the request).
      const plain = walFile('plain.sqlite');
      await writeManyPages(plain.db);
      expect(fileBytes(plain.file)).toBeGreaterThan(WRITTEN);
      plain.db.close();

      const { db, file } = walFile('deferred.sqlite');
      const asked: string[] = [];
      expect(
        await withCheckpointAfter(
          connection(db),
          () => writeManyPages(db),
          (f) => asked.push(f),
        ),
      ).toBe(PAGES);
      await expect.poll(() => asked).toEqual([file]);
      expect(fileBytes(file)).toBeLessThan(WRITTEN / 4);
      expect(fileBytes(`${file}-wal`)).toBeGreaterThan(WRITTEN);
      // Back on once the checkpoint asked for has answered (here at once).
      await expect.poll(() => autocheckpoint(db)).toBe(AUTOCHECKPOINT);
      expect(writesAwaitingCheckpoint()).toBe(0);

      const done = await checkpointInBackground(file);
      expect(done).toMatchObject({ busy: 0 });
      expect('log' in done && done.log).toBeGreaterThan(AUTOCHECKPOINT);
      expect('log' in done && done.checkpointed).toBe('log' in done && done.log);
      expect(fileBytes(file)).toBeGreaterThan(WRITTEN);
      expect(db.prepare('select count(*) as n from t').get()).toEqual({ n: PAGES });
      db.close();
    },
  );

  it('turns autocheckpoint back on and still asks for the checkpoint when the work throws', async () => {
    const { db, file } = walFile('failed.sqlite');
    db.pragma('wal_autocheckpoint = 500');
    const asked: string[] = [];
    await expect(
      withCheckpointAfter(
        connection(db),
        () => {
          expect(autocheckpoint(db)).toBe(0);
          return Promise.reject(new Error('the import failed'));
        },
        (f) => asked.push(f),
      ),
    ).rejects.toThrow('the import failed');
    await expect.poll(() => autocheckpoint(db)).toBe(500);
    expect(asked).toEqual([file]);
    db.close();
  });

  it('keeps autocheckpoint off until the checkpoint asked for has answered, and until the last of two writes has had its own', async () => {
    const { db } = walFile('waiting.sqlite');
    const answers: (() => void)[] = [];
    const checkpoint = () => new Promise<void>((resolve) => answers.push(resolve));
    await withCheckpointAfter(connection(db), () => writeManyPages(db), checkpoint);
    await withCheckpointAfter(connection(db), () => writeManyPages(db), checkpoint);
    await expect.poll(() => answers.length).toBe(2);
    // A small commit now must not copy the large log on this thread.
    expect(autocheckpoint(db)).toBe(0);
    expect(writesAwaitingCheckpoint()).toBe(2);
    answers[0]();
    await expect.poll(() => writesAwaitingCheckpoint()).toBe(1);
    expect(autocheckpoint(db)).toBe(0);
    answers[1]();
    await expect.poll(() => autocheckpoint(db)).toBe(AUTOCHECKPOINT);
    db.close();
  });

  it('runs the work as it is on a database in memory (no log to checkpoint) and on PostgreSQL (no connection)', async () => {
    const db = new Database(':memory:');
    db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT}`);
    const asked: string[] = [];
    expect(
      await withCheckpointAfter(
        connection(db),
        () => Promise.resolve(autocheckpoint(db)),
        (f) => asked.push(f),
      ),
    ).toBe(AUTOCHECKPOINT);
    expect(
      await withCheckpointAfter(
        null,
        () => Promise.resolve('done'),
        (f) => asked.push(f),
      ),
    ).toBe('done');
    expect(asked).toEqual([]);
    db.close();
  });
});

describe('checkpointInBackground', () => {
  it(
    'keeps a worker thread (about 10 MB) only while it has checkpoints to do, and answers every request',
    WORKER_PATIENCE,
    async () => {
      const { db, file } = walFile('idle.sqlite');
      db.pragma('wal_autocheckpoint = 0');
      await writeManyPages(db);
      const answers = await Promise.all([checkpointInBackground(file), checkpointInBackground(file)]);
      expect(answers).toMatchObject([{ busy: 0 }, { busy: 0 }]);
      await expect.poll(() => checkpointWorkers()).toBe(0);
      await writeManyPages(db);
      expect(await checkpointInBackground(file)).toMatchObject({ busy: 0 });
      await expect.poll(() => checkpointWorkers()).toBe(0);
      expect(fileBytes(file)).toBeGreaterThan(2 * WRITTEN);
      db.close();
    },
  );

  it(
    'answers a failure (never rejects) when the file cannot be opened, and works again afterwards',
    WORKER_PATIENCE,
    async () => {
      const missing = path.join(dir, 'missing.sqlite');
      opened.push(missing);
      expect(await checkpointInBackground(missing)).toMatchObject({ error: expect.any(String) as string });
      const { db, file } = walFile('later.sqlite');
      await writeManyPages(db);
      expect(await checkpointInBackground(file)).toMatchObject({ busy: 0 });
      db.close();
    },
  );
});
