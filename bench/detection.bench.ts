/**
 * Transfer detection alone, warm: the data of `npm run bench transfers` (100,000 rows imported into an
 * account beside another of 100,000, 1,000 transfers between them) imported once without detection,
 * then the detection run on that batch again and again (every link undone between runs), on the
 * in-process server (SQLite). Each run's CPU time and the median of the last ones: what detection
 * itself costs once its code is compiled, without the import, its garbage or its checkpoint around it.
 */
import os from 'node:os';
import { importFile } from '../src/server/modules/import/import.service';
import { detectTransfers } from '../src/server/modules/transfers/transfer-detection';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { median, ms } from './stats';
import { statement } from './transfers.bench';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
/** Runs left out of the median: the code is still being compiled. */
const COLD = 3;

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
    const cpus: number[] = [];
    let linked = 0;
    for (let i = 0; i < RUNS; i += 1) {
      await server.sql('update "transaction" set transfer_id = null where user_id = ?', [user.user.id], 'run');
      await server.sql('delete from transfer where user_id = ?', [user.user.id], 'run');
      const cpu = process.cpuUsage();
      const found = await detectTransfers(em.fork(), user.user.id, detected, () => undefined);
      const used = process.cpuUsage(cpu);
      cpus.push((used.user + used.system) / 1000);
      linked = found.linkedCount;
    }
    console.log(
      `detection alone on 100,000 + 100,000 rows: CPU per run ${cpus.map((c) => c.toFixed(1)).join(', ')} ms; median of the last ${RUNS - COLD} ${ms(median(cpus.slice(COLD)))}; linked ${linked} of 1000; load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
    );
  } finally {
    await server.close();
  }
}
