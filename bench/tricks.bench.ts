/**
 * Each speed trick the server keeps, against the plain way of doing the same work, in one process
 * on the same data, the two ways interleaved round by round (median of the rounds), as CPU time:
 * the event loop's thread alone (/proc/self/task, what every other request waits behind) and the
 * whole process (worker threads and libuv's pool included). docs/performance.md reads these figures.
 *  - JSON the database writes (the read model's pageJson) against driver rows as objects and
 *    JSON.stringify, for a month's search (~2,000 rows) and a year's overview rows (~25,000);
 *  - a search on a reader thread against the same read on the main connection;
 *  - the fastest compression levels for a large answer (the year's JSON, ~7 MB) against the
 *    levels used for small answers;
 *  - an import's write and commit without the WAL checkpoint against SQLite's checkpoint inside
 *    the COMMIT (100,000 rows): what moving it to a worker thread could save at most;
 *  - learned rows read as JSON columns against rows as objects (250,000 rows), and the cached
 *    suggestion model against learning it again;
 *  - PostgreSQL: an import's rows written as column arrays (unnest) against multi-row VALUES;
 *  - SQLite's 32 MB page cache against its default 2 MB, reading a year's rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { EntityManager } from '@mikro-orm/knex';
import Database from 'better-sqlite3';
import { readsOf } from '../src/server/db/transaction-reads';
import { openDatabase } from '../src/server/db/database';
import { createScratchDatabase, DEFAULT_PG_ADMIN_URL, postgresAnswers } from '../src/server/db/pg-scratch';
import { selectJsonColumns, selectRows, sqlTx, withUserScope } from '../src/server/db/sql';
import { importedRowsWriter, type ImportedRow } from '../src/server/db/transaction-writes';
import { suggestionModel } from '../src/server/modules/categories/suggestions.service';
import { registerUser } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { PER_USER, seed } from './domain.bench';
import { mainThreadCpuMs } from './server-process';
import { median, ms } from './stats';

interface Cost {
  main: number;
  total: number;
  wall: number;
}

/**
 * What `work` costs this process, per call of `times` calls in a row: its main thread's CPU (read
 * in clock ticks, hence the repeats), the whole process's, and the wall time, in ms.
 */
async function cost(work: () => unknown, times: number): Promise<Cost> {
  const main0 = mainThreadCpuMs(process.pid);
  const total0 = process.cpuUsage();
  const wall0 = performance.now();
  for (let i = 0; i < times; i += 1) await work();
  const wall = performance.now() - wall0;
  const total = process.cpuUsage(total0);
  return {
    main: (mainThreadCpuMs(process.pid) - main0) / times,
    total: (total.user + total.system) / 1000 / times,
    wall: wall / times,
  };
}

/** A and B interleaved, `rounds` times (each `times` calls) after one warm-up each: the medians of their costs. */
async function ab(rounds: number, a: () => unknown, b: () => unknown, times = 1): Promise<[Cost, Cost]> {
  await a();
  await b();
  const costs: [Cost[], Cost[]] = [[], []];
  for (let round = 0; round < rounds; round += 1) {
    costs[0].push(await cost(a, times));
    costs[1].push(await cost(b, times));
  }
  const med = (list: Cost[]): Cost => ({
    main: median(list.map((c) => c.main)),
    total: median(list.map((c) => c.total)),
    wall: median(list.map((c) => c.wall)),
  });
  return [med(costs[0]), med(costs[1])];
}

/** One line: the trick's costs, the plain way's, and what the trick saves of each. */
function report(label: string, kept: Cost, plain: Cost): void {
  const saved = (k: number, p: number) => (p > 0 ? `${Math.round((1 - k / p) * 100)}%` : 'n/a');
  console.log(
    `${label}: with ${ms(kept.main)} main / ${ms(kept.total)} CPU / ${ms(kept.wall)} wall; without ${ms(plain.main)} main / ${ms(plain.total)} CPU / ${ms(plain.wall)} wall; saves ${saved(kept.main, plain.main)} of the main thread, ${saved(kept.total, plain.total)} of all CPU, ${saved(kept.wall, plain.wall)} of the wall time`,
  );
}

