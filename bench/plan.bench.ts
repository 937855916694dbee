/**
 * Monthly plan benchmark: one user with 100,000 transactions over 5 years on two on-plan accounts and one off-plan
 * account, 60 expense categories and an income one, an assigned amount for every category in every month and a
 * hold in some months. Medians over HTTP, read by the benchmarks' plain client (getBytes: the answer read whole and
 * decompressed, not parsed, so the figure is the server's answer and not this process's fetch), of
 *  - GET /api/plan/{month} for each of the last year's 12 months (a year of months read in a row),
 *  - PUT /api/plan/{month}/assigned (one category's amount changed; its answer is the month's plan read again),
 * (with the CPU time the reads and a change cost this process, server and client: steadier than wall time on a
 * loaded machine),
 * each beside two floors run straight on the database file in the same run (the month-alone floor alternating with
 * the year of reads):
 *  - the month's GROUP BY alone: the month's counted on-plan rows summed by category (what a screen of the month
 *    alone would need),
 *  - the same rows: every counted on-plan row up to the month's end summed by month and category (what the plan
 *    reads, since each month carries over from all the months before it).
 */
import Database from 'better-sqlite3';
import { addDays } from '../src/shared/dates/calendar';
import { addMonths, monthRange } from '../src/shared/plan/months';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { getBytes, median, ms, requestBytes, timeMedian } from './stats';

const ROWS = 100_000;
const START = '2020-01-01';
const DAYS = 1827;
const FIRST_MONTH = '2020-01';
const LAST_MONTH = '2024-12';
const CATEGORIES = 60;
const RUNS = 7;
/** Rounds of the month-alone floor and the year of reads, alternating: each is short, so more of them. */
const READ_RUNS = 15;

/** Accounts, categories, transactions and the plan of every month, written straight into the file. */
function seed(db: Database.Database, userId: number): number[] {
  const now = new Date().toISOString();
  const account = db.prepare(
    'insert into account (user_id, name, name_key, type, opening_balance, opening_date, on_budget, created_at) values (?, ?, ?, ?, 0, ?, ?, ?)',
  );
  const accounts = [
    ['Checking', 'checking', 1],
    ['Card', 'credit', 1],
    ['Broker', 'investment', 0],
  ].map(([name, type, onBudget]) =>
    Number(account.run(userId, name, String(name).toLowerCase(), type, START, onBudget, now).lastInsertRowid),
  );
  const category = db.prepare(
    'insert into category (user_id, name, name_key, kind, created_at) values (?, ?, ?, ?, ?)',
  );
  const salary = Number(category.run(userId, 'Salary', 'salary', 'income', now).lastInsertRowid);
  const expenses = Array.from({ length: CATEGORIES }, (_, i) => {
    const name = `Spending ${String(i + 1).padStart(2, '0')}`;
    return Number(category.run(userId, name, name.toLowerCase(), 'expense', now).lastInsertRowid);
  });
  const insert = db.prepare(
    'insert into `transaction` (user_id, account_id, category_id, post_date, description, amount, type, is_split, parent_id, split_note, batch_id, created_at) values (?, ?, ?, ?, ?, ?, ?, 0, null, null, null, ?)',
  );
  let state = 7919;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  db.transaction(() => {
    for (let i = 0; i < ROWS; i += 1) {
      const date = addDays(START, Math.floor((i / ROWS) * DAYS));
      const pay = i % 100 === 0;
      const amount = pay ? 400_000 : -((next() % 20_000) + 1);
      const categoryId = pay ? salary : next() % 50 === 0 ? null : expenses[next() % CATEGORIES];
      insert.run(
        userId,
        accounts[next() % accounts.length],
        categoryId,
        date,
        `Row ${i}`,
        amount,
        amount < 0 ? 'debit' : 'credit',
        now,
      );
    }
    const assigned = db.prepare('insert into plan_assigned (user_id, category_id, month, amount) values (?, ?, ?, ?)');
    const hold = db.prepare('insert into plan_hold (user_id, month, amount) values (?, ?, ?)');
    for (let month = FIRST_MONTH; month <= LAST_MONTH; month = addMonths(month, 1)) {
      for (const id of expenses) assigned.run(userId, id, month, (next() % 40_000) + 1_000);
      if (month.endsWith('-06')) hold.run(userId, month, 5_000);
    }
  })();
  return expenses;
}

