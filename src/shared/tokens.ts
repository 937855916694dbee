/**
 * API token strength, estimated from the token's text alone (pure; used by the schema both
 * front doors and the Profile form validate with).
 *
 * The estimate counts "fresh" characters — those that do not repeat an earlier stretch of four
 * or more characters and do not continue a run (aaaa, abcd, 9876) — and multiplies them by the
 * bits one character of the token's alphabet can carry (hex 4, lower-case letters and digits
 * ~5.2, mixed-case letters and digits with symbols ~6.5). It overestimates text made of words
 * (it knows no dictionary) and never rewards repetition, runs or length made of repeats.
 */
import { must } from './must';

export const MIN_API_TOKEN_BITS = 128;

/** Generated tokens start with this, so secret scanners can recognise a leaked one. */
export const API_TOKEN_PREFIX = 'btapi_';

export function stripTokenPrefix(token: string): string {
  return token.startsWith(API_TOKEN_PREFIX) ? token.slice(API_TOKEN_PREFIX.length) : token;
}

/** Size of the alphabet the token's characters were plausibly drawn from. */
function alphabetSize(token: string): number {
  if (/^[0-9a-f]+$/.test(token) || /^[0-9A-F]+$/.test(token)) return 16;
  let size = 0;
  if (/[a-z]/.test(token)) size += 26;
  if (/[A-Z]/.test(token)) size += 26;
  if (/[0-9]/.test(token)) size += 10;
  if (/[^a-zA-Z0-9]/.test(token)) size += 33;
  return Math.max(size, 2);
}

const REPEAT_MIN = 4;

export function estimateTokenBits(token: string): number {
  const chars = Array.from(token);
  if (chars.length === 0) return 0;
  const codes = chars.map((c) => must(c.codePointAt(0), 'a character has a code point'));
  const codeAt = (k: number) => must(codes[k], 'the index is within the token');
  let fresh = 0;
  let i = 0;
  while (i < chars.length) {
    // A run: the same step (-1, 0 or +1) twice in a row makes the third character predictable.
    if (i >= 2) {
      const step = codeAt(i) - codeAt(i - 1);
      if (Math.abs(step) <= 1 && step === codeAt(i - 1) - codeAt(i - 2)) {
        i += 1;
        continue;
      }
    }
    // A repeat: the next REPEAT_MIN+ characters already appeared earlier.
    let longest = 0;
    if (i >= REPEAT_MIN) {
      const rest = token.slice(i);
      for (let length = Math.min(rest.length, i); length >= REPEAT_MIN; length -= 1) {
        if (token.slice(0, i).includes(rest.slice(0, length))) {
          longest = length;
          break;
        }
      }
    }
    if (longest > 0) {
      i += longest;
      continue;
    }
    fresh += 1;
    i += 1;
  }
  return Math.floor(fresh * Math.log2(alphabetSize(token)));
}
