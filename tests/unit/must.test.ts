import { describe, expect, it } from 'vitest';
import { must } from '../../src/shared/must';

describe('must', () => {
  it.each([
    ['a string', 'x'],
    ['an empty string', ''],
    ['zero', 0],
    ['false', false],
    ['null (a value, not a missing one)', null],
    ['an object', { a: 1 }],
  ])('returns %s unchanged', (_label, value) => {
    expect(must(value, 'present')).toBe(value);
  });

  it('throws an Error naming the broken invariant when the value is missing', () => {
    expect(() => must(undefined, 'every line item has a running sum')).toThrow(
      new Error('Invariant broken: every line item has a running sum'),
    );
  });

  it('reads an array element that a guard elsewhere proved present', () => {
    const rows = ['a', 'b'];
    expect(must(rows[1], 'two rows')).toBe('b');
    expect(() => must(rows[2], 'three rows')).toThrow('Invariant broken: three rows');
  });
});