export default async function run(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'silent' });
  try {
    const user = await registerUser(server.url);
    const db = new Database(server.config.databaseFile);
    db.pragma('journal_mode = WAL');
    const seeded = performance.now();
    const expenses = seed(db, user.user.id);
    db.exec('analyze');
    db.close();
    console.log(
      `seeded ${ROWS.toLocaleString('en-US')} transactions over 5 years, ${CATEGORIES} expense categories and an assigned amount for each in each of 60 months in ${ms(performance.now() - seeded)}`,
    );
    const year = Array.from({ length: 12 }, (_, i) => addMonths(LAST_MONTH, i - 11));

    const floorDb = new Database(server.config.databaseFile, { readonly: true });
    const onPlan =
      'from `transaction` t join account a on a.id = t.account_id where t.user_id = ? and t.is_split = 0 and a.on_budget = 1';
    const monthAlone = floorDb.prepare(
      `select t.category_id, count(*) as n, sum(t.amount) as total ${onPlan} and t.post_date >= ? and t.post_date <= ? group by t.category_id`,
    );
    const sameRows = floorDb.prepare(
      `select substr(t.post_date, 1, 7) as month, t.category_id, count(*) as n, sum(t.amount) as total ${onPlan} and t.post_date <= ? group by 1, 2`,
    );
    const floorMonth = () => {
      for (const month of year) monthAlone.all(user.user.id, monthRange(month).start, monthRange(month).end);
    };
    const floorSame = await timeMedian(RUNS, () => {
      for (const month of year) sameRows.all(user.user.id, monthRange(month).end);
    });

    const token = user.accessToken;
    const get = async (month: string) => {
      const res = await getBytes(`${server.url}/api/plan/${month}`, token);
      if (res.status !== 200) throw new Error(`plan ${month}: ${res.status}`);
    };
    const fetched = async (month: string) => {
      const res = await rest(server.url, 'GET', `/api/plan/${month}`, { token });
      if (res.status !== 200) throw new Error(`plan ${month}: ${res.status} ${JSON.stringify(res.body)}`);
    };
    for (const month of year) await get(month); // warm up
    // The floor and the reads alternate, so a slower stretch of a shared machine weighs on both alike.
    const floorRuns: number[] = [];
    const yearRuns: number[] = [];
    let readCpu = 0;
    for (let run = 0; run < READ_RUNS; run += 1) {
      floorRuns.push(await timeMedian(1, floorMonth));
      const cpu = process.cpuUsage();
      yearRuns.push(
        await timeMedian(1, async () => {
          for (const month of year) await get(month);
        }),
      );
      const used = process.cpuUsage(cpu);
      readCpu += (used.user + used.system) / 1000;
    }
    floorDb.close();
    const floorAlone = median(floorRuns);
    const planYear = median(yearRuns);
    const fetchedYear = await timeMedian(RUNS, async () => {
      for (const month of year) await fetched(month);
    });
    const changes: number[] = [];
    const changesCpu = process.cpuUsage();
    for (let i = 0; i < RUNS * 3; i += 1) {
      const t0 = performance.now();
      const res = await requestBytes('PUT', `${server.url}/api/plan/${LAST_MONTH}/assigned`, token, {
        json: { category: expenses[i % expenses.length], amount: 10_000 + i },
      });
      changes.push(performance.now() - t0);
      if (res.status !== 200) throw new Error(`assigned: ${res.status}`);
    }
    const changeCpu = process.cpuUsage(changesCpu);
    console.log(`floor, the month's GROUP BY alone, 12 months: ${ms(floorAlone)}`);
    console.log(
      `floor, the same rows (every counted on-plan row up to each month's end by month and category), 12 months: ${ms(floorSame)}`,
    );
    console.log(
      `GET /api/plan/{month} for 12 months in a row: HTTP median ${ms(planYear)} (${ms(planYear / 12)} a month) = ${(planYear / floorAlone).toFixed(1)}x the month-alone floor, ${(planYear / floorSame).toFixed(1)}x the same-rows floor; CPU of this process (server and client) ${ms(readCpu / READ_RUNS)} a year of months`,
    );
    console.log(
      `the same 12 reads with this process's fetch and JSON.parse (client work on the same cores, not the server's answer): ${ms(fetchedYear)}`,
    );
    console.log(
      `PUT assigned (answer: the month's plan again): HTTP median ${ms(median(changes))} (target < 50 ms); CPU of this process (server and client) ${ms((changeCpu.user + changeCpu.system) / 1000 / (RUNS * 3))} a change`,
    );
  } finally {
    await server.close();
  }
}
