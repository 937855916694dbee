import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scrubSql, serializeError } from '../../src/server/http/logging';
import { centsSchema, hasControlCharacters, text } from '../../src/shared/schemas/common';
import { MAX_AMOUNT_CENTS } from '../../src/shared/limits';

describe('text()', () => {
  const single = text({ max: 20 });
  const multi = text({ max: 20, multiline: true });

  it.each([
    ['plain', true, true],
    ['  trimmed  ', true, true],
    ['Café – ünïcode ✓ 💶', true, true],
    ['a\u0000b', false, false],
    ['esc\u001b[31m', false, false],
    ['del\u007f', false, false],
    ['c1\u0085', false, false],
    ['bell\u0007', false, false],
    ['two\nlines', false, true],
    ['tab\there', false, true],
    ['cr\r\nlf', false, true],
    ['lone \ud800 surrogate', false, false],
  ])('%j: single-line %s, multi-line %s', (value, singleOk, multiOk) => {
    expect(single.safeParse(value).success).toBe(singleOk);
    expect(multi.safeParse(value).success).toBe(multiOk);
  });

  it('names the problem', () => {
    const parsed = text({ label: 'Category name', min: 1, max: 10 }).safeParse('a\u0000');
    expect(parsed.error?.issues[0].message).toBe('Category name must not contain control characters');
  });

  it('never accepts a string holding a C0 control other than tab and line breaks', () => {
    fc.assert(
      fc.property(
        fc.string(),
        fc.integer({ min: 0, max: 31 }).filter((c) => ![9, 10, 13].includes(c)),
        fc.string(),
        (before, code, after) => {
          const value = `${before}${String.fromCharCode(code)}${after}`;
          expect(hasControlCharacters(value, true)).toBe(true);
          expect(text({ max: 10_000, multiline: true }).safeParse(value).success).toBe(false);
        },
      ),
    );
  });
});

describe('centsSchema', () => {
  it.each([
    [0, true],
    [-1250, true],
    [MAX_AMOUNT_CENTS, true],
    [-MAX_AMOUNT_CENTS, true],
    [MAX_AMOUNT_CENTS + 1, false],
    [-MAX_AMOUNT_CENTS - 1, false],
    [Number.MAX_SAFE_INTEGER, false],
    [1.5, false],
    [Number.NaN, false],
  ])('%d accepted: %s', (value, ok) => {
    expect(centsSchema.safeParse(value).success).toBe(ok);
  });

  it('keeps the sum of 900 largest amounts exact', () => {
    expect(Number.isSafeInteger(900 * MAX_AMOUNT_CENTS)).toBe(true);
  });
});

describe('log scrubbing', () => {
  it.each([
    [
      "insert into `user` (`username`, `password_hash`) values ('alice', 'scrypt$secret') - UNIQUE constraint failed: user.username_key",
      '[SQL statement omitted] - UNIQUE constraint failed: user.username_key',
    ],
    [
      "update `user` set `api_token_hash` = 'abc' where `id` = 1 - attempt to write a readonly database",
      '[SQL statement omitted] - attempt to write a readonly database',
    ],
    [
      "select t.id from `transaction` t where t.description = 'rent' - no such column",
      '[SQL statement omitted] - no such column',
    ],
    ['delete from refresh_token where id = 3', '[SQL statement omitted]'],
    ['Something ordinary went wrong', 'Something ordinary went wrong'],
  ])('%s', (input, expected) => {
    expect(scrubSql(input)).toBe(expected);
  });

  it('scrubs the message, the stack and the causes of a logged error', () => {
    const cause = new Error("insert into envelope (name) values ('Secret name') - no such table: envelope");
    const error = new Error("insert into envelope (name) values ('Secret name') - no such table: envelope", { cause });
    const serialized = JSON.stringify(serializeError(error));
    expect(serialized).not.toContain('Secret name');
    expect(serialized).toContain('no such table: envelope');
  });
});
