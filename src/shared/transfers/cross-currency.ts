/**
 * Transfers between accounts of two currencies, found on import: a row of the new batch and an
 * unlinked row of an account in another currency, one money out and the other money in, dated at
 * most `windowDays` apart, whose amounts imply a rate within TRANSFER_RATE_TOLERANCE of the out
 * side's day's rate. Such pairs are only offered, never linked silently: two amounts a rate apart are
 * weaker evidence than one amount twice, and a day's spending often holds an amount near any other.
 * A row without a day's rate is offered nothing (its amounts cannot be checked).
 */
import type { Steps } from '../csv/steps';
import { toDayNumber } from '../dates/calendar';
import { minorUnitsOf } from '../money/currencies';
import { fractionText, type RateFraction } from '../rates/lookup';
import { impliedRate, rateDeviation, rateText, TRANSFER_RATE_TOLERANCE } from '../rates/transfer-rate';
import { namesAccount, OFFERS_PER_ROW, type MatchAccount, type MatchRow, type PairFound } from './match';

export interface CurrencyRow extends MatchRow {
  currency: string;
}

/** The rate converting one unit of `from` into `to` on a day (the latest within the rate window), or null. */
export type DayRate = (from: string, to: string, postDate: string) => RateFraction | null;

/** Batch rows between two steps. */
const ROWS_PER_STEP = 500;

interface Candidate {
  row: CurrencyRow;
  day: number;
  /** Its amount in the batch's currency at its day's rate, as a double: only to narrow the search. */
  approx: number;
}

interface Offer {
  pair: PairFound;
  deviation: number;
  days: number;
  /** The side that is not the batch's. */
  otherId: number;
}

/**
 * The pairs to offer for each of the batch's rows (`fresh`, all in one currency) among `others`: the
 * surest OFFERS_PER_ROW of each row, by score (nearer the day's rate, fewer days apart, a description
 * naming the other account), a row of `others` offered with at most one row of the batch.
 */
export function* crossCurrencyOffers(
  fresh: readonly CurrencyRow[],
  others: readonly CurrencyRow[],
  accounts: readonly MatchAccount[],
  windowDays: number,
  rateOf: DayRate,
  isDismissed: (a: number, b: number) => boolean = () => false,
): Steps<PairFound[]> {
  const currency = fresh[0]?.currency;
  if (currency === undefined) return [];
  const candidates = others
    .filter((row) => row.currency !== currency && row.amount !== 0)
    .flatMap((row): Candidate[] => {
      const rate = rateOf(row.currency, currency, row.postDate);
      if (!rate) return [];
      const scale = 10 ** (minorUnitsOf(currency) - minorUnitsOf(row.currency));
      return [
        { row, day: toDayNumber(row.postDate), approx: (row.amount * scale * Number(rate.num)) / Number(rate.den) },
      ];
    })
    .sort((a, b) => a.approx - b.approx);
  const names = new Map(accounts.map((account) => [account.id, account]));
  const offers: Offer[] = [];
  for (const [n, row] of fresh.entries()) {
    if (n % ROWS_PER_STEP === ROWS_PER_STEP - 1) yield;
    if (row.amount === 0) continue;
    const mine: Offer[] = [];
    // A rate within the tolerance puts the other amount within a little more than it of the opposite amount.
    const low = -row.amount - Math.abs(row.amount) * 2 * TRANSFER_RATE_TOLERANCE;
    const high = -row.amount + Math.abs(row.amount) * 2 * TRANSFER_RATE_TOLERANCE;
    const day = toDayNumber(row.postDate);
    for (let i = firstAtLeast(candidates, low); i < candidates.length; i += 1) {
      const other = candidates[i] as Candidate;
      if (other.approx > high) break;
      const days = Math.abs(other.day - day);
      if (days > windowDays || other.row.accountId === row.accountId || isDismissed(row.id, other.row.id)) continue;
      const offer = offerOf(row, other.row, days, rateOf, names);
      if (offer) mine.push(offer);
    }
    mine.sort((a, b) => b.pair.score - a.pair.score || a.deviation - b.deviation || a.days - b.days);
    offers.push(...mine.slice(0, OFFERS_PER_ROW));
  }
  // A row of the other accounts goes with the batch's row it suits best.
  offers.sort((a, b) => b.pair.score - a.pair.score || a.deviation - b.deviation || a.days - b.days);
  const taken = new Set<number>();
  return offers.flatMap((offer) => {
    if (taken.has(offer.otherId)) return [];
    taken.add(offer.otherId);
    return [offer.pair];
  });
}

/** The first position whose approximate amount is at least `value` (the list is sorted by it). */
function firstAtLeast(list: readonly Candidate[], value: number): number {
  let low = 0;
  let high = list.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((list[middle] as Candidate).approx < value) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The pair of two rows as an offer, or null when their amounts lie too far from the out side's day's rate. */
function offerOf(
  a: CurrencyRow,
  b: CurrencyRow,
  days: number,
  rateOf: DayRate,
  names: ReadonlyMap<number, MatchAccount>,
): Offer | null {
  if (a.amount < 0 === b.amount < 0) return null;
  const [out, arrived] = a.amount < 0 ? [a, b] : [b, a];
  const day = rateOf(out.currency, arrived.currency, out.postDate);
  if (!day) return null;
  const implied = impliedRate(out.amount, out.currency, arrived.amount, arrived.currency);
  const deviation = rateDeviation(implied, day);
  if (deviation > TRANSFER_RATE_TOLERANCE) return null;
  const naming: string[] = [];
  for (const [row, other] of [
    [a, b],
    [b, a],
  ] as const) {
    const account = names.get(other.accountId);
    if (account && row.description && namesAccount(row.description, account))
      naming.push(`'${row.description.trim()}' names ${account.name}`);
  }
  const rate = `the amounts imply 1 ${out.currency} = ${rateText(implied)} ${arrived.currency}`;
  const off =
    deviation === 0
      ? "the day's rate"
      : `${(deviation * 100).toFixed(1)}% off the day's rate of ${fractionText(day, 6)}`;
  const apart = days === 0 ? 'the same day' : `${days} day${days === 1 ? '' : 's'} apart`;
  const score = Math.max(0, Math.min(100, 40 + 25 * naming.length - 3 * days - Math.round(deviation * 200)));
  return {
    pair: { fromId: out.id, toId: arrived.id, score, reason: [apart, `${rate}, ${off}`, ...naming].join('; ') },
    deviation,
    days,
    otherId: b.id,
  };
}
