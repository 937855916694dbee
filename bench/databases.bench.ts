/**
 * SQLite and PostgreSQL side by side, on the same server code and the same data:
 *  - import of a 100,000-row CSV through POST /api/upload (rows/s; target on PostgreSQL >= 30,000),
 *    beside its floor measured in the same run: csv-parse of the same file and the most direct bulk
 *    insert of its rows into the app's own (migrated, indexed) transaction table on a fresh database
 *    (SQLite: prepared multi-row INSERTs in one transaction; PostgreSQL: INSERT ... SELECT FROM
 *    unnest() of column arrays), and the ratio of the two,
 *  - one-month search GET /api/transactions (median of 20; the answer's bytes are read but not
 *    decoded or parsed, see getBytes in stats.ts) beside its floor (the same rows read with plain
 *    SQL on the database and turned into JSON) and the ratio; once in the imported year
 *    (about 8,000 rows a month) and once for a user with 250,000 rows over ten years (about 2,080 a
 *    month; target under 30 ms),
 *  - a one-year budget overview GET /api/budgets/:id/overview (median of 10) beside its floor
 *    (the year's sums, one GROUP BY on the database) and the ratio.
 * PostgreSQL runs on a scratch database through PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres);
 * without one answering, its column says so.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { parse } from 'csv-parse/sync';
import pg from 'pg';
import { openDatabase } from '../src/server/db/database';
import type { DatabaseTarget } from '../src/server/db/orm-options';
import {
  createScratchDatabase,
  DEFAULT_PG_ADMIN_URL,
  postgresAnswers,
  type ScratchDatabase,
} from '../src/server/db/pg-scratch';
import { numberPlaceholders } from '../src/server/db/sql';
import { pgArrayLiteral } from '../src/server/db/sql';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { getBytes, median, ms } from './stats';

const ROWS = 100_000;
const CATEGORIES = ['Groceries', 'Dining', 'Rent', 'Utilities', 'Fuel', 'Salary', 'Fun', 'Health'];

function csv(): string {
  const lines = ['Date,Description,Amount,Category'];
  let state = 12345;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  for (let i = 0; i < ROWS; i += 1) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor((i / ROWS) * 365) * 86400_000).toISOString().slice(0, 10);
    lines.push(
      `${day},Merchant ${next() % 500} purchase ${i},-${(next() % 200) + 1}.${String(next() % 100).padStart(2, '0')},${CATEGORIES[next() % CATEGORIES.length]}`,
    );
  }
  return lines.join('\n');
}

/** Rows of the user whose month is searched at scale. */
const HISTORY_ROWS = 250_000;

/** Ten years of one household's rows (2015-2024, about 2,080 a month), as a bank's CSV. */
function historyCsv(): string {
  const lines = ['Date,Description,Amount,Category'];
  let state = 54321;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  const days = 3653;
  for (let i = 0; i < HISTORY_ROWS; i += 1) {
    const day = new Date(Date.UTC(2015, 0, 1) + Math.floor((i / HISTORY_ROWS) * days) * 86400_000)
      .toISOString()
      .slice(0, 10);
    lines.push(
      `${day},Merchant ${next() % 500} purchase ${i},-${(next() % 200) + 1}.${String(next() % 100).padStart(2, '0')},${CATEGORIES[next() % CATEGORIES.length]}`,
    );
  }
  return lines.join('\n');
}

interface Figures {
  importRowsPerSecond: number;
  /** A month of the user with HISTORY_ROWS rows: its search (median of 20), the floor, and the rows it answers. */
  historyMonthMs: number;
  historyFloorMs: number;
  historyMonthRows: number;
  floorRowsPerSecond: number;
  monthSearchMs: number;
  overviewMs: number;
  /** The search's floor: the same month's rows read with plain SQL and turned into JSON, no HTTP. */
  searchFloorMs: number;
  /** The overview's floor: the year's SQL sums (one GROUP BY over the counted rows), no HTTP. */
  sumsFloorMs: number;
}

