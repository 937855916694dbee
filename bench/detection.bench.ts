/**
 * Transfer detection alone, warm: the data of `npm run bench transfers` (100,000 rows imported into an
 * account beside another of 100,000, 1,000 transfers between them) imported once without detection,
 * then the detection run on that batch again and again (every link undone between runs), on the
 * in-process server (SQLite). Each run's CPU time and the median of the last ones: what detection
 * itself costs once its code is compiled, without the import, its garbage or its checkpoint around it.
 * Two ways in turn: reading the batch account's rows back (`read`), and taking them as the import hands
 * them over (`handed`, KnownAccountRows; here gathered from the batch once before the runs).
 * BENCH_WAYS=read or handed runs one of them. BENCH_CALLGRIND=1, when the process runs under
 * `valgrind --tool=callgrind --instr-atstart=no`, counts instructions during the detection runs alone
 * (callgrind_control switches the instrumentation on and off around each): a figure the load does not move.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { importFile } from '../src/server/modules/import/import.service';
import { sqlTx } from '../src/server/db/sql';
import { detectTransfers, KnownAccountRows } from '../src/server/modules/transfers/transfer-detection';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { median, ms } from './stats';
import { statement } from './transfers.bench';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** Runs left out of the median: the code is still being compiled. */
const COLD = 3;
const WAYS = (process.env.BENCH_WAYS ?? 'read,handed').split(',') as ('read' | 'handed')[];
const CALLGRIND = process.env.BENCH_CALLGRIND === '1';

/** Counts instructions (BENCH_CALLGRIND) from `on` to off: the warm runs only, the first COLD left out. */
function instrument(on: boolean): void {
  if (CALLGRIND) execFileSync('callgrind_control', ['-i', on ? 'on' : 'off', String(process.pid)]);
}

export default async function run(): Promise<void> {
  const server = await startServer({ UPLOAD_LIMIT_BYTES: String(64 * 1024 * 1024) });
  const em = server.app.orm.em;
  try {
    const user = await registerUser(server.url);
    for (const name of ['Other', 'Main'])
      await rest(server.url, 'POST', '/api/accounts', { token: user.accessToken, body: { name, type: 'checking' } });
    const input = (account: string, csv: string) => ({
      account,
      bytes: new TextEncoder().encode(csv),
      fileName: `${account}.csv`,
      transactionType: 'auto' as const,
      flipAmounts: false,
      dryRun: false,
      dateFormat: undefined,
      mapping: undefined,
      statements: undefined,
      findTransfers: false,
    });
    await importFile(em.fork(), user.user.id, input('Other', statement(1, -1)));
    const written = await importFile(em.fork(), user.user.id, input('Main', statement(2, 1)));
    const [batch] = await server.sql<{ account_id: number; first: string; last: string }>(
      'select account_id, min(post_date) as first, max(post_date) as last from "transaction" where batch_id = ? group by account_id',
      [written.batchId],
    );
    if (!batch || written.batchId === null) throw new Error('The import wrote no batch');
    const detected = {
      id: written.batchId,
      accountId: batch.account_id,
      dates: [batch.first, batch.last] as [string, string],
    };
    const known = new KnownAccountRows(...detected.dates);
    for (const row of await server.sql<{ post_date: string; amount: number }>(
      'select post_date, amount from "transaction" where account_id = ? and is_split = 0 order by post_date',
      [batch.account_id],
    ))
      known.add(row.post_date, row.amount);
    const cpus = { read: [] as number[], handed: [] as number[] };
    const linked = { read: 0, handed: 0 };
    for (let i = 0; i < RUNS; i += 1)
      for (const way of WAYS) {
        await server.sql('update "transaction" set transfer_id = null where user_id = ?', [user.user.id], 'run');
        await server.sql('delete from transfer where user_id = ?', [user.user.id], 'run');
        // As the import leaves it: marked after the last write, so detection takes the rows.
        known.mark = await em.fork().transactional(async (tem) => (await sqlTx(tem)).writeMark());
        if (i >= COLD) instrument(true);
        const cpu = process.cpuUsage();
        const found = await detectTransfers(
          em.fork(),
          user.user.id,
          way === 'handed' ? { ...detected, known } : detected,
          () => undefined,
        );
        const used = process.cpuUsage(cpu);
        if (i >= COLD) instrument(false);
        cpus[way].push((used.user + used.system) / 1000);
        linked[way] = found.linkedCount;
      }
    for (const way of WAYS)
      console.log(
        `detection alone on 100,000 + 100,000 rows, ${way}: CPU per run ${cpus[way].map((c) => c.toFixed(1)).join(', ')} ms; median of the last ${RUNS - COLD} ${ms(median(cpus[way].slice(COLD)))}; linked ${linked[way]} of 1000`,
      );
    console.log(`load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`);
  } finally {
    await server.close();
  }
}
