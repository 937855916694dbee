/**
 * Server CPU per answer, for the answers of the domain benchmark whose wall time a shared, loaded
 * machine swamps: the production server bundle in its own process (bench/server-process.ts) on
 * the domain benchmark's data (250,000 rows over 10 years for one user), and the mean CPU time
 * (/proc, user + system, thread pool included) it spends per request over many requests:
 *  - the one-year budget overview (25,000 rows, ~7 MB of JSON) with brotli (what fetch and
 *    browsers ask for) and without compression;
 *  - the one-month search (2,000 rows) over REST, whose JSON the database writes, and over tRPC,
 *    whose rows are read as objects and serialised by tRPC (the same rows, side by side).
 * Beside them, measured the same way in this process on the same file: the floors of the domain
 * benchmark (the same rows read with plain SQL and turned into JSON; the year's SQL sums).
 */
import Database from 'better-sqlite3';
import { cpuTimeMs, startServerProcess } from './server-process';
import { createYearBudget, PER_USER, seed } from './domain.bench';
import { ms } from './stats';

const FLOOR_SQL = `select t.id, t.post_date, t.description, t.amount, t.type, t.is_split, t.parent_id, t.split_note, t.batch_id, t.account_id,
        a.name as account_name, c.name as category_name
   from "transaction" t left join account a on a.id = t.account_id left join category c on c.id = t.category_id
  where t.user_id = ? and t.post_date >= ? and t.post_date <= ? order by t.post_date desc, t.id desc`;
const SUMS_SQL = `select c.name_key, t.type, t.parent_id is not null as part, count(*) as n, sum(t.amount) as total
   from "transaction" t left join category c on c.id = t.category_id
  where t.user_id = ? and t.post_date >= ? and t.post_date <= ? and t.is_split = 0
  group by c.name_key, t.type, t.parent_id is not null`;

/** Mean CPU time of `work` in this process, in ms. */
function ownCpu(times: number, work: () => unknown): number {
  work();
  const start = process.cpuUsage();
  for (let i = 0; i < times; i += 1) work();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000 / times;
}

export default async function run(): Promise<void> {
  const server = await startServerProcess();
  try {
    const register = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username: 'cpu-bench', password: 'correct horse battery' }),
    });
    const auth = (await register.json()) as { accessToken: string; user: { id: number } };
    const db = new Database(server.databaseFile);
    seed(db, auth.user.id, PER_USER);
    db.exec('analyze');
    const headers = { authorization: `Bearer ${auth.accessToken}` };
    const budget = { id: await createYearBudget(server.url, auth.accessToken) };
    const pid = server.child.pid ?? 0;
    const serverCpu = async (times: number, url: string, encoding: string, warmUp = 1): Promise<number> => {
      const once = async () => {
        const res = await fetch(url, { headers: { ...headers, 'accept-encoding': encoding } });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}`);
      };
      for (let i = 0; i < warmUp; i += 1) await once();
      const start = cpuTimeMs(pid);
      for (let i = 0; i < times; i += 1) await once();
      return (cpuTimeMs(pid) - start) / times;
    };
    const floorDb = new Database(server.databaseFile, { readonly: true });
    const floor = floorDb.prepare(FLOOR_SQL);
    const sums = floorDb.prepare(SUMS_SQL);
    const year = ['2023-01-01', '2023-12-31'] as const;
    const month = ['2023-11-01', '2023-11-30'] as const;
    const rowsFloor = ownCpu(20, () => JSON.stringify(floor.all(auth.user.id, ...year)));
    const sumsFloor = ownCpu(20, () => sums.all(auth.user.id, ...year));
    const monthFloor = ownCpu(200, () => JSON.stringify(floor.all(auth.user.id, ...month)));
    const overview = `${server.url}/api/budgets/${budget.id}/overview`;
    const trpcSearch = `${server.url}/trpc/transactions.list?input=${encodeURIComponent(JSON.stringify({ startDate: month[0], endDate: month[1] }))}`;
    const search = `${server.url}/api/transactions?start_date=${month[0]}&end_date=${month[1]}`;
    console.log(
      `floors (CPU on the file, this process): the year's rows + JSON ${ms(rowsFloor)}; the year's SQL sums ${ms(sumsFloor)}; a month's rows + JSON ${ms(monthFloor)}`,
    );
    // Every path compiled before any is measured: V8's compiler threads count in the server's CPU, and with
    // one call of warm-up the first path measured would pay for them.
    for (const url of [overview, trpcSearch])
      for (const encoding of ['gzip, deflate, br', 'identity']) await serverCpu(1, url, encoding, 5);
    for (const [label, url, encoding, times, against, sumsAgainst] of [
      ['one-year overview, REST, br', overview, 'gzip, deflate, br', 20, rowsFloor, sumsFloor],
      ['one-year overview, REST, identity', overview, 'identity', 20, rowsFloor, sumsFloor],
      ['one-month search, REST, br', search, 'gzip, deflate, br', 200, monthFloor, null],
      ['one-month search, REST, identity', search, 'identity', 200, monthFloor, null],
      ['one-month search, tRPC, br', trpcSearch, 'gzip, deflate, br', 200, monthFloor, null],
      ['one-month search, tRPC, identity', trpcSearch, 'identity', 200, monthFloor, null],
    ] as const) {
      const cpu = await serverCpu(times, url, encoding);
      const sumsRatio = sumsAgainst === null ? '' : `, ${(cpu / sumsAgainst).toFixed(1)}x the sums floor`;
      console.log(
        `${label}: server CPU ${ms(cpu)} per answer = ${(cpu / against).toFixed(2)}x its rows floor${sumsRatio}`,
      );
    }
    floorDb.close();
    db.close();
  } finally {
    await server.close();
  }
}
