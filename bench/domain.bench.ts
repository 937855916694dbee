/**
 * Domain benchmark: 250,000 transactions over 10 years for one heavy user (~2,000 a
 * month) and as many for other users, then medians for
 *  - GET /api/transactions for one month, over HTTP,
 *  - the same query run directly on the database file (the floor), and their ratio,
 *  - one year's transactions plus the overview of a one-year budget (REST, with brotli and
 *    without compression, read as bytes), beside two floors on the
 *    file: the SQL sums of the year (one GROUP BY) and the year's rows read and turned into JSON;
 *    and apart, the client's own JSON.parse of the answer.
 * Targets on a 2-core machine: month search within 2x of the floor; one-year overview < 100 ms.
 */
import Database from 'better-sqlite3';
import { addDays, daysInMonth } from '../src/shared/dates/calendar';
import { registerUser, rest } from '../tests/helpers/http';
import { startServer } from '../tests/helpers/server';
import { getBytes, median, ms, timeMedian } from './stats';

export const PER_USER = 250_000;
const OTHER_USERS = 2;
const START = '2015-01-01';
const DAYS = 3652;
const CATEGORIES = [
  'Groceries',
  'Dining',
  'Rent',
  'Utilities',
  'Fuel',
  'Salary',
  'Fun',
  'Health',
  'Travel',
  'Gifts',
  'Insurance',
  'Phone',
];

export function seed(db: Database.Database, userId: number, count: number): void {
  const now = new Date().toISOString();
  const accountIds: number[] = [];
  for (const [name, type] of [
    ['Checking', 'checking'],
    ['Card', 'credit'],
    ['Savings', 'savings'],
  ]) {
    accountIds.push(
      Number(
        db
          .prepare(
            "insert into account (user_id, name, name_key, type, opening_balance, opening_date, created_at) values (?, ?, ?, ?, 0, '2000-01-01', ?)",
          )
          .run(userId, name, name.toLowerCase(), type, now).lastInsertRowid,
      ),
    );
  }
  const categoryIds = CATEGORIES.map((name) =>
    Number(
      db
        .prepare('insert into category (user_id, name, name_key, created_at) values (?, ?, ?, ?)')
        .run(userId, name, name.toLowerCase(), now).lastInsertRowid,
    ),
  );
  const insert = db.prepare(
    'insert into `transaction` (user_id, account_id, category_id, post_date, description, amount, type, is_split, parent_id, split_note, batch_id, created_at) values (?, ?, ?, ?, ?, ?, ?, 0, null, null, null, ?)',
  );
  let state = userId * 7919;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  db.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const day = Math.floor((i / count) * DAYS);
      const category = next() % (CATEGORIES.length + 1);
      const amount = -((next() % 20000) + 1) * (next() % 10 === 0 ? -10 : 1);
      insert.run(
        userId,
        accountIds[next() % 3],
        category === CATEGORIES.length ? null : categoryIds[category],
        addDays(START, day),
        `Merchant ${next() % 500} purchase`,
        amount,
        amount < 0 ? 'debit' : 'credit',
        now,
      );
    }
  })();
}

/** The one-year budget both benches read the overview of: four line items over the seeded categories. */
export async function createYearBudget(url: string, token: string): Promise<number> {
  const budget = await rest<{ id: number }>(url, 'POST', '/api/budgets', {
    token,
    body: { name: 'Year', startDate: '2023-01-01', endDate: '2023-12-31' },
  });
  for (const [name, type, categories] of [
    ['Pay', 'Income', ['Salary']],
    ['Home', 'Fixed', ['Rent', 'Utilities', 'Insurance', 'Phone']],
    ['Living', 'Variable', ['Groceries', 'Dining', 'Fuel', 'Health']],
    ['Extras', 'NotCounted', ['Travel', 'Gifts']],
  ] as const) {
    await rest(url, 'POST', '/api/line-items', {
      token,
      body: { budgetId: budget.body.id, name, amount: 100000, type, relatedCategories: categories },
    });
  }
  return budget.body.id;
}

