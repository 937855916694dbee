/**
 * A transaction's description from its parts: who the money went to (or came from), then
 * ` — ` and the purpose, reference or memo when that adds something. One rule for every
 * format (CSV counterparty columns, OFX NAME/MEMO, QIF P/M, CAMT party/Ustrd).
 */
import { squashSpaces } from './finish';

export const DESCRIPTION_SEPARATOR = ' — ';

/** Compared without letter case or accents: an upper-case copy 'ICA NARA' of 'ICA Nära' is the same text. */
const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase();

/** All capitals: a bank's upper-case copy of a name rather than the name as its owner writes it. */
const shouting = (text: string) => text === text.toUpperCase() && text !== text.toLowerCase();

/** Of two spellings of one text, the one its owner wrote (not an all-capitals copy). */
const ownSpelling = (a: string, b: string) => (shouting(a) && !shouting(b) ? b : a);

/**
 * - second empty: first; first empty: second
 * - second equal to or contained in the first (without case or accents): first
 * - second starts with the first (a name that is a truncation of the memo): the first, then the rest of the second
 * - otherwise: first — second
 */
export function joinDescription(first: string, second: string): string {
  const a = squashSpaces(first);
  const b = squashSpaces(second);
  if (!b) return a;
  if (!a) return b;
  const fa = fold(a);
  const fb = fold(b);
  if (fa === fb || fa.includes(fb)) return a;
  if (fb.startsWith(fa)) return fa.length === a.length && fb.length === b.length ? a + b.slice(a.length) : b;
  return `${a}${DESCRIPTION_SEPARATOR}${b}`;
}

/**
 * Several purpose cells (description, reference, note) joined with spaces, each only when it adds
 * something: a cell equal to or contained in the text so far is left out ("... with reference
 * Salary" and "Salary" read once).
 */
export function joinParts(parts: readonly string[]): string {
  let text = '';
  let folded = '';
  for (const part of parts) {
    const p = squashSpaces(part);
    if (!p) continue;
    const fp = fold(p);
    if (fp === folded) {
      text = ownSpelling(text, p);
      continue;
    }
    if (folded.includes(fp)) continue;
    if (fp.includes(folded) && folded) {
      // A later cell that holds everything so far replaces it.
      text = p;
      folded = fp;
      continue;
    }
    text = text ? `${text} ${p}` : p;
    folded = fold(text);
  }
  return text;
}

/** An IBAN, BBAN or card/account number: never a counterparty's name. */
const ACCOUNT_NUMBER = /^(?:[A-Z]{2}\d{2}[A-Z0-9 ]{8,32}|[\d\s./*x-]{4,34})$/i;

export function isAccountNumber(text: string): boolean {
  return ACCOUNT_NUMBER.test(text.trim()) && /\d/.test(text);
}
