/**
 * The import's part of transfers across currencies: the batch's rows still unlinked and the rows of
 * accounts in other currencies within the window, with the day's rates of those dates, paired by
 * src/shared/transfers/cross-currency.ts into offers.
 */
import type { EntityManager } from '@mikro-orm/knex';
import { runStepsAsync } from '../../../shared/csv/steps';
import { addDays } from '../../../shared/dates/calendar';
import { RATE_WINDOW_DAYS, rateFinder } from '../../../shared/rates/lookup';
import { crossCurrencyOffers, type CurrencyRow } from '../../../shared/transfers/cross-currency';
import type { PairFound } from '../../../shared/transfers/match';
import { TRANSACTION_TABLE, type SqlTx } from '../../db/sql';
import { ratesBetween } from '../rates/rates.service';
import type { DetectedBatch } from './transfer-detection';

export interface UserAccount {
  id: number;
  name: string;
  currency: string;
}

/** The unlinked rows a side may be, read whole as the pairing takes them. */
const SIDES = `select t.id, t.account_id, t.post_date, t.amount, t.description || ' ' || coalesce(t.bank_description, '') as text, a.currency
   from ${TRANSACTION_TABLE} t join account a on a.id = t.account_id
  where t.user_id = ? and t.is_split = false and t.parent_id is null and t.transfer_id is null and t.amount <> 0`;

interface SideRow {
  id: number;
  account_id: number;
  post_date: string;
  amount: number | string;
  text: string;
  currency: string;
}

const toRow = (row: SideRow): CurrencyRow => ({
  id: row.id,
  accountId: row.account_id,
  postDate: row.post_date,
  amount: Number(row.amount),
  description: row.text,
  currency: row.currency,
});

/** Pairs across currencies to offer for the batch; rows in `taken` (paired already) are left out. */
export async function crossCurrencyPairs(
  em: EntityManager,
  db: SqlTx,
  userId: number,
  detection: {
    batch: DetectedBatch;
    windowDays: number;
    accounts: readonly UserAccount[];
    isDismissed: (a: number, b: number) => boolean;
  },
  taken: ReadonlySet<number>,
  pause: () => Promise<void> | undefined,
): Promise<PairFound[]> {
  const { batch, windowDays, accounts } = detection;
  const own = accounts.find((account) => account.id === batch.accountId);
  if (!own || accounts.every((account) => account.currency === own.currency)) return [];
  const fresh = (await db.all<SideRow>(`${SIDES} and t.batch_id = ?`, [userId, batch.id]))
    .filter((row) => !taken.has(row.id))
    .map(toRow);
  if (fresh.length === 0) return [];
  const from = addDays(batch.dates[0], -windowDays);
  const to = addDays(batch.dates[1], windowDays);
  const others = (
    await db.all<SideRow>(`${SIDES} and a.currency <> ? and t.post_date >= ? and t.post_date <= ?`, [
      userId,
      own.currency,
      from,
      to,
    ])
  )
    .filter((row) => !taken.has(row.id))
    .map(toRow);
  if (others.length === 0) return [];
  const currencies = [...new Set(accounts.map((account) => account.currency))];
  const rateOf = rateFinder(await ratesBetween(em, currencies, addDays(from, -RATE_WINDOW_DAYS), to));
  return runStepsAsync(crossCurrencyOffers(fresh, others, accounts, windowDays, rateOf, detection.isDismissed), pause);
}