export default async function run(): Promise<void> {
  const server = await startServer({ LOG_LEVEL: 'silent' });
  try {
    const heavy = await registerUser(server.url);
    const others = [];
    for (let i = 0; i < OTHER_USERS; i += 1) others.push(await registerUser(server.url));
    const seedStart = performance.now();
    const db = new Database(server.config.databaseFile);
    db.pragma('journal_mode = WAL');
    seed(db, heavy.user.id, PER_USER);
    for (const other of others) seed(db, other.user.id, Math.floor(PER_USER / OTHER_USERS));
    db.exec('analyze');
    console.log(
      `seeded ${PER_USER} transactions for the heavy user and ${PER_USER} for ${OTHER_USERS} others in ${ms(performance.now() - seedStart)}`,
    );

    const token = heavy.accessToken;
    const months = ['2019-03', '2021-07', '2023-11', '2024-02', '2020-12'];
    const ranges = months.map((m) => ({
      start: `${m}-01`,
      end: `${m}-${daysInMonth(Number(m.slice(0, 4)), Number(m.slice(5)))}`,
    }));

    // warm up
    for (const r of ranges)
      await rest(server.url, 'GET', `/api/transactions?start_date=${r.start}&end_date=${r.end}`, { token });

    const httpTimes: number[] = [];
    let rows = 0;
    for (let round = 0; round < 6; round += 1) {
      for (const r of ranges) {
        const t0 = performance.now();
        const res = await rest<unknown[]>(
          server.url,
          'GET',
          `/api/transactions?start_date=${r.start}&end_date=${r.end}`,
          { token },
        );
        httpTimes.push(performance.now() - t0);
        rows = res.body.length;
      }
    }

    const floorDb = new Database(server.config.databaseFile, { readonly: true });
    const floorQuery = floorDb.prepare(
      `select t.id, t.post_date, t.description, t.amount, t.type, t.is_split, t.parent_id, t.split_note, t.batch_id, t.account_id,
              a.name as account_name, c.name as category_name
         from \`transaction\` t left join account a on a.id = t.account_id left join category c on c.id = t.category_id
        where t.user_id = ? and t.post_date >= ? and t.post_date <= ? order by t.post_date desc, t.id desc`,
    );
    const floorTimes: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      for (const r of ranges) {
        const t0 = performance.now();
        const result = floorQuery.all(heavy.user.id, r.start, r.end);
        JSON.stringify(result);
        floorTimes.push(performance.now() - t0);
      }
    }
    const http = median(httpTimes);
    const floor = median(floorTimes);
    console.log(
      `one-month search (${rows} rows): HTTP median ${ms(http)}; floor (same SQL + JSON on the file) ${ms(floor)}; ratio ${(http / floor).toFixed(2)}x (target <= 2x)`,
    );

    const budgetId = await createYearBudget(server.url, token);
    const yearRows = (
      await rest<{ transactions: unknown[] }>(server.url, 'GET', `/api/budgets/${budgetId}/overview`, { token })
    ).body.transactions.length;
    // The one-year overview, with and without compression, read as a browser
    // reads it (bytes, decompressed; getBytes), 7 rounds each, the variants alternating.
    const variants = [
      {
        label: 'REST GET /api/budgets/:id/overview, br',
        url: `${server.url}/api/budgets/${budgetId}/overview`,
        encoding: 'br, gzip',
      },
      {
        label: 'REST GET /api/budgets/:id/overview, identity',
        url: `${server.url}/api/budgets/${budgetId}/overview`,
        encoding: 'identity',
      },
    ];
    const times = variants.map(() => [] as number[]);
    let answerBytes = 0;
    for (let round = 0; round < 8; round += 1) {
      for (const [i, variant] of variants.entries()) {
        const t0 = performance.now();
        const res = await getBytes(variant.url, token, variant.encoding);
        if (round > 0) times[i].push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`overview answered ${res.status}`);
        answerBytes = res.bytes;
      }
    }
    // Floors on the file, for the same year: the sums the overview needs (one GROUP BY over the
    // counted rows), and the year's rows read and turned into JSON (what carrying them costs).
    const sums = floorDb.prepare(
      `select c.name_key, t.type, t.parent_id is not null as part, count(*) as n, sum(t.amount) as total
         from \`transaction\` t left join category c on c.id = t.category_id
        where t.user_id = ? and t.post_date >= ? and t.post_date <= ? and t.is_split = 0
        group by c.name_key, t.type, t.parent_id is not null`,
    );
    const sumsFloor = await timeMedian(7, () => sums.all(heavy.user.id, '2023-01-01', '2023-12-31'));
    const rowsFloor = await timeMedian(7, () =>
      JSON.stringify(floorQuery.all(heavy.user.id, '2023-01-01', '2023-12-31')),
    );
    const text = await (
      await fetch(`${server.url}/api/budgets/${budgetId}/overview`, { headers: { authorization: `Bearer ${token}` } })
    ).text();
    const parse = await timeMedian(7, () => JSON.parse(text));
    console.log(
      `floor: the year's SQL sums (one GROUP BY on the file) ${ms(sumsFloor)}; the year's ${yearRows} rows + JSON on the file ${ms(rowsFloor)}`,
    );
    console.log(
      `one-year budget overview (${yearRows} transactions + overview, ${(answerBytes / 1e6).toFixed(1)} MB of JSON), median of 7 (target < 100 ms):`,
    );
    for (const [i, variant] of variants.entries()) {
      const time = median(times[i]);
      console.log(
        `  ${variant.label}: ${ms(time)} = ${(time / sumsFloor).toFixed(1)}x the sums, ${(time / rowsFloor).toFixed(2)}x the rows floor`,
      );
    }
    console.log(`  (not in these figures: the client's own JSON.parse of the answer, ${ms(parse)})`);
    floorDb.close();
    db.close();
  } finally {
    await server.close();
  }
}
