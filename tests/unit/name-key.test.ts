import { describe, expect, it } from 'vitest';
import { nameKey } from '../../src/shared/names';

describe('nameKey', () => {
  it.each([
    ['Groceries', 'groceries'],
    ['  Groceries  ', 'groceries'],
    ['GROCERIES', 'groceries'],
    ['\tEating Out\n', 'eating out'],
    ['Eating  Out', 'eating  out'], // inner blanks are part of the name
    ['Ärzte', 'ärzte'],
    ['', ''],
    ['   ', ''],
    [null, ''],
    [undefined, ''],
  ])('%j -> %j', (name, key) => {
    expect(nameKey(name)).toBe(key);
  });

  it('two names share a key exactly when they differ only in case and surrounding blanks', () => {
    expect(nameKey(' Rent')).toBe(nameKey('rent '));
    expect(nameKey('Rent')).not.toBe(nameKey('Rents'));
  });
});