/** A new user with a Checking account into which `file` is imported over HTTP; answers the import's wall time. */
async function userWithImport(server: Awaited<ReturnType<typeof startServer>>, file: string) {
  const user = await registerUser(server.url);
  const token = user.accessToken;
  await rest(server.url, 'POST', '/api/accounts', { token, body: { name: 'Checking', type: 'checking' } });
  const body = new FormData();
  body.append('file', new Blob([file]), 'statement.csv');
  body.append('account', 'Checking');
  body.append('transactionType', 'auto');
  const started = performance.now();
  const imported = await rest(server.url, 'POST', '/api/upload', { token, body });
  const importMs = performance.now() - started;
  if (imported.status !== 201)
    throw new Error(`import failed: ${imported.status} ${JSON.stringify(imported.body).slice(0, 200)}`);
  return { user, token, importMs };
}

/** A second user imports ten years (HISTORY_ROWS rows); a month of 2024 is searched 20 times, beside its floor. */
async function measureHistory(
  server: Awaited<ReturnType<typeof startServer>>,
  env: Record<string, string>,
  history: string,
): Promise<Pick<Figures, 'historyMonthMs' | 'historyFloorMs' | 'historyMonthRows'>> {
  const { user, token } = await userWithImport(server, history);
  const months = ['2024-03', '2024-06', '2024-09', '2024-12'];
  const searches: number[] = [];
  let rows = 0;
  for (let i = 0; i < 20; i += 1) {
    const m = months[i % months.length];
    const t = performance.now();
    const res = await getBytes(`${server.url}/api/transactions?start_date=${m}-01&end_date=${m}-28`, token);
    searches.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`search failed: ${res.status}`);
    rows = res.total;
  }
  const floors = await sqlFloors(env.DATABASE_URL ?? null, server.config.databaseFile, user.user.id, months);
  return { historyMonthMs: median(searches), historyFloorMs: floors.searchFloorMs, historyMonthRows: rows };
}

async function measure(
  env: Record<string, string>,
  file: string,
  history: string,
): Promise<Omit<Figures, 'floorRowsPerSecond'>> {
  const server = await startServer({ LOG_LEVEL: 'silent', UPLOAD_LIMIT_BYTES: String(64 * 1024 * 1024), ...env });
  try {
    const { user, token, importMs } = await userWithImport(server, file);
    const months = ['2024-02', '2024-05', '2024-08', '2024-11'];
    const searches: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const m = months[i % months.length];
      const t = performance.now();
      const res = await getBytes(`${server.url}/api/transactions?start_date=${m}-01&end_date=${m}-28`, token);
      searches.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`search failed: ${res.status}`);
    }
    const saved = await rest(server.url, 'POST', '/api/budgets/save', {
      token,
      body: {
        name: '2024',
        startDate: '2024-01-01',
        endDate: '2024-12-31',
        lineItems: CATEGORIES.map((c) => ({ name: c, amount: 100000, type: 'Variable', relatedCategories: [c] })),
      },
    });
    const overviews: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const t = performance.now();
      const res = await rest(server.url, 'GET', `/api/budgets/${saved.body.budget.id}/overview`, { token });
      overviews.push(performance.now() - t);
      if (res.status !== 200) throw new Error(`overview failed: ${res.status}`);
    }
    const floors = await sqlFloors(env.DATABASE_URL ?? null, server.config.databaseFile, user.user.id, months);
    const atScale = await measureHistory(server, env, history);
    return {
      importRowsPerSecond: ROWS / (importMs / 1000),
      monthSearchMs: median(searches),
      overviewMs: median(overviews),
      ...floors,
      ...atScale,
    };
  } finally {
    await server.close();
  }
}

