/**
 * Converting a user's transactions into their home currency inside the read model's sums. For the
 * days of a range, each account in another currency gets its day's rate (rates/lookup.ts: the latest
 * within 7 days) as a small table the sum joins by (account, day). The database multiplies in double
 * precision and rounds each row, which is exact unless the product lies within rounding error of a
 * half; those few rows are summed apart here with exact integer arithmetic, half to even. A row with
 * no rate is counted as missing and left out of every figure.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { addDays } from '../../shared/dates/calendar';
import { minorUnitsOf } from '../../shared/money/currencies';
import { pow10 } from '../../shared/money/decimal';
import { convertAmount, RATE_WINDOW_DAYS, rateFinder, type RateFraction } from '../../shared/rates/lookup';
import type { RateRow } from '../../shared/rates/read-rates';
import { onPostgres, runSql, selectRows, TRANSACTION_TABLE } from './sql';

/** Bounds of an open range: the conversion narrows them to the user's first and last transaction. */
export const MIN_DATE = '0001-01-01';
export const MAX_DATE = '9999-12-31';

export interface Conversion {
  home: string;
  /** The fx table's rows: [account id, day, factor or null], as JSON for one parameter. */
  json: string;
  /** Exact rate per account and day, and the account's decimals, for rows near a half. */
  exact: Map<string, { rate: RateFraction; fromDigits: number }>;
  toDigits: number;
}

function daysOf(startDate: string, endDate: string): string[] {
  const out: string[] = [];
  for (let day = startDate; day <= endDate; day = addDays(day, 1)) out.push(day);
  return out;
}

/** A conversion for the range, or null when every account is in the home currency (sums need none). */
export async function conversionFor(
  em: EntityManager,
  userId: number,
  startDate: string,
  endDate: string,
): Promise<Conversion | null> {
  const [user] = await selectRows<{ home_currency: string }>(em, 'select home_currency from "user" where id = ?', [
    userId,
  ]);
  const home = user?.home_currency ?? 'USD';
  const foreign = await selectRows<{ id: number; currency: string }>(
    em,
    'select id, currency from account where user_id = ? and currency <> ?',
    [userId, home],
  );
  if (foreign.length === 0) return null;
  if (startDate === MIN_DATE || endDate === MAX_DATE) {
    const [span] = await selectRows<{ first: string | null; last: string | null }>(
      em,
      'select min(post_date) as first, max(post_date) as last from "transaction" where user_id = ?',
      [userId],
    );
    if (!span?.first || !span.last) return null;
    if (startDate === MIN_DATE) startDate = span.first;
    if (endDate === MAX_DATE) endDate = span.last;
  }
  const currencies = [...new Set([...foreign.map((a) => a.currency), home])];
  const marks = currencies.map(() => '?').join(', ');
  const from = addDays(startDate, -RATE_WINDOW_DAYS);
  const rows = await selectRows<RateRow>(
    em,
    `select date, base, quote, rate from exchange_rate
      where date >= ? and date <= ? and (base in (${marks}) or quote in (${marks}))`,
    [from, endDate, ...currencies, ...currencies],
  );
  const rateOf = rateFinder(rows);
  const toDigits = minorUnitsOf(home);
  const days = daysOf(startDate, endDate);
  const table: [number, string, number | null][] = [];
  const exact = new Map<string, { rate: RateFraction; fromDigits: number }>();
  for (const currency of new Set(foreign.map((a) => a.currency))) {
    const fromDigits = minorUnitsOf(currency);
    const accounts = foreign.filter((a) => a.currency === currency);
    for (const day of days) {
      const rate = rateOf(currency, home, day);
      const factor = rate ? factorOf(rate, fromDigits, toDigits) : null;
      for (const account of accounts) {
        table.push([account.id, day, factor]);
        if (rate) exact.set(`${account.id}|${day}`, { rate, fromDigits });
      }
    }
  }
  return { home, json: JSON.stringify(table), exact, toDigits };
}

