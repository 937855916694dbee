/**
 * Export benchmark: GET /api/transactions/export.csv of 100,000 rows from the production server
 * bundle in its own process (rows/s to the last byte, and the server's peak RSS), beside the
 * floor: the same rows read straight from the file and formatted with the same CSV functions.
 * Targets: at least 50,000 rows/s, server memory under 200 MB.
 */
import Database from 'better-sqlite3';
import { transactionCsvHeader, transactionCsvRecord } from '../src/shared/export/transactions-csv';
import type { TransactionType } from '../src/shared/schemas/transactions';
import { registerUser } from '../tests/helpers/http';
import { seedHistory } from './seed';
import { peakRss, startServerProcess } from './server-process';
import { mb, median, ms } from './stats';

const ROWS = 100_000;

export default async function run(): Promise<void> {
  const server = await startServerProcess();
  try {
    const user = await registerUser(server.url);
    const db = new Database(server.databaseFile);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    seedHistory(db, user.user.id, {
      rows: ROWS,
      start: '2016-01-01',
      days: 3000,
      accounts: ['Checking', 'Card'],
      seed: 3,
    });
    db.close();
    const idle = peakRss(server.child.pid!);
    const url = `${server.url}/api/transactions/export.csv?start_date=1900-01-01&end_date=9999-12-31`;
    const times: number[] = [];
    let lines = 0;
    let bytes = 0;
    for (let round = 0; round < 3; round += 1) {
      const t0 = performance.now();
      const res = await fetch(url, { headers: { authorization: `Bearer ${user.accessToken}` } });
      if (!res.ok || !res.body) throw new Error(`export answered ${res.status}`);
      lines = 0;
      bytes = 0;
      const reader = res.body.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        for (let i = 0; i < value.length; i += 1) if (value[i] === 10) lines += 1;
      }
      times.push(performance.now() - t0);
    }
    const rows = lines - 1;
    const floorDb = new Database(server.databaseFile, { readonly: true });
    const all = floorDb.prepare(
      `select t.id, t.post_date as postDate, t.description, t.amount, t.type, t.is_split as isSplit, t.parent_id as parentTransactionId, t.batch_id as batchId, a.name as account, c.name as category
         from \`transaction\` t left join account a on a.id = t.account_id left join category c on c.id = t.category_id
        where t.user_id = ? order by t.post_date desc, t.id desc`,
    );
    const floorTimes: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      const t0 = performance.now();
      let size = transactionCsvHeader().length;
      for (const row of all.iterate(user.user.id) as Iterable<{
        id: number;
        isSplit: number;
        postDate: string;
        description: string;
        amount: number;
        type: TransactionType;
        parentTransactionId: number | null;
        batchId: string | null;
        account: string | null;
        category: string | null;
      }>) {
        size += transactionCsvRecord(row).length;
      }
      floorTimes.push(performance.now() - t0);
      if (size === 0) throw new Error('nothing read');
    }
    floorDb.close();
    const http = median(times);
    const floor = median(floorTimes);
    const rate = (elapsed: number) => (rows / elapsed) * 1000;
    console.log(
      `export of ${rows.toLocaleString('en-US')} rows (${mb(bytes)}), streamed over HTTP: median ${ms(http)} = ${rate(http).toFixed(0)} rows/s (target >= 50,000 rows/s)`,
    );
    console.log(
      `floor (the same rows read and formatted on the file, no HTTP): ${ms(floor)} = ${rate(floor).toFixed(0)} rows/s; ratio ${(rate(http) / rate(floor)).toFixed(2)}`,
    );
    console.log(
      `server peak RSS: ${mb(peakRss(server.child.pid!))} (after start and seeding: ${mb(idle)}; target < 200 MB)`,
    );
  } finally {
    await server.close();
  }
}
