/**
 * A rule's `matches` condition runs a person's regular expression over every row it looks at. Every such
 * pattern is compiled here, and only here, on RE2JS: an engine with RE2's semantics whose matching time grows
 * linearly with the text, whatever the pattern's shape, so no pattern can make the server backtrack. What
 * RE2 cannot express (backreferences, lookarounds, atomic groups) is refused with a message naming it, and so
 * is a pattern that compiles to a program too large to run over many rows. Pure: used by the schema (client
 * forms and both front doors), by restore and by every run of rules.
 */
import { RE2JS, RE2JSException } from 're2js';

export const MAX_PATTERN_LENGTH = 200;
/**
 * The most instructions a compiled pattern may hold. Matching costs up to this much per character of a
 * description, so it bounds the work of one row; ordinary patterns stay far below it.
 */
export const MAX_PATTERN_PROGRAM = 1000;

export type RegexCheck = { ok: true } | { ok: false; message: string };

/** A compiled rule pattern: matched against folded text, case-insensitively, anywhere in it. */
export interface RulePattern {
  test: (text: string) => boolean;
}

export type PatternCompile = { ok: true; pattern: RulePattern } | { ok: false; message: string };

const refuse = (message: string): { ok: false; message: string } => ({ ok: false, message });

const LINEAR_ONLY = 'which the linear-time matcher cannot express';

/**
 * The first construct of the pattern RE2 cannot express, named for the person who wrote it, or null; and
 * the pattern with JavaScript's `\uXXXX` and `\u{X}` escapes written as RE2's `\x{X}`. One pass, forward.
 */
function unsupportedConstruct(pattern: string): { refused: string } | { source: string } {
  let source = '';
  let inClass = false;
  let i = 0;
  while (i < pattern.length) {
    const c = pattern.charAt(i);
    if (c === '\\') {
      const next = pattern.charAt(i + 1);
      if (!inClass && next >= '1' && next <= '9') return { refused: `a backreference (\\${next})` };
      if (!inClass && next === 'k' && pattern.charAt(i + 2) === '<')
        return { refused: 'a named backreference (\\k<…>)' };
      if (next === 'u') {
        const braced = pattern.charAt(i + 2) === '{' ? pattern.indexOf('}', i + 3) : -1;
        const hex = braced >= 0 ? pattern.slice(i + 3, braced) : pattern.slice(i + 2, i + 6);
        if (/^[0-9a-fA-F]{1,6}$/.test(hex) && (braced >= 0 || hex.length === 4)) {
          source += `\\x{${hex}}`;
          i = braced >= 0 ? braced + 1 : i + 6;
          continue;
        }
      }
      source += c + next;
      i += 2;
      continue;
    }
    if (inClass) {
      if (c === ']') inClass = false;
    } else if (c === '[') {
      inClass = true;
      // A `]` right after `[` or `[^` is a member, not the end.
      if (pattern.charAt(i + 1) === '^') {
        source += '[^';
        i += 2;
      } else {
        source += '[';
        i += 1;
      }
      if (pattern.charAt(i) === ']') {
        source += ']';
        i += 1;
      }
      continue;
    } else if (c === '(' && pattern.charAt(i + 1) === '?') {
      const form = pattern.slice(i + 2, i + 4);
      if (form.startsWith('=')) return { refused: 'a lookahead ((?=…))' };
      if (form.startsWith('!')) return { refused: 'a negative lookahead ((?!…))' };
      if (form === '<=') return { refused: 'a lookbehind ((?<=…))' };
      if (form === '<!') return { refused: 'a negative lookbehind ((?<!…))' };
      if (form.startsWith('>')) return { refused: 'an atomic group ((?>…))' };
    } else if ((c === '+' || c === '*' || c === '?') && pattern.charAt(i + 1) === '+') {
      return { refused: `a possessive quantifier (${c}+)` };
    }
    source += c;
    i += 1;
  }
  return { source };
}

/** Compiles a rule pattern, or says in a few words why it cannot be one. */
export function compileRulePattern(pattern: string): PatternCompile {
  if (pattern.length === 0) return refuse('must not be empty');
  if (pattern.length > MAX_PATTERN_LENGTH) return refuse(`must be at most ${MAX_PATTERN_LENGTH} characters`);
  const scanned = unsupportedConstruct(pattern);
  if ('refused' in scanned) return refuse(`uses ${scanned.refused}, ${LINEAR_ONLY}`);
  let compiled: RE2JS;
  try {
    compiled = RE2JS.compile(scanned.source, RE2JS.CASE_INSENSITIVE);
  } catch (error) {
    if (!(error instanceof RE2JSException)) throw error;
    return refuse(`is not a valid regular expression (${error.message.replace(/^error parsing regexp: /, '')})`);
  }
  const size = compiled.programSize();
  if (size > MAX_PATTERN_PROGRAM)
    return refuse(
      `is too complex: it compiles to ${size} steps, at most ${MAX_PATTERN_PROGRAM} (use fewer or narrower repeats)`,
    );
  return { ok: true, pattern: { test: (text) => compiled.test(text) } };
}

/** Whether a pattern can be a rule's (the schema's check): see compileRulePattern. */
export function checkRegex(pattern: string): RegexCheck {
  const compiled = compileRulePattern(pattern);
  return compiled.ok ? { ok: true } : compiled;
}

/** A pattern that matches nothing: a stored pattern this engine refuses (saved under older checks) changes no row. */
const MATCHES_NOTHING: RulePattern = { test: () => false };

/** A stored rule's pattern, compiled; one that no longer compiles matches nothing. */
export function storedRulePattern(pattern: string): RulePattern {
  const compiled = compileRulePattern(pattern);
  return compiled.ok ? compiled.pattern : MATCHES_NOTHING;
}
