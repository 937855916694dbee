/**
 * The currency part of the "all my data" document: the user's home currency and the exchange rates
 * their figures are converted with. Rates belong to the instance, not to a user, so the document
 * carries those touching the user's currencies (which include the legs of a cross through EUR), and a
 * restore adds the ones the instance lacks without replacing any it has: other users convert with them.
 */
import type { EntityManager } from '@mikro-orm/knex';
import type { RateRow } from '../../../shared/rates/read-rates';
import type { UserDataDocument } from '../../../shared/schemas/user-data';
import { runSql, selectRows, TRANSACTION_TABLE } from '../../db/sql';
import { addRates } from '../rates/rates.service';

/** The user's home currency and the rates between any of their currencies and another, oldest first. */
export async function exportCurrencyData(
  em: EntityManager,
  userId: number,
): Promise<{ homeCurrency: string; rates: RateRow[] }> {
  const [user] = await selectRows<{ home_currency: string }>(em, 'select home_currency from "user" where id = ?', [
    userId,
  ]);
  const homeCurrency = user?.home_currency ?? 'USD';
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

/**
 * Sets the restored user's home currency (when the document names one) and adds the rates the
 * instance lacks; answers the home currency, which accounts of a document from before currencies take.
 */
export async function restoreCurrencyData(
  em: EntityManager,
  userId: number,
  doc: Pick<UserDataDocument, 'homeCurrency' | 'rates'>,
): Promise<string> {
  if (doc.homeCurrency !== undefined)
    await runSql(em, 'update "user" set home_currency = ?, home_currency_chosen = true where id = ?', [
      doc.homeCurrency,
      userId,
    ]);
  if (doc.rates?.length) await addRates(em, doc.rates, new Date().toISOString());
  if (doc.homeCurrency !== undefined) return doc.homeCurrency;
  const [user] = await selectRows<{ home_currency: string }>(em, 'select home_currency from "user" where id = ?', [
    userId,
  ]);
  return user?.home_currency ?? 'USD';
}