/** 100,000 rows written in one transaction on a fresh connection, `commit` around it. */
function importRows(
  file: string,
  commit: (db: Database.Database, work: () => Promise<void>) => Promise<void>,
): () => Promise<void> {
  return async () => {
    const db = new Database(file);
    db.pragma('journal_mode = WAL');
    db.exec('drop table if exists t; create table t (a integer, b text, c integer)');
    db.pragma('wal_checkpoint(TRUNCATE)');
    const insert = db.prepare(`insert into t values ${Array.from({ length: 100 }, () => '(?, ?, ?)').join(', ')}`);
    const values = Array.from({ length: 300 }, (_, i) => (i % 3 === 1 ? `Merchant ${i} purchase of something` : i));
    await commit(db, () => {
      db.transaction(() => {
        for (let i = 0; i < 1000; i += 1) insert.run(values);
      })();
      return Promise.resolve();
    });
    db.close();
  };
}

async function readModel(): Promise<void> {
  const server = await startServer();
  try {
    const auth = await registerUser(server.url);
    const userId = auth.user.id;
    const file = new Database(server.config.databaseFile);
    seed(file, userId, PER_USER);
    file.exec('analyze');
    file.close();
    const em = () => server.app.orm.em.fork();
    const month = { startDate: '2023-11-01', endDate: '2023-11-30' };
    const year = { startDate: '2023-01-01', endDate: '2023-12-31' };
    for (const [label, range, rounds, times] of [
      ['a month of the search as JSON', month, 9, 20],
      ["a year's rows as JSON", year, 7, 2],
    ] as const) {
      const [kept, plain] = await ab(
        rounds,
        () => em().transactional((tem) => readsOf(tem).pageJson(userId, range)),
        () =>
          em().transactional(async (tem) => Buffer.from(JSON.stringify((await readsOf(tem).page(userId, range)).rows))),
        times,
      );
      report(`database-written JSON, ${label}`, kept, plain);
    }
    const [worker, main] = await ab(
      9,
      () => readsOf(em()).pageJson(userId, month),
      () => em().transactional((tem) => readsOf(tem).pageJson(userId, month)),
      20,
    );
    report('reader thread, a month of the search', worker, main);
    const json = await em().transactional((tem) => readsOf(tem).pageJson(userId, year));
    const [fast, small] = await ab(
      7,
      () => new Promise((resolve) => zlib.brotliCompress(json.json, fastBrotli(json.json.length), resolve)),
      () => zlib.brotliCompressSync(json.json, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } }),
      3,
    );
    report(
      `compression of a large answer (${(json.json.length / 1e6).toFixed(1)} MB), brotli 1 on the pool vs 4`,
      fast,
      small,
    );
    const cacheSize = (kib: number) => em().getConnection().execute(`pragma cache_size = -${kib}`, [], 'run');
    const [large, small2] = await ab(
      7,
      async () => {
        await cacheSize(32_000);
        return em().transactional((tem) => readsOf(tem).pageJson(userId, year));
      },
      async () => {
        await cacheSize(2000);
        return em().transactional((tem) => readsOf(tem).pageJson(userId, year));
      },
      2,
    );
    await cacheSize(32_000);
    report("SQLite page cache 32 MB vs 2 MB, a year's rows as JSON", large, small2);
    await learning(em, userId);
  } finally {
    await server.close();
  }
}

function fastBrotli(size: number): zlib.BrotliOptions {
  return {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: size,
    },
  };
}