/** Minor units of the target per minor unit of the source, as the nearest double. */
function factorOf(rate: RateFraction, fromDigits: number, toDigits: number): number {
  const scale = 10n ** 30n;
  return Number((rate.num * pow10(toDigits) * scale) / (rate.den * pow10(fromDigits))) / 1e30;
}

let fxTables = 0;

/**
 * The fx table `(account_id, day, factor)` the sums join, and how to let go of it. PostgreSQL takes it
 * as a CTE over the JSON parameter (its hash join reads it once). SQLite would scan such a CTE for
 * every transaction, so it gets a keyed temporary table of its own, dropped after the query.
 */
export async function fxTable(
  em: EntityManager,
  conversion: Conversion,
): Promise<{ cte: string; params: unknown[]; name: string; drop: () => Promise<void> }> {
  if (onPostgres(em)) {
    return {
      cte: `with fx as (select (e->>0)::int as account_id, e->>1 as day, (e->>2)::float8 as factor from jsonb_array_elements(?::jsonb) e)`,
      params: [conversion.json],
      name: 'fx',
      drop: () => Promise.resolve(),
    };
  }
  fxTables += 1;
  const name = `temp.fx_${fxTables}`;
  await runSql(
    em,
    `create table ${name} (account_id integer, day text, factor real, primary key (account_id, day)) without rowid`,
  );
  await runSql(
    em,
    `insert into ${name} select json_extract(value, '$[0]'), json_extract(value, '$[1]'), json_extract(value, '$[2]') from json_each(?)`,
    [conversion.json],
  );
  return {
    cte: '',
    params: [],
    name,
    drop: async () => {
      await runSql(em, `drop table if exists ${name}`);
    },
  };
}

/**
 * Per row of `t` joined to the fx table `f`: the amount converted and rounded by the database (null
 * when there is no rate), whether the double product is too near a half for that rounding to be
 * trusted (such rows are put right afterwards: their database value taken off, the exact one added),
 * and whether the row has no rate.
 */
export function convertedSql(em: EntityManager): { value: string; nearIds: string; missing: string } {
  const x = 't.amount * f.factor';
  const trunc = onPostgres(em) ? `trunc(${x})` : `cast(${x} as integer)`;
  const rounded = onPostgres(em) ? `cast(round(${x}) as bigint)` : `cast(round(${x}) as integer)`;
  const near = `(f.factor is not null and (abs(${x}) >= 1e15 or abs(abs(${x} - ${trunc}) - 0.5) < 1e-7 + abs(${x}) * 1e-13))`;
  return {
    value: `case when f.account_id is null then t.amount else ${rounded} end`,
    nearIds: idList(em, `case when ${near} then t.id end`),
    missing: `case when f.account_id is not null and f.factor is null then 1 else 0 end`,
  };
}

/**
 * An aggregate of ids (or of such lists) as comma-separated text, nulls left out: the rows too near a
 * half are found in the same pass that sums, and read again by id only.
 */
export function idList(em: EntityManager, ids: string): string {
  return onPostgres(em) ? `string_agg(cast(${ids} as text), ',')` : `group_concat(${ids}, ',')`;
}

/** The ids of a comma-separated list (null or empty: none). */
export function idsOf(list: unknown): number[] {
  if (typeof list !== 'string' || list === '') return [];
  return list.split(',').map(Number);
}

/** Rows near a half per read: a list far longer would mean the factors are wrong, not unlucky. */
const NEAR_IDS_PER_READ = 500;

/**
 * The rows of `ids` with `select` (over `t`) beside what puts them right: the account, day, amount and
 * the value the database summed for them.
 */