const FLOOR_SEARCH = `select t.id, t.post_date, t.description, t.amount, t.type, t.is_split, t.parent_id, t.split_note, t.batch_id, t.account_id,
       a.name as account_name, c.name as category_name, t.category_source
  from "transaction" t left join account a on a.id = t.account_id left join category c on c.id = t.category_id
 where t.user_id = ? and t.post_date >= ? and t.post_date <= ? order by t.post_date desc, t.id desc`;
const FLOOR_SUMS = `select c.name_key, t.type, t.parent_id is not null as part, count(*) as n, sum(t.amount) as total
  from "transaction" t left join category c on c.id = t.category_id
 where t.user_id = ? and t.post_date >= ? and t.post_date <= ? and t.is_split = false
 group by c.name_key, t.type, t.parent_id is not null`;

/** The search and overview floors straight on the server's database (medians of 20 and 10), in the same run. */
async function sqlFloors(
  databaseUrl: string | null,
  databaseFile: string,
  userId: number,
  months: string[],
): Promise<{ searchFloorMs: number; sumsFloorMs: number }> {
  let query: (sql: string, params: unknown[]) => Promise<unknown[]>;
  let close: () => Promise<void>;
  if (databaseUrl) {
    // The app's own connection string: row-level security applies, so the session is scoped to the user as the app scopes it.
    const client = new pg.Client({ connectionString: databaseUrl });
    await client.connect();
    await client.query("select set_config('app.user_id', $1, false)", [String(userId)]);
    query = async (sql, params) => (await client.query(numberPlaceholders(sql), params)).rows;
    close = () => client.end();
  } else {
    const db = new Database(databaseFile, { readonly: true });
    query = (sql, params) => Promise.resolve(db.prepare(sql).all(...params));
    close = () => {
      db.close();
      return Promise.resolve();
    };
  }
  try {
    const searches: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const m = months[i % months.length] ?? '2024-02';
      const t = performance.now();
      JSON.stringify(await query(FLOOR_SEARCH, [userId, `${m}-01`, `${m}-28`]));
      searches.push(performance.now() - t);
    }
    const sums: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      const t = performance.now();
      await query(FLOOR_SUMS, [userId, '2024-01-01', '2024-12-31']);
      sums.push(performance.now() - t);
    }
    return { searchFloorMs: median(searches), sumsFloorMs: median(sums) };
  } finally {
    await close();
  }
}

const COLUMNS =
  'user_id, account_id, category_id, category_source, post_date, description, amount, type, batch_id, created_at, is_split';

/** The floor's rows: the file parsed by csv-parse, as the transaction table's columns. */
function floorRows(
  file: string,
  userId: number,
  accountId: number,
  categoryIds: Map<string, number>,
): (string | number | null | undefined)[][] {
  const now = new Date().toISOString();
  return parse(file, { from_line: 2 }).map(([date, description, amount, category]) => {
    const cents = Math.round(Number(amount) * 100);
    return [
      userId,
      accountId,
      categoryIds.get(category) ?? null,
      'bank',
      date,
      description,
      cents,
      cents < 0 ? 'Debit' : 'Credit',
      'floor',
      now,
    ];
  });
}

/** Creates a user, an account, the categories and a batch on a fresh migrated database; answers their ids. */
async function seedFloor(
  run: (sql: string, params?: unknown[]) => Promise<{ id: number }[]>,
  scope: (userId: number) => Promise<unknown>,
): Promise<{ userId: number; accountId: number; categoryIds: Map<string, number> }> {
  const now = new Date().toISOString();
  const [user] = await run(
    `insert into "user" (username, username_key, password_hash, created_at, updated_at) values ('floor', 'floor', 'x', ?, ?) returning id`,
    [now, now],
  );
  await scope(user.id);
  const [account] = await run(
    `insert into account (user_id, name, name_key, type, opening_balance, opening_date, apply_suggestions, created_at) values (?, 'Checking', 'checking', 'Checking', 0, '2000-01-01', true, ?) returning id`,
    [user.id, now],
  );
  const categoryIds = new Map<string, number>();
  for (const name of CATEGORIES) {
    const [row] = await run(
      'insert into category (user_id, name, name_key, created_at) values (?, ?, ?, ?) returning id',
      [user.id, name, name.toLowerCase(), now],
    );
    categoryIds.set(name, row.id);
  }
  await run(
    `insert into batch (id, user_id, account_id, upload_date, transaction_count) values ('floor', ?, ?, ?, ?) returning 0 as id`,
    [user.id, account.id, now, ROWS],
  );
  return { userId: user.id, accountId: account.id, categoryIds };
}

