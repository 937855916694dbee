/** Seeding for the report, register and export benchmarks: rows written straight into the database file. */
import type Database from 'better-sqlite3';
import { addDays } from '../src/shared/dates/calendar';

export const BENCH_CATEGORIES = [
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
const MERCHANTS = [
  'TESCO STORES',
  'Corner Coffee',
  'Shell',
  'Landlord Ltd',
  'City Power',
  'ACME PAYROLL',
  'Cinema City',
  'Pharmacy Plus',
  'Airline',
  'Book Nook',
];

export interface SeedOptions {
  rows: number;
  start: string;
  days: number;
  /** Account names; rows are spread over them. */
  accounts: string[];
  /** Each account's currency, in the order of `accounts` (default USD). */
  currencies?: string[];
  /** Every n-th row becomes a split parent with two parts (0: none). */
  splitEvery?: number;
  /** Seed of the deterministic generator. */
  seed?: number;
}

/** Inserts the user's accounts, categories and `rows` transactions (plus split parts); answers the account ids by name. */
export function seedHistory(db: Database.Database, userId: number, options: SeedOptions): Map<string, number> {
  const now = new Date().toISOString();
  const accountIds = new Map<string, number>();
  for (const [index, name] of options.accounts.entries()) {
    const id = db
      .prepare(
        'insert into account (user_id, name, name_key, type, opening_balance, opening_date, currency, created_at) values (?, ?, ?, ?, 0, ?, ?, ?)',
      )
      .run(
        userId,
        name,
        name.toLowerCase(),
        'checking',
        options.start,
        options.currencies?.[index] ?? 'USD',
        now,
      ).lastInsertRowid;
    accountIds.set(name, Number(id));
  }
  const categoryIds = BENCH_CATEGORIES.map((name) => {
    db.prepare('insert or ignore into category (user_id, name, name_key, created_at) values (?, ?, ?, ?)').run(
      userId,
      name,
      name.toLowerCase(),
      now,
    );
    return (
      db.prepare('select id from category where user_id = ? and name_key = ?').get(userId, name.toLowerCase()) as {
        id: number;
      }
    ).id;
  });
  const insert = db.prepare(
    'insert into `transaction` (user_id, account_id, category_id, post_date, description, amount, type, is_split, parent_id, split_note, batch_id, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, null, null, ?)',
  );
  const ids = [...accountIds.values()];
  let state = (options.seed ?? userId) * 7919 + 1;
  const next = () => (state = (state * 1103515245 + 12345) % 2147483648);
  db.transaction(() => {
    for (let i = 0; i < options.rows; i += 1) {
      const date = addDays(options.start, Math.floor((i / options.rows) * options.days));
      const category = next() % (BENCH_CATEGORIES.length + 1);
      const amount = -((next() % 20000) + 1) * (next() % 10 === 0 ? -10 : 1);
      const account = ids[next() % ids.length];
      const description = `${MERCHANTS[next() % MERCHANTS.length]} ${(next() % 9000) + 1000}`;
      const split = options.splitEvery
        ? i % options.splitEvery === options.splitEvery - 1 && Math.abs(amount) > 1
        : false;
      const categoryId = category === BENCH_CATEGORIES.length ? null : categoryIds[category];
      const type = amount < 0 ? 'debit' : 'credit';
      const parent = Number(
        insert.run(userId, account, categoryId, date, description, amount, type, split ? 1 : 0, null, now)
          .lastInsertRowid,
      );
      if (split) {
        const first = Math.trunc(amount / 2);
        insert.run(userId, account, categoryIds[0], date, description, first, type, 0, parent, now);
        insert.run(userId, account, categoryIds[1], date, description, amount - first, type, 0, parent, now);
      }
    }
  })();
  return accountIds;
}
