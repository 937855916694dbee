/**
 * Register benchmark: an account with 100,000 transactions over 10 years (1% split into two
 * parts) among 150,000 of the user's rows. Median over HTTP of one year's page of
 * GET /api/accounts/{id}/register (target < 100 ms), beside the floor: the same page's rows read
 * and turned into JSON straight on the database file.
 */
import Database from 'better-sqlite3';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { seedHistory } from './seed';
import { median, ms, timeMedian } from './stats';

export default async function run(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'silent' });
  try {
    const user = await registerUser(server.url);
    const db = new Database(server.config.databaseFile);
    db.pragma('journal_mode = WAL');
    const ids = seedHistory(db, user.user.id, {
      rows: 100_000,
      start: '2015-01-01',
      days: 3652,
      accounts: ['Checking'],
      splitEvery: 100,
      seed: 1,
    });
    seedHistory(db, user.user.id, {
      rows: 50_000,
      start: '2015-01-01',
      days: 3652,
      accounts: ['Card', 'Savings'],
      seed: 2,
    });
    db.exec('analyze');
    db.close();
    const accountId = ids.get('Checking')!;
    const path = `/api/accounts/${accountId}/register?start_date=2020-01-01&end_date=2020-12-31`;
    const token = user.accessToken;
    await rest(server.url, 'GET', path, { token });
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < 9; i += 1) {
      const t0 = performance.now();
      const res = await rest<unknown[]>(server.url, 'GET', path, { token });
      times.push(performance.now() - t0);
      rows = res.body.length;
    }
    const floorDb = new Database(server.config.databaseFile, { readonly: true });
    const page = floorDb.prepare(
      `select t.id, t.post_date, t.description, t.amount, t.type, t.is_split, t.parent_id, t.split_note, t.batch_id, t.account_id, a.name as account_name, c.name as category_name
         from \`transaction\` t left join account a on a.id = t.account_id left join category c on c.id = t.category_id
        where t.user_id = ? and t.account_id = ? and t.post_date >= ? and t.post_date <= ? order by t.post_date desc, t.id desc`,
    );
    const floor = await timeMedian(9, () =>
      JSON.stringify(page.all(user.user.id, accountId, '2020-01-01', '2020-12-31')),
    );
    floorDb.close();
    const http = median(times);
    console.log(
      `register, one year of an account with 100,000 rows (${rows.toLocaleString('en-US')} rows): HTTP median ${ms(http)}; floor (the page's rows + JSON on the file) ${ms(floor)}; ratio ${(http / floor).toFixed(2)}x (target < 100 ms)`,
    );
  } finally {
    await server.close();
  }
}
