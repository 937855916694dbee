/**
 * Many writers and readers at once, on SQLite and on PostgreSQL side by side: 20 users each
 * import a file while 20 other users search one month of their own history again and again.
 * Prints the searches' p50/p99 latency and errors during the imports, beside the same searches
 * with nothing else running (the floor, same run), and the server's CPU per search alone (its main
 * thread's and the whole process's: /proc, far less disturbed by a loaded machine than the latencies).
 * Target: p99 under 200 ms, no errors.
 * The server runs as the production bundle in its own process (bench/server-process.ts); the
 * searchers read each answer's bytes without decoding or parsing them (getBytes in stats.ts);
 * PostgreSQL on a scratch database through PG_ADMIN_URL (its column says so when none answers), with
 * the CPU its backends for that database spent per search alone (/proc of the backends
 * pg_stat_activity lists for it; beside it, the app's connections' alone, without an autovacuum worker
 * analysing the seeded rows meanwhile). BENCH_DATABASES=postgresql (or sqlite) measures one database only.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { createScratchDatabase, DEFAULT_PG_ADMIN_URL, postgresAnswers } from '../src/server/db/pg-scratch';
import { registerUser, rest } from '../tests/helpers/http';
import { cpuTimeMs, mainThreadCpuMs, startServerProcess } from './server-process';
import { getBytes, ms } from './stats';

const IMPORTERS = 20;
const SEARCHERS = 20;
const ROWS_PER_IMPORT = 5_000;
const ROWS_PER_SEARCHER = 12_000;

function csv(rows: number, seed: number): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < rows; i += 1) {
    const day = new Date(Date.UTC(2024, 0, 1) + Math.floor((i / rows) * 365) * 86400_000).toISOString().slice(0, 10);
    lines.push(
      `${day},Shop ${(i * 7 + seed) % 300} order ${seed}-${i},-${(i % 200) + 1}.${String(i % 100).padStart(2, '0')}`,
    );
  }
  return lines.join('\n');
}

async function signedInWithAccount(url: string): Promise<string> {
  const user = await registerUser(url);
  await rest(url, 'POST', '/api/accounts', { token: user.accessToken, body: { name: 'Checking', type: 'checking' } });
  return user.accessToken;
}

function upload(url: string, token: string, file: string) {
  const body = new FormData();
  body.append('file', new Blob([file]), 'statement.csv');
  body.append('account', 'Checking');
  body.append('transactionType', 'auto');
  return rest(url, 'POST', '/api/upload', { token, body });
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

interface Figures {
  quietP50: number;
  quietP99: number;
  busyP50: number;
  busyP99: number;
  searches: number;
  errors: number;
  importSeconds: number;
  /** The server's CPU per search while the searches ran alone: its main thread's, and the whole process's. */
  mainCpuPerSearch: number;
  cpuPerSearch: number;
  /** PostgreSQL's CPU per search alone: its backends serving the scratch database (NaN on SQLite). */
  dbCpuPerSearch: number;
  /** The same, of the app's connections alone (client backends: no autovacuum worker). */
  clientBackendsCpuPerSearch: number;
}

/** Time a process has run on a CPU so far, in ms (Linux: /proc/<pid>/schedstat, in ns, where stat counts 10 ms ticks). */
function runTimeMs(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

/**
 * CPU (ms) used so far by each backend PostgreSQL runs for `database` (pid -> ms); none without an admin URL.
 * `clientsOnly`: the app's connections alone (not autovacuum, which may be analysing the seeded rows meanwhile).
 */
async function backendsCpuMs(
  adminUrl: string | null,
  database: string,
  clientsOnly = false,
): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (adminUrl === null) return out;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      `select pid from pg_stat_activity where datname = $1${clientsOnly ? " and backend_type = 'client backend'" : ''}`,
      [database],
    );
    for (const { pid } of rows) {
      try {
        out.set(pid, runTimeMs(pid));
      } catch {
        // Ended meanwhile.
      }
    }
  } finally {
    await client.end();
  }
  return out;
}

/** CPU the backends used between two readings (a backend that started in between counts from zero). */
function backendsCpuBetween(before: Map<number, number>, after: Map<number, number>): number {
  let sum = 0;
  for (const [pid, ms] of after) sum += ms - (before.get(pid) ?? 0);
  return sum;
}

