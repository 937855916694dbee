/**
 * The currency part of the "all my data" document: the user's home currency and the exchange rates
 * their figures are converted with. Rates belong to the instance, not to a user, so the document
 * carries those touching the user's currencies (which include the legs of a cross through EUR), and a
 * restore adds the ones the instance lacks without replacing any it has: other users convert with them.
 */
import type { EntityManager } from '@mikro-orm/knex';
import type { RateRow } from '../../../shared/rates/read-rates';
import { runSql, selectRows, sqlTx, TRANSACTION_TABLE, valuesSql } from '../../db/sql';
import { pause } from '../../common/pause';
import { homeCurrencyOf } from '../users/home-currency.service';
import type { RowSpool } from './row-spool';

/** The user's home currency and the rates between any of their currencies and another, oldest first. */
export async function exportCurrencyData(
  em: EntityManager,
  userId: number,
): Promise<{ homeCurrency: string; rates: RateRow[] }> {
  const homeCurrency = await homeCurrencyOf(em, userId);
  const used = await selectRows<{ currency: string }>(
    em,
    `select currency from account where user_id = ?
      union select original_currency as currency from ${TRANSACTION_TABLE} where user_id = ? and original_currency is not null`,
    [userId, userId],
  );
  const currencies = [...new Set([homeCurrency, ...used.map((row) => row.currency)])];
  // One currency alone converts nothing: its rates would only weigh the document down.
  if (currencies.length < 2) return { homeCurrency, rates: [] };
  const marks = currencies.map(() => '?').join(', ');
  const rates = await selectRows<RateRow>(
    em,
    `select date, base, quote, rate from exchange_rate
      where base in (${marks}) or quote in (${marks}) order by date, base, quote`,
    [...currencies, ...currencies],
  );
  return { homeCurrency, rates };
}

/** Rates added a statement at a time while restoring (read back from the restore's spool). */
const RATES_A_SLICE = 500;

/**
 * Sets the restored user's home currency (when the document names one) and adds the rates the
 * instance lacks (`rates`, the document's, read back from the restore's spool); answers the home
 * currency, which accounts of a document from before currencies take.
 */
export async function restoreCurrencyData(
  em: EntityManager,
  userId: number,
  homeCurrency: string | undefined,
  rates: RowSpool,
): Promise<string> {
  if (homeCurrency !== undefined)
    await runSql(em, 'update "user" set home_currency = ?, home_currency_chosen = true where id = ?', [
      homeCurrency,
      userId,
    ]);
  // Written on the transaction's own connection, one prepared statement a full slice: through the ORM a rate cost
  // more garbage than the rest of its restore.
  const db = await sqlTx(em);
  const now = new Date().toISOString();
  for await (const slice of rates.slices<RateRow>(RATES_A_SLICE)) {
    await pause();
    await db.run(
      `insert into exchange_rate (date, base, quote, rate, created_at) values ${valuesSql('(?, ?, ?, ?, ?)', slice.length)}
        on conflict (base, quote, date) do nothing`,
      slice.flatMap((row) => [row.date, row.base, row.quote, row.rate, now]),
    );
  }
  return homeCurrency ?? homeCurrencyOf(em, userId);
}
