/**
 * Which stored rate converts one currency to another on a day: the latest rate on or before the
 * day, at most RATE_WINDOW_DAYS older, taken directly, inverted, or crossed through a base both
 * currencies have a rate against on that same date (the ECB's files give every currency against
 * EUR). The rate is an exact fraction, so conversion rounds once.
 */
import { addDays } from '../dates/calendar';
import { divideHalfEven, parseDecimal, pow10 } from '../money/decimal';
import type { RateRow } from './read-rates';

/** A rate older than this many days is no rate: the figure is left out, never converted 1:1. */
export const RATE_WINDOW_DAYS = 7;

/** Units of the target currency for one unit of the source, as numerator / denominator. */
export interface RateFraction {
  num: bigint;
  den: bigint;
}

export interface FoundRate {
  /** The stored rates' date. */
  date: string;
  fraction: RateFraction;
  /** The base the rate was crossed through, or null for a direct (or inverted) rate. */
  via: string | null;
}

function fractionOf(text: string): RateFraction | null {
  const value = parseDecimal(text);
  if (!value || value.units <= 0n) return null;
  return { num: value.units, den: pow10(value.scale) };
}

/** On one date's rates: from -> to directly, inverted, or crossed through a common base. */
export function rateOnDate(rows: readonly RateRow[], from: string, to: string): Omit<FoundRate, 'date'> | null {
  if (from === to) return { fraction: { num: 1n, den: 1n }, via: null };
  const against = new Map<string, Map<string, RateFraction>>();
  for (const row of rows) {
    const fraction = fractionOf(row.rate);
    if (!fraction) continue;
    if (row.base === from && row.quote === to) return { fraction, via: null };
    if (row.base === to && row.quote === from) return { fraction: { num: fraction.den, den: fraction.num }, via: null };
    let quotes = against.get(row.base);
    if (!quotes) against.set(row.base, (quotes = new Map<string, RateFraction>()));
    quotes.set(row.quote, fraction);
  }
  for (const [base, quotes] of [...against].sort(([a], [b]) => a.localeCompare(b))) {
    // One base = f units of `from` and t units of `to`, so one `from` = t / f units of `to`.
    const f = base === from ? { num: 1n, den: 1n } : quotes.get(from);
    const t = base === to ? { num: 1n, den: 1n } : quotes.get(to);
    if (f && t) return { fraction: { num: t.num * f.den, den: t.den * f.num }, via: base };
  }
  return null;
}

/** The rate for `day` from rows of several dates: the latest date within the window that has one. */
export function findRate(rows: readonly RateRow[], from: string, to: string, day: string): FoundRate | null {
  if (from === to) return { date: day, fraction: { num: 1n, den: 1n }, via: null };
  const earliest = addDays(day, -RATE_WINDOW_DAYS);
  const byDate = new Map<string, RateRow[]>();
  for (const row of rows) {
    if (row.date > day || row.date < earliest) continue;
    const list = byDate.get(row.date);
    if (list) list.push(row);
    else byDate.set(row.date, [row]);
  }
  for (const date of [...byDate.keys()].sort().reverse()) {
    const found = rateOnDate(byDate.get(date) ?? [], from, to);
    if (found) return { date, ...found };
  }
  return null;
}

/**
 * findRate over many days and pairs from one read of the rates (those of every date it will be asked
 * for and the RATE_WINDOW_DAYS before): each date's rows grouped once, each answer kept.
 */
export function rateFinder(rows: readonly RateRow[]): (from: string, to: string, day: string) => RateFraction | null {
  const byDate = new Map<string, RateRow[]>();
  for (const row of rows) {
    const list = byDate.get(row.date);
    if (list) list.push(row);
    else byDate.set(row.date, [row]);
  }
  const known = new Map<string, RateFraction | null>();
  return (from, to, day) => {
    const key = `${from}|${to}|${day}`;
    let found = known.get(key);
    if (found === undefined) {
      found = null;
      for (let back = 0; back <= RATE_WINDOW_DAYS && !found; back += 1)
        found = rateOnDate(byDate.get(addDays(day, -back)) ?? [], from, to)?.fraction ?? null;
      known.set(key, found);
    }
    return found;
  };
}

/** Minor units of the source (fromDigits decimals) in minor units of the target, half to even. */
export function convertAmount(amount: number, rate: RateFraction, fromDigits: number, toDigits: number): number {
  return Number(divideHalfEven(BigInt(amount) * rate.num * pow10(toDigits), rate.den * pow10(fromDigits)));
}

/** The fraction as decimal text with at most `places` decimals (half to even), trailing zeros dropped. */
export function fractionText(rate: RateFraction, places = 10): string {
  const scaled = divideHalfEven(rate.num * pow10(places), rate.den);
  const digits = scaled.toString().padStart(places + 1, '0');
  let fraction = digits.slice(digits.length - places);
  while (fraction.endsWith('0')) fraction = fraction.slice(0, -1);
  const whole = digits.slice(0, digits.length - places);
  return fraction ? `${whole}.${fraction}` : whole;
}