/** The import's floor on the given database (a fresh one, migrated like the app's): ms for parse + insert. */
async function importFloor(target: DatabaseTarget, file: string): Promise<number> {
  await (await openDatabase(target)).close(true);
  if (target.dialect === 'sqlite') {
    const db = new Database(target.file);
    try {
      db.pragma('journal_mode = WAL');
      db.pragma('foreign_keys = ON');
      const run = (sql: string, params: unknown[] = []) =>
        Promise.resolve(
          db.prepare(sql).all(...params.map((p) => (typeof p === 'boolean' ? Number(p) : p))) as { id: number }[],
        );
      const begin = db.prepare('begin');
      begin.run();
      const { userId, accountId, categoryIds } = await seedFloor(run, () => Promise.resolve());
      db.prepare('commit').run();
      const perInsert = 100;
      const rowSql = '(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)';
      const full = db.prepare(
        `insert into "transaction" (${COLUMNS}) values ${Array.from({ length: perInsert }, () => rowSql).join(', ')}`,
      );
      const start = performance.now();
      const rows = floorRows(file, userId, accountId, categoryIds);
      db.transaction(() => {
        let i = 0;
        for (; i + perInsert <= rows.length; i += perInsert) full.run(rows.slice(i, i + perInsert).flat());
        for (; i < rows.length; i++) db.prepare(`insert into "transaction" (${COLUMNS}) values ${rowSql}`).run(rows[i]);
      })();
      return performance.now() - start;
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: target.url });
  await client.connect();
  try {
    const run = async (sql: string, params: unknown[] = []) =>
      (await client.query(numberPlaceholders(sql), params)).rows as { id: number }[];
    await client.query('begin');
    // Row-level security, as the app runs.
    const { userId, accountId, categoryIds } = await seedFloor(run, (id) =>
      run("select set_config('app.user_id', ?, true)", [String(id)]),
    );
    const types = ['int', 'int', 'int', 'varchar', 'varchar', 'text', 'int', 'varchar', 'varchar', 'varchar'];
    const insert = `insert into "transaction" (${COLUMNS}) select u.*, false from unnest(${types.map((t, i) => `$${i + 1}::${t}[]`).join(', ')}) as u`;
    const start = performance.now();
    const rows = floorRows(file, userId, accountId, categoryIds);
    for (let i = 0; i < rows.length; i += 10_000) {
      const chunk = rows.slice(i, i + 10_000);
      await client.query(
        insert,
        types.map((_, c) => pgArrayLiteral(chunk.map((row) => row[c]))),
      );
    }
    await client.query('commit');
    return performance.now() - start;
  } finally {
    await client.end();
  }
}