async function measure(
  env: Record<string, string>,
  pgAdmin: { url: string; database: string } | null = null,
): Promise<Figures> {
  const server = await startServerProcess({
    UPLOAD_LIMIT_BYTES: String(16 * 1024 * 1024),
    LOGIN_MAX_FAILURES: '1000',
    ...env,
  });
  try {
    const searchers: string[] = [];
    for (let i = 0; i < SEARCHERS; i++) {
      const token = await signedInWithAccount(server.url);
      const res = await upload(server.url, token, csv(ROWS_PER_SEARCHER, 1000 + i));
      if (res.status !== 201) throw new Error(`seed import failed: ${res.status}`);
      searchers.push(token);
    }
    const importers: string[] = [];
    for (let i = 0; i < IMPORTERS; i++) importers.push(await signedInWithAccount(server.url));
    const months = ['2024-02', '2024-05', '2024-08', '2024-11'];
    let errors = 0;
    const search = async (token: string, n: number, into: number[]) => {
      const m = months[n % months.length];
      const t = performance.now();
      const res = await getBytes(`${server.url}/api/transactions?start_date=${m}-01&end_date=${m}-28`, token);
      into.push(performance.now() - t);
      if (res.status !== 200) errors++;
    };
    // The floor: the same searches, one round from every searcher at once, with no import running.
    const quiet: number[] = [];
    const pid = server.child.pid ?? 0;
    const db0 = await backendsCpuMs(pgAdmin?.url ?? null, pgAdmin?.database ?? '');
    const clients0 = await backendsCpuMs(pgAdmin?.url ?? null, pgAdmin?.database ?? '', true);
    const [main0, cpu0] = [mainThreadCpuMs(pid), cpuTimeMs(pid)];
    for (let round = 0; round < 5; round++)
      await Promise.all(searchers.map((token, i) => search(token, round + i, quiet)));
    const [mainCpuPerSearch, cpuPerSearch] = [
      (mainThreadCpuMs(pid) - main0) / quiet.length,
      (cpuTimeMs(pid) - cpu0) / quiet.length,
    ];
    const dbCpuPerSearch = pgAdmin
      ? backendsCpuBetween(db0, await backendsCpuMs(pgAdmin.url, pgAdmin.database)) / quiet.length
      : Number.NaN;
    const clientBackendsCpuPerSearch = pgAdmin
      ? backendsCpuBetween(clients0, await backendsCpuMs(pgAdmin.url, pgAdmin.database, true)) / quiet.length
      : Number.NaN;

    const busy: number[] = [];
    let importing = true;
    const started = performance.now();
    const imports = Promise.all(importers.map((token, i) => upload(server.url, token, csv(ROWS_PER_IMPORT, i)))).then(
      (results) => {
        importing = false;
        for (const r of results) if (r.status !== 201) errors++;
      },
    );
    const loops = searchers.map(async (token, i) => {
      for (let n = 0; importing; n++) await search(token, n + i, busy);
    });
    await imports;
    const importSeconds = (performance.now() - started) / 1000;
    await Promise.all(loops);
    return {
      quietP50: percentile(quiet, 50),
      quietP99: percentile(quiet, 99),
      busyP50: percentile(busy, 50),
      busyP99: percentile(busy, 99),
      searches: busy.length,
      errors,
      importSeconds,
      mainCpuPerSearch,
      cpuPerSearch,
      dbCpuPerSearch,
      clientBackendsCpuPerSearch,
    };
  } finally {
    await server.close();
  }
}

export default async function run(): Promise<void> {
  const only = process.env.BENCH_DATABASES;
  const sqlite = only === 'postgresql' ? null : await measure({});
  const adminUrl = process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL;
  let postgres: Figures | null = null;
  if (only !== 'sqlite' && (await postgresAnswers(adminUrl))) {
    const scratch = await createScratchDatabase('bt_bench', adminUrl);
    try {
      postgres = await measure({ DATABASE_URL: scratch.url }, { url: adminUrl, database: scratch.name });
    } finally {
      await scratch.drop();
    }
  }
  const row = (label: string, pick: (f: Figures) => string) =>
    console.log(
      `${label.padEnd(44)}${(sqlite ? pick(sqlite) : 'not measured').padEnd(24)}${postgres ? pick(postgres) : 'no PostgreSQL'}`,
    );
  console.log(
    `${IMPORTERS} users importing ${ROWS_PER_IMPORT.toLocaleString('en-US')} rows each while ${SEARCHERS} others search a month of ${ROWS_PER_SEARCHER.toLocaleString('en-US')} rows`,
  );
  console.log(`${''.padEnd(44)}${'SQLite'.padEnd(24)}PostgreSQL`);
  row('search p50 / p99, nothing else running', (f) => `${ms(f.quietP50)} / ${ms(f.quietP99)}`);
  row('server CPU per search alone (main / all)', (f) => `${ms(f.mainCpuPerSearch)} / ${ms(f.cpuPerSearch)}`);
  row('database CPU per search alone (backends)', (f) =>
    Number.isNaN(f.dbCpuPerSearch) ? 'in the server' : ms(f.dbCpuPerSearch),
  );
  row('  of which the app’s connections', (f) =>
    Number.isNaN(f.clientBackendsCpuPerSearch) ? 'in the server' : ms(f.clientBackendsCpuPerSearch),
  );
  row('search p50 / p99 during the imports', (f) => `${ms(f.busyP50)} / ${ms(f.busyP99)}`);
  row('  p99 during / p99 alone (ratio)', (f) => (f.busyP99 / f.quietP99).toFixed(2));
  row('searches during the imports', (f) => String(f.searches));
  row('errors (target 0)', (f) => String(f.errors));
  row('all 20 imports done in', (f) => `${f.importSeconds.toFixed(1)} s`);
}