async function learning(em: () => EntityManager, userId: number) {
  const from = `"transaction" t where t.user_id = ? and t.category_id is not null and t.is_split = false`;
  const [columns, rows] = await ab(
    10,
    () =>
      selectJsonColumns(
        em(),
        [
          { sql: 't.description', type: 'text' },
          { sql: 't.amount', type: 'integer' },
          { sql: 't.category_id', type: 'integer' },
        ],
        from,
        'count(*) as n',
        [userId],
      ),
    () => selectRows(em(), `select t.description, t.amount, t.category_id from ${from}`, [userId]),
  );
  report('learned rows as JSON columns, 250,000 rows', columns, rows);
  const [cached, relearned] = await ab(
    5,
    () => suggestionModel(em(), userId),
    // A write since the model was learned (a new category) makes the next call learn it again.
    async () => {
      const fork = em();
      await fork.getConnection().execute('update category set name = name where user_id = ?', [userId], 'run');
      await fork
        .getConnection()
        .execute(
          'insert into category (user_id, name, name_key, created_at) values (?, ?, ?, ?)',
          [userId, `Probe ${Math.random()}`, `probe ${Math.random()}`, new Date().toISOString()],
          'run',
        );
      return suggestionModel(fork, userId);
    },
  );
  report('suggestion model, cached vs learned again', cached, relearned);
}

/**
 * What leaving the WAL checkpoint out of an import's COMMIT could save at most (a checkpoint on a
 * worker thread afterwards): the same write with autocheckpoint off against SQLite's default.
 */
async function checkpoint(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-tricks-'));
  try {
    const file = path.join(dir, 'import.sqlite');
    const [without, inline] = await ab(
      5,
      importRows(file, (db, work) => {
        db.pragma('wal_autocheckpoint = 0');
        return work();
      }),
      importRows(file, (_db, work) => work()),
    );
    report("an import's write and commit without the WAL checkpoint vs with it (100,000 rows)", without, inline);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** PostgreSQL: an import's rows as one INSERT ... SELECT FROM unnest() of column arrays against multi-row VALUES. */
async function bulkInsert(): Promise<void> {
  if (!(await postgresAnswers(DEFAULT_PG_ADMIN_URL))) {
    console.log('PostgreSQL does not answer: the bulk insert is not measured');
    return;
  }
  const scratch = await createScratchDatabase('bt_tricks', DEFAULT_PG_ADMIN_URL);
  const orm = await openDatabase({ dialect: 'postgresql', url: scratch.url });
  try {
    const em = orm.em.fork();
    const now = new Date().toISOString();
    const [user] = await selectRows<{ id: number }>(
      em,
      `insert into "user" (username, username_key, password_hash, created_at, updated_at) values ('bench', 'bench', 'x', ?, ?) returning id`,
      [now, now],
    );
    const userId = user?.id ?? 0;
    const [account] = await withUserScope(em, userId, (tem) =>
      selectRows<{ id: number }>(
        tem,
        `insert into account (user_id, name, name_key, type, opening_balance, opening_date, created_at) values (?, 'A', 'a', 'checking', 0, '2000-01-01', ?) returning id`,
        [userId, now],
      ),
    );
    const rows: ImportedRow[] = Array.from({ length: 100_000 }, (_, i) => [
      userId,
      account?.id ?? 0,
      null,
      null,
      `2024-01-${String((i % 28) + 1).padStart(2, '0')}`,
      `Merchant ${i % 500} purchase ${i}`,
      null,
      -((i % 20_000) + 1),
      'debit',
      // No batch row: the foreign key takes a null.
      null as unknown as string,
      null,
      now,
      null,
      null,
    ]);
    const write = (bulk: 'unnest' | 'values') => () =>
      withUserScope(orm.em.fork(), userId, (tem) =>
        tem
          .transactional(async (inner) => {
            const writer = importedRowsWriter({ ...(await sqlTx(inner)), bulk });
            await writer.add(rows);
            await writer.finish();
            throw new RolledBack();
          })
          .catch((error: unknown) => {
            if (!(error instanceof RolledBack)) throw error;
          }),
      );
    const [unnest, values] = await ab(5, write('unnest'), write('values'));
    report('PostgreSQL, 100,000 imported rows, unnest() arrays vs multi-row VALUES (rolled back)', unnest, values);
  } finally {
    await orm.close(true);
    await scratch.drop();
  }
}

class RolledBack extends Error {}

export default async function run(): Promise<void> {
  await readModel();
  await checkpoint();
  await bulkInsert();
}