export default async function run(): Promise<void> {
  const file = csv();
  const history = historyCsv();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-floor-'));
  let sqliteFloorMs: number;
  try {
    sqliteFloorMs = await importFloor({ dialect: 'sqlite', file: path.join(dir, 'floor.sqlite') }, file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const sqlite = { ...(await measure({}, file, history)), floorRowsPerSecond: ROWS / (sqliteFloorMs / 1000) };
  const adminUrl = process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL;
  let postgres: Figures | null = null;
  if (await postgresAnswers(adminUrl)) {
    const floorDb: ScratchDatabase = await createScratchDatabase('bt_floor', adminUrl);
    let floorMs: number;
    try {
      floorMs = await importFloor({ dialect: 'postgresql', url: floorDb.url }, file);
    } finally {
      await floorDb.drop();
    }
    const scratch: ScratchDatabase = await createScratchDatabase('bt_bench', adminUrl);
    try {
      postgres = {
        ...(await measure({ DATABASE_URL: scratch.url }, file, history)),
        floorRowsPerSecond: ROWS / (floorMs / 1000),
      };
    } finally {
      await scratch.drop();
    }
  }
  const column = (f: Figures | null, pick: (f: Figures) => string) => (f ? pick(f) : 'no PostgreSQL');
  console.log(`${''.padEnd(34)}${'SQLite'.padEnd(18)}PostgreSQL`);
  console.log(
    `${`import ${ROWS.toLocaleString('en-US')} rows (rows/s)`.padEnd(34)}${sqlite.importRowsPerSecond.toFixed(0).padEnd(18)}${column(postgres, (f) => f.importRowsPerSecond.toFixed(0))}`,
  );
  console.log(
    `${'  floor: csv-parse + bulk insert'.padEnd(34)}${sqlite.floorRowsPerSecond.toFixed(0).padEnd(18)}${column(postgres, (f) => f.floorRowsPerSecond.toFixed(0))}`,
  );
  console.log(
    `${'  import / floor time (ratio)'.padEnd(34)}${(sqlite.floorRowsPerSecond / sqlite.importRowsPerSecond).toFixed(2).padEnd(18)}${column(postgres, (f) => (f.floorRowsPerSecond / f.importRowsPerSecond).toFixed(2))}`,
  );
  console.log(
    `${'one-month search (median)'.padEnd(34)}${ms(sqlite.monthSearchMs).padEnd(18)}${column(postgres, (f) => ms(f.monthSearchMs))}`,
  );
  console.log(
    `${'  floor: its SQL + JSON, no HTTP'.padEnd(34)}${ms(sqlite.searchFloorMs).padEnd(18)}${column(postgres, (f) => ms(f.searchFloorMs))}`,
  );
  console.log(
    `${'  search / floor (ratio)'.padEnd(34)}${(sqlite.monthSearchMs / sqlite.searchFloorMs).toFixed(2).padEnd(18)}${column(postgres, (f) => (f.monthSearchMs / f.searchFloorMs).toFixed(2))}`,
  );
  console.log(
    `${`month search, ${HISTORY_ROWS.toLocaleString('en-US')} rows/user`.padEnd(34)}${ms(sqlite.historyMonthMs).padEnd(18)}${column(postgres, (f) => ms(f.historyMonthMs))}  (target < 30 ms; ${sqlite.historyMonthRows} rows in the answer)`,
  );
  console.log(
    `${'  floor: its SQL + JSON, no HTTP'.padEnd(34)}${ms(sqlite.historyFloorMs).padEnd(18)}${column(postgres, (f) => ms(f.historyFloorMs))}`,
  );
  console.log(
    `${'  search / floor (ratio)'.padEnd(34)}${(sqlite.historyMonthMs / sqlite.historyFloorMs).toFixed(2).padEnd(18)}${column(postgres, (f) => (f.historyMonthMs / f.historyFloorMs).toFixed(2))}`,
  );
  console.log(
    `${'one-year budget overview (median)'.padEnd(34)}${ms(sqlite.overviewMs).padEnd(18)}${column(postgres, (f) => ms(f.overviewMs))}`,
  );
  console.log(
    `${'  floor: its SQL sums, no HTTP'.padEnd(34)}${ms(sqlite.sumsFloorMs).padEnd(18)}${column(postgres, (f) => ms(f.sumsFloorMs))}`,
  );
  console.log(
    `${'  overview / floor (ratio)'.padEnd(34)}${(sqlite.overviewMs / sqlite.sumsFloorMs).toFixed(1).padEnd(18)}${column(postgres, (f) => (f.overviewMs / f.sumsFloorMs).toFixed(1))}`,
  );
}
