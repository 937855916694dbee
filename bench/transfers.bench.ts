/**
 * Transfer detection benchmark: a 100,000-row CSV import into an account while another account of
 * the same user holds 100,000 rows over the same three years (spending, pay, refunds, and 1,000
 * transfers between the two), with the detection that follows every import, against the floor:
 * the same import without it, in the same run. Each import is a fresh user (the other account
 * imported first, its background checkpoint done before the timing), alternating with and without, on the in-process
 * server (SQLite). Median of 5 each (the same import's time varies widely from one minute to the next on a shared
 * machine); wall time and this process's CPU time. Target: at most 10% more (ratio <= 1.10). The CPU is also
 * given with each import's background WAL checkpoint (a worker thread of this process) waited for and
 * counted: without, the part of it that overlaps the import is charged to the longer of the two windows.
 * BENCH_RUNS sets the number of runs.
 */
import os from 'node:os';
import { importFile } from '../src/server/modules/import/import.service';
import type { ImportResult } from '../src/shared/schemas/import';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { checkpointsSettled, median, ms } from './stats';

const ROWS = 100_000;
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TRANSFERS = 1_000;

const day = (i: number) => new Date(Date.UTC(2015, 0, 1) + (i % 1095) * 86_400_000).toISOString().slice(0, 10);
const money = (cents: number) =>
  `${cents < 0 ? '-' : ''}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, '0')}`;

/** One account's statement: mostly spending, pay every 14th row, a refund every 50th, and its sides of the transfers. */
export function statement(seed: number, side: 1 | -1): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < ROWS; i += 1) {
    if (i < TRANSFERS) {
      // Transfer i: money out of the other account, in to this one (or the reverse), up to 4 days apart.
      const amount = 10_000 + i * 37;
      const date = day(i * 3 + (side === 1 ? i % 5 : 0));
      lines.push(`${date},${side === 1 ? 'TRANSFER FROM OTHER' : 'TRANSFER TO MAIN'},${money(side * amount)}`);
      continue;
    }
    const cents = ((i * 7919 + seed * 104_729) % 25_000) + 1;
    const amount = i % 14 === 0 ? 250_000 + (i % 997) : i % 50 === 0 ? cents : -cents;
    lines.push(`${day(Math.floor(i / 91))},SHOP ${i % 4999} REF${i % 997},${money(amount)}`);
  }
  return `${lines.join('\n')}\n`;
}

export default async function run(): Promise<void> {
  const server = await startServer({ UPLOAD_LIMIT_BYTES: String(64 * 1024 * 1024) });
  const other = statement(1, -1);
  const main = statement(2, 1);
  const em = server.app.orm.em;
  try {
    const measure = async (findTransfers: boolean) => {
      const user = await registerUser(server.url);
      for (const name of ['Other', 'Main'])
        await rest(server.url, 'POST', '/api/accounts', { token: user.accessToken, body: { name, type: 'checking' } });
      const input = (account: string, csv: string, find: boolean) => ({
        account,
        bytes: new TextEncoder().encode(csv),
        fileName: `${account}.csv`,
        transactionType: 'auto' as const,
        flipAmounts: false,
        dryRun: false,
        dateFormat: undefined,
        mapping: undefined,
        statements: undefined,
        findTransfers: find,
      });
      await importFile(em.fork(), user.user.id, input('Other', other, false));
      // The other account's import is copied into the file by a worker thread after it: done before the timing.
      await checkpointsSettled();
      const cpu = process.cpuUsage();
      const start = performance.now();
      const result = await importFile(em.fork(), user.user.id, input('Main', main, findTransfers));
      const wall = performance.now() - start;
      const used = process.cpuUsage(cpu);
      // The import's log is copied into the file by a worker thread of this process after its commit; its CPU
      // lands in whichever window it overlaps (more of it in a longer one), so it is waited for and counted.
      await checkpointsSettled();
      const whole = process.cpuUsage(cpu);
      return {
        wall,
        cpu: (used.user + used.system) / 1000,
        cpuWithCheckpoint: (whole.user + whole.system) / 1000,
        result,
      };
    };
    type Measured = { wall: number; cpu: number; cpuWithCheckpoint: number };
    const withDetection: Measured[] = [];
    const floor: Measured[] = [];
    let found: ImportResult['transfers'];
    await measure(true); // warm up
    for (let i = 0; i < RUNS; i += 1) {
      floor.push(await measure(false));
      const measured = await measure(true);
      found = measured.result.transfers;
      withDetection.push(measured);
    }
    const walls = (list: { wall: number }[]) => list.map((r) => r.wall);
    const cpus = (list: { cpu: number }[]) => list.map((r) => r.cpu);
    const wholeCpus = (list: Measured[]) => list.map((r) => r.cpuWithCheckpoint);
    console.log(
      `100,000-row import, another account holding 100,000 rows, without detection (floor): median ${ms(median(walls(floor)))} (${walls(floor).map(ms).join(', ')}); CPU median ${ms(median(cpus(floor)))}`,
    );
    console.log(
      `the same with transfer detection: median ${ms(median(walls(withDetection)))} (${walls(withDetection).map(ms).join(', ')}); CPU median ${ms(median(cpus(withDetection)))}; linked ${found?.linkedCount ?? 0}, offered ${found?.offeredCount ?? 0} of ${TRANSFERS} transfers`,
    );
    console.log(
      `ratio with/without detection: wall ${(median(walls(withDetection)) / median(walls(floor))).toFixed(2)}, CPU ${(median(cpus(withDetection)) / median(cpus(floor))).toFixed(2)} (target <= 1.10); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    );
    console.log(
      `CPU with each import's background checkpoint: floor median ${ms(median(wholeCpus(floor)))}, with detection ${ms(median(wholeCpus(withDetection)))}; ratio ${(median(wholeCpus(withDetection)) / median(wholeCpus(floor))).toFixed(2)}`,
    );
  } finally {
    await server.close();
  }
}
