/**
 * Start and idle (goals: healthy in under 1 s on an existing database of 250,000 rows; idle RSS under
 * 100 MB). The production bundle (dist/server/main.js, rebuilt by scripts/build-server.mjs) is started five times on a copy of a database holding 250,000 of one
 * user's rows; each start is timed from spawn to the first healthy /api/health, and the resident memory
 * is read after it has idled for two seconds. The floor, measured in the same run, is a bare Node.js
 * process that opens the same file with better-sqlite3 and answers a health check over HTTP. Beside
 * the wall time (which other work on a shared machine stretches), the CPU time the process used until
 * it was healthy.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { registerUser } from '../tests/helpers/http';
import { freePort } from '../tests/helpers/ports';
import { seedHistory } from './seed';
import { startServerProcess } from './server-process';
import { mb, median, ms } from './stats';

const FLOOR = `
const Database = require('better-sqlite3');
const db = new Database(process.env.DATABASE_FILE, { readonly: true });
db.prepare('select count(*) from sqlite_master').get();
require('node:http').createServer((req, res) => res.end('{"status":"ok"}')).listen(Number(process.env.PORT), '127.0.0.1');
`;

/** CPU time (user + system) a process has used so far, in ms (Linux: /proc/<pid>/stat, in clock ticks of 10 ms). */
function cpuMsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function rssOf(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) * 1024 : Number.NaN;
}

interface Start {
  startMs: number;
  startCpuMs: number;
  idleRss: number;
}

async function startOnce(args: string[], env: Record<string, string>): Promise<Start> {
  const port = await freePort();
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode}`);
      if (
        await fetch(`http://127.0.0.1:${port}/api/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const startMs = performance.now() - started;
    const startCpuMs = cpuMsOf(child.pid!);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    return { startMs, startCpuMs, idleRss: rssOf(child.pid!) };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

export default async function run(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-startup-'));
  const databaseFile = path.join(dir, 'budget-tracker.sqlite');
  try {
    const first = await startServerProcess();
    try {
      const user = await registerUser(first.url);
      const db = new Database(first.databaseFile);
      db.pragma('journal_mode = WAL');
      seedHistory(db, user.user.id, {
        rows: 250_000,
        start: '2016-01-01',
        days: 3650,
        accounts: ['Checking', 'Card'],
        splitEvery: 100,
        seed: 3,
      });
      db.exec('analyze');
      await db.backup(databaseFile);
      db.close();
    } finally {
      await first.close();
    }
    const built = spawnSync(process.execPath, ['scripts/build-server.mjs'], { stdio: 'ignore' });
    if (built.status !== 0) throw new Error('scripts/build-server.mjs failed');
    const bundle = path.resolve('dist/server/main.js');
    const app: Start[] = [];
    const flagged: Start[] = [];
    const floor: Start[] = [];
    for (let i = 0; i < 5; i += 1) {
      app.push(await startOnce([bundle], { DATA_DIR: dir }));
      // As `npm start` and the Docker image run it.
      flagged.push(await startOnce(['--max-semi-space-size=2', bundle], { DATA_DIR: dir }));
      floor.push(await startOnce(['-e', FLOOR], { DATABASE_FILE: databaseFile }));
    }
    const appStart = median(app.map((r) => r.startMs));
    const floorStart = median(floor.map((r) => r.startMs));
    const appCpu = median(app.map((r) => r.startCpuMs));
    const floorCpu = median(floor.map((r) => r.startCpuMs));
    const appRss = median(app.map((r) => r.idleRss));
    const floorRss = median(floor.map((r) => r.idleRss));
    console.log(
      `start on 250,000 rows, spawn to healthy: median ${ms(appStart)} (target < 1000 ms); floor (node + better-sqlite3 + http) ${ms(floorStart)}; ratio ${(appStart / floorStart).toFixed(2)}x`,
    );
    console.log(
      `CPU time until healthy: median ${ms(appCpu)}; floor ${ms(floorCpu)}; ratio ${(appCpu / floorCpu).toFixed(2)}x`,
    );
    console.log(
      `idle RSS after 2 s: node dist/server/main.js ${mb(appRss)}; with --max-semi-space-size=2 (npm start, Docker) ${mb(median(flagged.map((r) => r.idleRss)))} (target < 100 MB); floor ${mb(floorRss)}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
