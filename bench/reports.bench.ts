/**
 * Reports benchmark: one user with 250,000 transactions over 5 years (1% split into two parts)
 * and two other users with as many between them. Medians over HTTP of
 *  - GET /api/reports/monthly for the 5 years (target < 200 ms), with and without an account,
 *  - GET /api/reports/payees for the 5 years,
 * each beside the floor: one SUM over the same counted rows, straight on the database file.
 */
import Database from 'better-sqlite3';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { seedHistory } from './seed';
import { median, ms, timeMedian } from './stats';

const ROWS = 250_000;
const START = '2020-01-01';
const END = '2024-12-31';

export default async function run(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'silent' });
  try {
    const heavy = await registerUser(server.url);
    const others = [await registerUser(server.url), await registerUser(server.url)];
    const seeded = performance.now();
    const db = new Database(server.config.databaseFile);
    db.pragma('journal_mode = WAL');
    seedHistory(db, heavy.user.id, {
      rows: ROWS,
      start: START,
      days: 1827,
      accounts: ['Checking', 'Card', 'Savings'],
      splitEvery: 100,
    });
    for (const other of others)
      seedHistory(db, other.user.id, { rows: ROWS / 2, start: START, days: 1827, accounts: ['Main'] });
    db.exec('analyze');
    db.close();
    console.log(
      `seeded ${ROWS.toLocaleString('en-US')} transactions (+ split parts) over 5 years for one user and as many for two others in ${ms(performance.now() - seeded)}`,
    );

    const floorDb = new Database(server.config.databaseFile, { readonly: true });
    const floorQuery = floorDb.prepare(
      'select count(*) as n, sum(amount) as total from `transaction` where user_id = ? and post_date >= ? and post_date <= ? and is_split = 0',
    );
    const counted = (floorQuery.get(heavy.user.id, START, END) as { n: number }).n;
    const floor = await timeMedian(9, () => floorQuery.get(heavy.user.id, START, END));

    const token = heavy.accessToken;
    const time = async (path: string) => {
      await rest(server.url, 'GET', path, { token }); // warm up
      const times: number[] = [];
      let body: unknown;
      for (let i = 0; i < 9; i += 1) {
        const t0 = performance.now();
        const res = await rest(server.url, 'GET', path, { token });
        times.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
        body = res.body;
      }
      return { median: median(times), body };
    };
    const monthly = await time(`/api/reports/monthly?start_date=${START}&end_date=${END}`);
    const card = await time(`/api/reports/monthly?start_date=${START}&end_date=${END}&account=Card`);
    const payees = await time(`/api/reports/payees?start_date=${START}&end_date=${END}`);
    console.log(`floor: one SUM over the ${counted.toLocaleString('en-US')} counted rows on the file: ${ms(floor)}`);
    console.log(
      `monthly report, 5 years (${(monthly.body as unknown[]).length} months): HTTP median ${ms(monthly.median)} = ${(monthly.median / floor).toFixed(1)}x the floor (target < 200 ms)`,
    );
    console.log(
      `monthly report, one account: HTTP median ${ms(card.median)} = ${(card.median / floor).toFixed(1)}x the floor`,
    );
    console.log(
      `top payees, 5 years: HTTP median ${ms(payees.median)} = ${(payees.median / floor).toFixed(1)}x the floor`,
    );
    floorDb.close();
  } finally {
    await server.close();
  }
}
