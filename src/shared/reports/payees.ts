/**
 * Payees: transaction descriptions normalised so that one merchant's rows group together
 * ("TESCO STORES 3456" and "Tesco Stores 1234" are both the payee "tesco stores"), for the
 * top-payees report and the Transactions screen's payee filter. The report folds the
 * distinct descriptions SQL sums up with these functions; the search filter runs `payeeKey`
 * inside SQL (a function registered on each connection), so a group and a filter agree.
 */

/**
 * A description without its reference numbers: whitespace collapsed, tokens that are mostly
 * digits (store numbers, card numbers, dates such as 12/03, "#1234") dropped, then bare
 * punctuation left at either end; letter case kept. A description made only of such tokens is
 * kept whole.
 * Idempotent: payeeName(payeeName(x)) === payeeName(x).
 */
export function payeeName(description: string): string {
  const collapsed = description.normalize('NFC').replace(/\s+/g, ' ').trim();
  const kept = collapsed.split(' ').filter((token) => !isReference(token));
  // Separators left dangling at either end ("COFFEE * 1234" -> "COFFEE *") go too.
  const first = kept.findIndex((token) => !isPunctuation(token));
  if (first < 0) return collapsed;
  const last = kept.findLastIndex((token) => !isPunctuation(token));
  return kept.slice(first, last + 1).join(' ');
}

/** The grouping key of a description's payee: its payee name, case-folded. */
export function payeeKey(description: string): string {
  return payeeName(description).toLowerCase();
}

const LETTER_OR_DIGIT = /[\p{L}\p{N}]/gu;
const DIGIT = /\p{Nd}/gu;
const LETTER_OR_DIGIT_TEST = /[\p{L}\p{N}]/u;

/** A token that is mostly digits: a store, card or reference number, a date such as 12/03, "#1234". */
function isReference(token: string): boolean {
  const alphanumerics = token.match(LETTER_OR_DIGIT)?.length ?? 0;
  const digits = token.match(DIGIT)?.length ?? 0;
  return digits > 0 && digits * 2 >= alphanumerics;
}

function isPunctuation(token: string): boolean {
  return !LETTER_OR_DIGIT_TEST.test(token);
}

/** One group of counted rows with the same payee key and payee name. */
export interface PayeeGroup {
  key: string;
  name: string;
  count: number;
  total: number;
  /** Rows left out of `total`: in another currency with no rate within 7 days. */
  missing?: number;
}

export interface PayeeTotal {
  /** The payee as shown: the spelling most of its rows have (ties: the first in code order). */
  payee: string;
  count: number;
  /** Signed cents. */
  total: number;
  /** The home currency the total is in (other currencies converted at their date's rate). */
  currency?: string;
  /** The payee's rows in another currency left out of `total`: no rate within 7 days of their date. */
  noRate?: number;
}

export const DEFAULT_PAYEE_LIMIT = 20;
export const MAX_PAYEE_LIMIT = 1000;

/** Merges groups by key and ranks payees by the magnitude of their total (ties: more rows, then by name). */
export function rankPayees(groups: readonly PayeeGroup[], limit = DEFAULT_PAYEE_LIMIT): PayeeTotal[] {
  const byKey = new Map<string, { count: number; total: number; missing: number; name: string; nameCount: number }>();
  for (const group of groups) {
    const found = byKey.get(group.key);
    const missing = group.missing ?? 0;
    if (!found) {
      byKey.set(group.key, {
        count: group.count,
        total: group.total,
        missing,
        name: group.name,
        nameCount: group.count,
      });
      continue;
    }
    found.count += group.count;
    found.total += group.total;
    found.missing += missing;
    if (group.count > found.nameCount || (group.count === found.nameCount && group.name < found.name)) {
      found.name = group.name;
      found.nameCount = group.count;
    }
  }
  return [...byKey.values()]
    .sort(
      (a, b) =>
        Math.abs(b.total) - Math.abs(a.total) || b.count - a.count || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0),
    )
    .slice(0, limit)
    .map(({ name, count, total, missing }) => ({
      payee: name,
      count,
      total: total || 0,
      ...(missing > 0 ? { noRate: missing } : {}),
    }));
}
