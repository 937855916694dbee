/**
 * A rule's `matches` condition runs a person's regular expression over every imported row, on
 * a backtracking engine (V8's). Patterns that could backtrack catastrophically are refused
 * before they are stored, by their structure:
 * - backreferences (`\1`, `\k<name>`) and lookarounds (`(?=`, `(?!`, `(?<=`, `(?<!`);
 * - nested quantifiers: a repeated group holding a quantifier or an alternation (`(a+)+`,
 *   `(a|ab)*`, `(\w+\s?)*`), the shapes behind exponential backtracking;
 * - more than MAX_UNBOUNDED unbounded quantifiers (`*`, `+`, `{n,}`, or `{n,m}`
 *   wider than 50), which bound the
 *   polynomial kind (`.*a.*b.*c` on a long text);
 * - patterns longer than MAX_PATTERN_LENGTH or that do not compile.
 * What is left backtracks at most polynomially of degree MAX_UNBOUNDED over a description of at
 * most 1,000 characters. Pure: used by the schema (client forms and both front doors).
 */
import { must } from '../must';

export const MAX_PATTERN_LENGTH = 200;
export const MAX_UNBOUNDED = 2;
/** A bounded repeat wider than this (`a{1,500}`) counts as unbounded. */
const WIDE_REPEAT = 50;

export type RegexCheck = { ok: true } | { ok: false; message: string };

/** Flags every rule regex is compiled with: matched against folded text, case-insensitive. */
export const RULE_REGEX_FLAGS = 'iu';

interface Frame {
  hasQuantifier: boolean;
  hasAlternation: boolean;
}

interface Atom {
  /** A group whose content holds a quantifier or an alternation. */
  complex: boolean;
  quantifiable: boolean;
}

const refuse = (message: string): RegexCheck => ({ ok: false, message });

export function checkRegex(pattern: string): RegexCheck {
  if (pattern.length === 0) return refuse('must not be empty');
  if (pattern.length > MAX_PATTERN_LENGTH) return refuse(`must be at most ${MAX_PATTERN_LENGTH} characters`);
  try {
    new RegExp(pattern, RULE_REGEX_FLAGS);
  } catch (error) {
    return refuse(
      `is not a valid regular expression (${(error as Error).message.replace(/^Invalid regular expression: /, '')})`,
    );
  }
  const stack: Frame[] = [{ hasQuantifier: false, hasAlternation: false }];
  // The pattern compiled above, so its groups balance: the root frame is never popped.
  const innermost = () => must(stack.at(-1), 'the root frame of a compiled pattern is never popped');
  let last: Atom | null = null;
  let unbounded = 0;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern[i];
    if (c === '\\') {
      const next = pattern[i + 1] ?? '';
      if (/[1-9]/.test(next) || next === 'k')
        return refuse('must not use backreferences (\\1, \\k<name>): they can take exponential time');
      i += 2;
      // \p{...}, \P{...}, \u{...}: skip the braces.
      if ((next === 'p' || next === 'P' || next === 'u') && pattern[i] === '{') i = pattern.indexOf('}', i) + 1;
      else if (next === 'u') i += 4;
      else if (next === 'x') i += 2;
      else if (next === 'c') i += 1;
      last = { complex: false, quantifiable: !/[bB]/.test(next) };
      continue;
    }
    if (c === '[') {
      i += 1;
      if (pattern[i] === '^') i += 1;
      if (pattern[i] === ']') i += 1;
      while (i < pattern.length && pattern[i] !== ']') i += pattern[i] === '\\' ? 2 : 1;
      i += 1;
      last = { complex: false, quantifiable: true };
      continue;
    }
    if (c === '(') {
      if (
        pattern.startsWith('(?=', i) ||
        pattern.startsWith('(?!', i) ||
        pattern.startsWith('(?<=', i) ||
        pattern.startsWith('(?<!', i)
      ) {
        return refuse('must not use lookarounds ((?=, (?!, (?<=, (?<!)');
      }
      if (pattern.startsWith('(?<', i)) i = pattern.indexOf('>', i) + 1;
      else if (pattern.startsWith('(?:', i)) i += 3;
      else if (pattern[i + 1] === '?')
        return refuse('uses a group form this check does not know; use (...) or (?:...)');
      else i += 1;
      stack.push({ hasQuantifier: false, hasAlternation: false });
      last = null;
      continue;
    }
    if (c === ')') {
      const frame = must(stack.pop(), 'a compiled pattern closes only groups it opened');
      const parent = innermost();
      parent.hasQuantifier ||= frame.hasQuantifier;
      parent.hasAlternation ||= frame.hasAlternation;
      last = { complex: frame.hasQuantifier || frame.hasAlternation, quantifiable: true };
      i += 1;
      continue;
    }
    if (c === '|') {
      innermost().hasAlternation = true;
      last = null;
      i += 1;
      continue;
    }
    const quantifier = readQuantifier(pattern, i);
    if (quantifier) {
      if (last?.complex && quantifier.max !== 1) {
        return refuse(
          'must not repeat a group that holds a quantifier or an alternation (such as (a+)+ or (a|ab)*): it can take exponential time',
        );
      }
      if (quantifier.max > WIDE_REPEAT) unbounded += 1;
      if (unbounded > MAX_UNBOUNDED)
        return refuse(
          `may use at most ${MAX_UNBOUNDED} unbounded quantifiers (*, +, {n,}): more can take polynomial time on long text`,
        );
      innermost().hasQuantifier = true;
      i = quantifier.end;
      if (pattern[i] === '?') i += 1; // lazy
      last = null;
      continue;
    }
    last = { complex: false, quantifiable: c !== '^' && c !== '$' };
    i += 1;
  }
  return { ok: true };
}

function readQuantifier(pattern: string, i: number): { max: number; end: number } | null {
  const c = pattern[i];
  if (c === '*' || c === '+') return { max: Infinity, end: i + 1 };
  if (c === '?') return { max: 1, end: i + 1 };
  if (c !== '{') return null;
  const match = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
  if (!match) return null;
  const max = match[2] === undefined ? Number(match[1]) : match[3] === '' ? Infinity : Number(match[3]);
  return { max, end: i + match[0].length };
}
