/**
 * The instance's exchange rates: imported from files, set one by one, looked up for a day. Rates are
 * shared by every user (public reference rates), so any signed-in user may change them.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { AppError } from '../../../shared/errors';
import { findRate, fractionText, RATE_WINDOW_DAYS } from '../../../shared/rates/lookup';
import { readRatesSteps, type RateRow } from '../../../shared/rates/read-rates';
import { decimalText, parseDecimal } from '../../../shared/money/decimal';
import type {
  RateAnswer,
  RateImportAnswer,
  RateInput,
  RateKey,
  RatePair,
  RateQuery,
} from '../../../shared/schemas/rates';
import { addDays } from '../../../shared/dates/calendar';
import { runStepsAsync } from '../../../shared/csv/steps';
import { pause } from '../../common/pause';
import { runSql, selectRows, valuesSql } from '../../db/sql';
import { withCheckpointAfter } from '../../db/wal-checkpoint';

/** Rows a statement writes at once (4 parameters each, well under SQLite's limit). */
const ROWS_PER_INSERT = 500;

/** Rates between these currencies from `from` to `to`, for the lookups of one conversion. */
export async function ratesBetween(
  em: EntityManager,
  currencies: readonly string[],
  from: string,
  to: string,
): Promise<RateRow[]> {
  if (currencies.length === 0) return [];
  const marks = currencies.map(() => '?').join(', ');
  return selectRows<RateRow>(
    em,
    `select date, base, quote, rate from exchange_rate
      where date >= ? and date <= ? and (base in (${marks}) or quote in (${marks}))`,
    [from, to, ...currencies, ...currencies],
  );
}

export async function lookupRate(em: EntityManager, query: RateQuery, today: string): Promise<RateAnswer> {
  const date = query.date ?? today;
  const rows = await ratesBetween(em, [query.base, query.quote], addDays(date, -RATE_WINDOW_DAYS), date);
  // A cross rate needs both legs against some base: read every rate of those dates.
  const dates = [...new Set(rows.map((row) => row.date))];
  const legs = dates.length === 0 ? [] : await ratesOnDates(em, dates);
  const found = findRate(legs, query.base, query.quote, date);
  if (!found) {
    throw new AppError(
      'NOT_FOUND',
      `No ${query.base} to ${query.quote} rate on ${date} or in the ${RATE_WINDOW_DAYS} days before; import the ECB's rates or enter one`,
    );
  }
  return {
    base: query.base,
    quote: query.quote,
    date,
    rateDate: found.date,
    rate: fractionText(found.fraction),
    via: found.via,
  };
}

async function ratesOnDates(em: EntityManager, dates: readonly string[]): Promise<RateRow[]> {
  return selectRows<RateRow>(
    em,
    `select date, base, quote, rate from exchange_rate where date in (${dates.map(() => '?').join(', ')})`,
    dates,
  );
}

export async function listRatePairs(em: EntityManager): Promise<RatePair[]> {
  const rows = await selectRows<{ base: string; quote: string; count: number | string; first: string; last: string }>(
    em,
    `select base, quote, count(*) as count, min(date) as first, max(date) as last
      from exchange_rate group by base, quote order by base, quote`,
  );
  const out: RatePair[] = [];
  for (const row of rows) {
    const latest = await selectRows<{ rate: string }>(
      em,
      'select rate from exchange_rate where base = ? and quote = ? and date = ?',
      [row.base, row.quote, row.last],
    );
    out.push({
      base: row.base,
      quote: row.quote,
      count: Number(row.count),
      firstDate: row.first,
      lastDate: row.last,
      lastRate: latest[0]?.rate ?? '',
    });
  }
  return out;
}

/**
 * Writes rows, replacing a stored rate of the same pair and date (or, with `keep`, leaving it as
 * stored); call inside a transaction.
 */
async function upsertRates(em: EntityManager, rows: readonly RateRow[], now: string, keep = false): Promise<void> {
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const chunk = rows.slice(i, i + ROWS_PER_INSERT);
    const params: unknown[] = [];
    for (const row of chunk) params.push(row.date, row.base, row.quote, row.rate, now);
    await runSql(
      em,
      `insert into exchange_rate (date, base, quote, rate, created_at) values ${valuesSql('(?, ?, ?, ?, ?)', chunk.length)}
        on conflict (base, quote, date) do ${keep ? 'nothing' : 'update set rate = excluded.rate'}`,
      params,
    );
    // Let other requests in between statements of a large file.
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** Adds the rates the instance has no rate for (pair and date), keeping those it has; call inside a transaction. */
export function addRates(em: EntityManager, rows: readonly RateRow[], now: string): Promise<void> {
  return upsertRates(em, rows, now, true);
}

export async function importRates(em: EntityManager, text: string): Promise<RateImportAnswer> {
  const read = await runStepsAsync(readRatesSteps(text), pause);
  if (!read.ok) throw new AppError('UNPROCESSABLE', read.message);
  const now = new Date().toISOString();
  // The ECB's whole history is some 200,000 rows: see withCheckpointAfter.
  await withCheckpointAfter(em, () => em.transactional((tem) => upsertRates(tem, read.rows, now)));
  let firstDate = read.rows[0]?.date ?? '';
  let lastDate = firstDate;
  const currencies = new Set<string>();
  for (const row of read.rows) {
    if (row.date < firstDate) firstDate = row.date;
    if (row.date > lastDate) lastDate = row.date;
    currencies.add(row.base);
    currencies.add(row.quote);
  }
  return {
    message: `Imported ${read.rows.length} rates from ${firstDate} to ${lastDate}`,
    format: read.format,
    imported: read.rows.length,
    firstDate,
    lastDate,
    currencies: [...currencies].sort(),
    ignoredCurrencies: read.ignoredCurrencies,
    skipped: read.skipped,
  };
}

export async function putRate(em: EntityManager, input: RateInput): Promise<RateInput> {
  const value = parseDecimal(input.rate);
  const rate = value ? decimalText(value) : input.rate;
  await em.transactional((tem) =>
    upsertRates(tem, [{ date: input.date, base: input.base, quote: input.quote, rate }], new Date().toISOString()),
  );
  return { ...input, rate };
}

export async function deleteRate(em: EntityManager, key: RateKey): Promise<{ message: string }> {
  const removed = await runSql(em, 'delete from exchange_rate where base = ? and quote = ? and date = ?', [
    key.base,
    key.quote,
    key.date,
  ]);
  if (removed === 0) throw new AppError('NOT_FOUND', `No stored ${key.base} to ${key.quote} rate on ${key.date}`);
  return { message: `Deleted the ${key.base} to ${key.quote} rate of ${key.date}` };
}
