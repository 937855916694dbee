/**
 * Matching expected occurrences to the transactions that paid them. A transaction may pay an
 * occurrence of its own account whose day is within the schedule's window of the transaction's
 * date, with the same sign and an amount within the tolerance. Of all such pairs the closest in
 * date wins, then the one whose description shares more merchant words (src/shared/suggest);
 * each occurrence takes one transaction and each transaction pays one occurrence, so a second
 * schedule of the same amount never takes a row the first one matched. Ties go to the earlier
 * occurrence, then the older schedule: the answer does not depend on the order of the input.
 */
import { toDayNumber } from '../dates/calendar';
import { merchantTokens } from '../suggest/normalize';

export interface PendingOccurrence {
  id: number;
  scheduleId: number;
  accountId: number;
  /** The day it falls on. */
  date: string;
  amount: number;
  /** Basis points (1/100 of a percent) the amount may differ by. */
  toleranceBasisPoints: number;
  window: number;
  description: string;
}

export interface CandidateTransaction {
  id: number;
  accountId: number;
  date: string;
  amount: number;
  description: string;
}

export interface OccurrenceMatch {
  occurrenceId: number;
  transactionId: number;
  /** Days between the occurrence and the transaction. */
  distance: number;
  /** 0..1: how many merchant words the descriptions share. */
  likeness: number;
}

/** True when `amount` pays `expected` within the tolerance (same sign; integer maths). */
export function amountWithin(amount: number, expected: number, toleranceBasisPoints: number): boolean {
  if (amount === 0 || Math.sign(amount) !== Math.sign(expected)) return false;
  return Math.abs(amount - expected) * 10_000 <= Math.abs(expected) * toleranceBasisPoints;
}

/** Shared merchant words over all words (Dice's coefficient), 0..1. */
export function descriptionLikeness(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const set = new Set(a);
  let shared = 0;
  for (const word of new Set(b)) if (set.has(word)) shared += 1;
  return (2 * shared) / (set.size + new Set(b).size);
}

/** Day numbers of dates (a history holds few distinct dates, read many times). */
function dayNumbers(): (date: string) => number {
  const memo = new Map<string, number>();
  return (date) => {
    let day = memo.get(date);
    if (day === undefined) memo.set(date, (day = toDayNumber(date)));
    return day;
  };
}

/** The rows by account, then by day number, each day's rows by amount (a bill's few candidates are found by halving). */
function byAccountAndDay(
  transactions: readonly CandidateTransaction[],
  dayOf: (date: string) => number,
): Map<number, Map<number, CandidateTransaction[]>> {
  const out = new Map<number, Map<number, CandidateTransaction[]>>();
  for (const row of transactions) {
    let days = out.get(row.accountId);
    if (!days) out.set(row.accountId, (days = new Map<number, CandidateTransaction[]>()));
    const day = dayOf(row.date);
    const list = days.get(day);
    if (list) list.push(row);
    else days.set(day, [row]);
  }
  for (const days of out.values()) for (const list of days.values()) list.sort((a, b) => a.amount - b.amount);
  return out;
}

/** The index of the first row whose amount is at least `amount` (rows sorted by amount). */
function firstFrom(rows: readonly CandidateTransaction[], amount: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((rows[mid]?.amount ?? 0) < amount) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

interface Pair extends OccurrenceMatch {
  occurrence: PendingOccurrence;
}

function comparePairs(a: Pair, b: Pair): number {
  return (
    a.distance - b.distance ||
    b.likeness - a.likeness ||
    (a.occurrence.date < b.occurrence.date ? -1 : a.occurrence.date > b.occurrence.date ? 1 : 0) ||
    a.occurrence.scheduleId - b.occurrence.scheduleId ||
    a.occurrenceId - b.occurrenceId ||
    a.transactionId - b.transactionId
  );
}

/** The best one-to-one pairs of occurrences and transactions (see the module comment). */
export function matchOccurrences(
  occurrences: readonly PendingOccurrence[],
  transactions: readonly CandidateTransaction[],
  tokens: (description: string) => readonly string[] = merchantTokens,
): OccurrenceMatch[] {
  const dayOf = dayNumbers();
  const accounts = byAccountAndDay(transactions, dayOf);
  const words = new Map<string, readonly string[]>();
  const wordsOf = (description: string) => {
    let found = words.get(description);
    if (!found) words.set(description, (found = tokens(description)));
    return found;
  };
  const pairs: Pair[] = [];
  for (const occurrence of occurrences) {
    const days = accounts.get(occurrence.accountId);
    if (!days) continue;
    const day = dayOf(occurrence.date);
    const slack = Math.floor((Math.abs(occurrence.amount) * occurrence.toleranceBasisPoints) / 10_000);
    for (let rowDay = day - occurrence.window; rowDay <= day + occurrence.window; rowDay++) {
      const rows = days.get(rowDay) ?? [];
      for (let i = firstFrom(rows, occurrence.amount - slack); i < rows.length; i++) {
        const row = rows[i];
        if (!row || row.amount > occurrence.amount + slack) break;
        if (!amountWithin(row.amount, occurrence.amount, occurrence.toleranceBasisPoints)) continue;
        const likeness = descriptionLikeness(wordsOf(occurrence.description), wordsOf(row.description));
        pairs.push({
          occurrence,
          occurrenceId: occurrence.id,
          transactionId: row.id,
          distance: Math.abs(rowDay - day),
          likeness,
        });
      }
    }
  }
  pairs.sort(comparePairs);
  const takenOccurrences = new Set<number>();
  const takenTransactions = new Set<number>();
  const matches: OccurrenceMatch[] = [];
  for (const pair of pairs) {
    if (takenOccurrences.has(pair.occurrenceId) || takenTransactions.has(pair.transactionId)) continue;
    takenOccurrences.add(pair.occurrenceId);
    takenTransactions.add(pair.transactionId);
    matches.push({
      occurrenceId: pair.occurrenceId,
      transactionId: pair.transactionId,
      distance: pair.distance,
      likeness: pair.likeness,
    });
  }
  return matches;
}
