/**
 * The rule for transfers between accounts of different currencies: both amounts are kept, and the
 * rate they imply is checked against the day's rate (within TRANSFER_RATE_TOLERANCE).
 */
import type { EntityManager } from '@mikro-orm/knex';
import { addDays } from '../../../shared/dates/calendar';
import { AppError } from '../../../shared/errors';
import { findRate, fractionText, RATE_WINDOW_DAYS, type RateFraction } from '../../../shared/rates/lookup';
import {
  arrivingAmount,
  impliedRate,
  rateDeviation,
  rateText,
  TRANSFER_RATE_TOLERANCE,
} from '../../../shared/rates/transfer-rate';
import { ratesBetween } from '../rates/rates.service';

/** The day's rate from one currency to another, or a refusal naming the missing rate. */
async function dayRate(em: EntityManager, from: string, to: string, date: string): Promise<RateFraction> {
  const rows = await ratesBetween(em, [from, to], addDays(date, -RATE_WINDOW_DAYS), date);
  const found = findRate(rows, from, to, date);
  if (!found) {
    throw new AppError(
      'UNPROCESSABLE',
      `No ${from} to ${to} rate on ${date} or in the ${RATE_WINDOW_DAYS} days before, to check the transfer's two amounts against; import the ECB's rates or enter one`,
    );
  }
  return found.fraction;
}

/**
 * The amount arriving in `to` for a transfer of `amount` out of `from` on `date`: `given` when it is
 * within tolerance of the day's rate (refused otherwise), else converted at that rate.
 */
export async function arrivingSide(
  em: EntityManager,
  side: { amount: number; from: string; to: string; date: string; given: number | undefined },
): Promise<number> {
  const day = await dayRate(em, side.from, side.to, side.date);
  if (side.given === undefined) return arrivingAmount(side.amount, side.from, side.to, day);
  checkRate(side.amount, side.from, side.given, side.to, day);
  return side.given;
}

/** Refuses (400) a pair whose implied rate lies further than the tolerance from the day's rate. */
function checkRate(outAmount: number, outCurrency: string, inAmount: number, inCurrency: string, day: RateFraction) {
  const implied = impliedRate(outAmount, outCurrency, inAmount, inCurrency);
  const off = rateDeviation(implied, day);
  if (off <= TRANSFER_RATE_TOLERANCE) return;
  throw new AppError(
    'BAD_REQUEST',
    `The two amounts imply 1 ${outCurrency} = ${rateText(implied)} ${inCurrency}, ${(off * 100).toFixed(1)}% off the day's rate of ${fractionText(day, 6)}; a transfer's sides may differ from it by at most ${TRANSFER_RATE_TOLERANCE * 100}%`,
  );
}

/** Checks two existing rows of different currencies for a link: money out of one, into the other, at about the day's rate. */
export async function checkLinkRate(
  em: EntityManager,
  out: { amount: number; currency: string; date: string },
  arrived: { amount: number; currency: string },
): Promise<void> {
  const day = await dayRate(em, out.currency, arrived.currency, out.date);
  checkRate(out.amount, out.currency, arrived.amount, arrived.currency, day);
}

/** The rate a transfer's sides imply, as text, or null for sides of one currency. */
export function transferRate(
  from: { amount: number; currency: string | null },
  to: { amount: number; currency: string | null },
): string | null {
  if (!from.currency || !to.currency || from.currency === to.currency || from.amount === 0) return null;
  return rateText(impliedRate(from.amount, from.currency, to.amount, to.currency));
}
