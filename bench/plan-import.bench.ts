/**
 * What the plan's stored month sums cost an import: a 100,000-row CSV through POST /api/upload into an in-process
 * SQLite server, each round into a fresh user, alternately with the transaction table's plan_month_sum triggers in
 * place and dropped (restored after), so both ways run on the same code, data and load. Medians of wall time and
 * of this process's CPU time (server and client share it; the client's part is the same both ways).
 * `TEST_DATABASE=postgresql npm run bench plan-import` measures the same on PostgreSQL (PG_ADMIN_URL), where the
 * triggers are disabled and enabled again instead of dropped.
 */
import Database from 'better-sqlite3';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { median, ms } from './stats';

const ROWS = 100_000;
const ROUNDS = 4;

function generateCsv(): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < ROWS; i += 1) {
    const day = new Date(Date.UTC(2019, 0, 1) + Math.floor(i / 50) * 86_400_000);
    const cents = ((i * 7919) % 25000) + 1;
    lines.push(
      `${day.toISOString().slice(0, 10)},Shop #${i % 997},-${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`,
    );
  }
  return lines.join('\n');
}

export default async function run(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'silent' });
  const db = server.database === 'sqlite' ? new Database(server.config.databaseFile) : null;
  try {
    const triggers = db
      ? db
          .prepare<[], { name: string; sql: string }>(
            "select name, sql from sqlite_master where type = 'trigger' and name like 'plan_month_sum%'",
          )
          .all()
      : await server.sql<{ name: string; sql: string }>(
          "select tgname as name, '' as sql from pg_trigger where tgname like 'plan_month_sum%'",
        );
    if (triggers.length === 0) throw new Error('no plan_month_sum triggers to measure');
    const setTriggers = async (on: boolean) => {
      for (const trigger of triggers)
        if (db) db.exec(on ? trigger.sql : `drop trigger ${trigger.name}`);
        else await server.sql(`alter table "transaction" ${on ? 'enable' : 'disable'} trigger ${trigger.name}`);
    };
    const file = generateCsv();
    const importOnce = async () => {
      const user = await registerUser(server.url);
      const token = user.accessToken;
      await rest(server.url, 'POST', '/api/accounts', { token, body: { name: 'Checking', type: 'checking' } });
      const body = new FormData();
      body.append('file', new Blob([file]), 'bench.csv');
      body.append('account', 'Checking');
      body.append('transactionType', 'debit');
      const cpu = process.cpuUsage();
      const start = performance.now();
      const res = await rest(server.url, 'POST', '/api/upload', { token, body });
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      if (res.status !== 201) throw new Error(`upload: ${res.status} ${JSON.stringify(res.body)}`);
      return { wall, cpu: (used.user + used.system) / 1000 };
    };
    await importOnce(); // warm up
    const withTriggers: { wall: number; cpu: number }[] = [];
    const without: { wall: number; cpu: number }[] = [];
    for (let round = 0; round < ROUNDS; round += 1) {
      withTriggers.push(await importOnce());
      await setTriggers(false);
      try {
        without.push(await importOnce());
      } finally {
        await setTriggers(true);
      }
    }
    const wall = (rows: typeof without) => median(rows.map((r) => r.wall));
    const cpu = (rows: typeof without) => median(rows.map((r) => r.cpu));
    console.log(
      `${server.database}: 100,000-row import, ${ROUNDS} alternating rounds: with the plan's triggers wall ${ms(wall(withTriggers))}, CPU ${ms(cpu(withTriggers))}; without wall ${ms(wall(without))}, CPU ${ms(cpu(without))}; ratio wall ${(wall(withTriggers) / wall(without)).toFixed(3)}, CPU ${(cpu(withTriggers) / cpu(without)).toFixed(3)}`,
    );
  } finally {
    db?.close();
    await server.close();
  }
}
