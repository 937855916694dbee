/**
 * Currencies benchmark: a year's monthly report over 100,000 transactions in three currencies (EUR,
 * GBP, JPY accounts; home EUR; ECB-style daily rates imported through the API), beside the same
 * report for a user with the same rows in one currency, in one run. Medians over HTTP of 9 runs,
 * and the floor: one SUM over the same counted rows straight on the database file.
 */
import Database from 'better-sqlite3';
import { addDays } from '../src/shared/dates/calendar';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { seedHistory } from './seed';
import { median, ms, timeMedian } from './stats';

const ROWS = 100_000;
const START = '2024-01-01';
const END = '2024-12-31';

/** Daily EUR rates on weekdays, drifting deterministically. */
function ecbHistory(): string {
  const lines = ['Date,USD,JPY,GBP,'];
  for (let i = 0, day = START; day <= END; i += 1, day = addDays(START, i)) {
    const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const wave = Math.sin(i / 17);
    lines.push(
      `${day},${(1.08 + wave * 0.02).toFixed(4)},${(160 + wave * 4).toFixed(2)},${(0.855 + wave * 0.01).toFixed(5)},`,
    );
  }
  return lines.join('\n');
}

export default async function run(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'silent' });
  try {
    const single = await registerUser(server.url);
    const multi = await registerUser(server.url);
    for (const user of [single, multi])
      await rest(server.url, 'PUT', '/api/auth/home-currency', {
        token: user.accessToken,
        body: { homeCurrency: 'EUR' },
      });
    const body = new FormData();
    body.append('file', new Blob([ecbHistory()]), 'eurofxref-hist.csv');
    const imported = await rest(server.url, 'POST', '/api/rates', { token: single.accessToken, body });
    if (imported.status !== 201) throw new Error(`rates: ${imported.status} ${JSON.stringify(imported.body)}`);
    const db = new Database(server.config.databaseFile);
    db.pragma('journal_mode = WAL');
    const accounts = ['Euro', 'Pounds', 'Yen'];
    seedHistory(db, single.user.id, {
      rows: ROWS,
      start: START,
      days: 366,
      accounts,
      currencies: ['EUR', 'EUR', 'EUR'],
      seed: 1,
    });
    seedHistory(db, multi.user.id, {
      rows: ROWS,
      start: START,
      days: 366,
      accounts,
      currencies: ['EUR', 'GBP', 'JPY'],
      seed: 1,
    });
    db.exec('analyze');
    db.close();

    const floorDb = new Database(server.config.databaseFile, { readonly: true });
    const floorQuery = floorDb.prepare(
      'select count(*) as n, sum(amount) as total from `transaction` where user_id = ? and post_date >= ? and post_date <= ? and is_split = 0',
    );
    const floor = await timeMedian(9, () => floorQuery.get(multi.user.id, START, END));
    floorDb.close();

    const time = async (token: string) => {
      const path = `/api/reports/monthly?start_date=${START}&end_date=${END}`;
      await rest(server.url, 'GET', path, { token });
      const times: number[] = [];
      let answer: { noRate?: number }[] = [];
      for (let i = 0; i < 9; i += 1) {
        const t0 = performance.now();
        const res = await rest<{ noRate?: number }[]>(server.url, 'GET', path, { token });
        times.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
        answer = res.body;
      }
      return { median: median(times), noRate: answer.reduce((n, row) => n + (row.noRate ?? 0), 0) };
    };
    const one = await time(single.accessToken);
    const three = await time(multi.accessToken);
    console.log(`floor: one SUM over ${ROWS.toLocaleString('en-US')} rows on the file: ${ms(floor)}`);
    console.log(
      `monthly report, a year, one currency: HTTP median ${ms(one.median)} = ${(one.median / floor).toFixed(1)}x the floor`,
    );
    console.log(
      `monthly report, a year, three currencies converted to EUR: HTTP median ${ms(three.median)} = ${(three.median / floor).toFixed(1)}x the floor, ${(three.median / one.median).toFixed(2)}x one currency (target < 2x); ${three.noRate} rows without a rate`,
    );
  } finally {
    await server.close();
  }
}