export async function nearRows<R extends Record<string, unknown>>(
  em: EntityManager,
  conversion: Conversion,
  ids: readonly number[],
  read: { select: string; from: string },
): Promise<(R & { amount: number; correction: number })[]> {
  if (ids.length === 0) return [];
  const table = await fxTable(em, conversion);
  try {
    const value = convertedSql(em).value;
    const out: (R & { amount: number; correction: number })[] = [];
    for (let i = 0; i < ids.length; i += NEAR_IDS_PER_READ) {
      const chunk = ids.slice(i, i + NEAR_IDS_PER_READ);
      const rows = await selectRows<
        R & { account_id: number; post_date: string; amount: number | string; approx: number | string }
      >(
        em,
        `${table.cte}
         select ${read.select}, t.account_id as account_id, t.post_date as post_date, t.amount as amount, ${value} as approx
           from ${read.from} left join ${table.name} f on f.account_id = t.account_id and f.day = t.post_date
          where t.id in (${chunk.map(() => '?').join(', ')})`,
        [...table.params, ...chunk],
      );
      for (const row of rows) {
        const exact = convertExactly(conversion, row.account_id, row.post_date, Number(row.amount));
        out.push({ ...row, amount: Number(row.amount), correction: exact - Number(row.approx) });
      }
    }
    return out;
  } finally {
    await table.drop();
  }
}

/** A row near a half, converted exactly. */
export function convertExactly(conversion: Conversion, accountId: number, day: string, amount: number): number {
  const found = conversion.exact.get(`${accountId}|${day}`);
  if (!found) return 0;
  return convertAmount(amount, found.rate, found.fromDigits, conversion.toDigits);
}

/** One group of convertedGroupSums: its key values (in the order asked), rows, converted total and rows with no rate. */
export interface ConvertedGroup {
  keys: unknown[];
  count: number;
  /** Signed minor units of the home currency: each row converted at its day's rate, rounded half to even, then summed. */
  total: number;
  /** Rows with no rate within the window: counted here, left out of `total`. */
  missing: number;
}

/**
 * The rows `where` selects (over the transaction table `t`), grouped by `keys` (SQL expressions over
 * `t`), each converted into the home currency before it is summed. The groups' rows near a half are
 * found in the same pass and put right exactly here.
 */
export async function convertedGroupSums(
  em: EntityManager,
  conversion: Conversion,
  where: { sql: string; params: readonly unknown[] },
  keys: readonly string[],
  /** The rows' table as `t`, with the joins `where` needs (a search's account and category names). */
  from = `${TRANSACTION_TABLE} t`,
): Promise<ConvertedGroup[]> {
  const table = await fxTable(em, conversion);
  const groups = new Map<string, ConvertedGroup>();
  const near: number[] = [];
  try {
    const c = convertedSql(em);
    const joined = `${from} left join ${table.name} f on f.account_id = t.account_id and f.day = t.post_date`;
    const keyColumns = keys.map((key, i) => `${key} as k${i}`);
    const rows = await selectRows<Record<string, unknown>>(
      em,
      `${table.cte}
       select ${[...keyColumns, 'count(*) as n', `sum(${c.value}) as total`, `sum(${c.missing}) as missing`, `${c.nearIds} as near`].join(', ')}
         from ${joined} where ${where.sql}
         ${keys.length > 0 ? `group by ${keys.join(', ')}` : ''}`,
      [...table.params, ...where.params],
    );
    for (const row of rows) {
      const count = Number(row.n ?? 0);
      if (count === 0) continue;
      const values = keys.map((_, i) => row[`k${i}`]);
      groups.set(JSON.stringify(values), {
        keys: values,
        count,
        total: Number(row.total ?? 0),
        missing: Number(row.missing ?? 0),
      });
      near.push(...idsOf(row.near));
    }
  } finally {
    await table.drop();
  }
  // The few rows whose product lies too near a half: the database's rounding taken back, the exact value put in.
  const keyColumns = keys.map((key, i) => `${key} as k${i}`);
  const select = keyColumns.length > 0 ? keyColumns.join(', ') : 't.id as id';
  for (const row of await nearRows<Record<string, unknown>>(em, conversion, near, { select, from })) {
    const group = groups.get(JSON.stringify(keys.map((_, i) => row[`k${i}`])));
    if (group) group.total += row.correction;
  }
  return [...groups.values()];
}
