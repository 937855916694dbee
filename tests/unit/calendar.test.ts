import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  fromDayNumber,
  isIsoDate,
  isoDateOf,
  isValidCalendarDate,
  toDayNumber,
  toIsoDate,
} from '../../src/shared/dates/calendar';

describe('calendar dates', () => {
  it.each([
    ['2024-02-29', true],
    ['2023-02-29', false],
    ['2024-02-30', false],
    ['1900-02-29', false],
    ['2000-02-29', true],
    ['2024-04-31', false],
    ['2024-12-31', true],
    ['2024-13-01', false],
    ['2024-00-10', false],
    ['2024-1-10', false],
    ['2024-01-10T00:00:00Z', false],
    ['', false],
  ])('isIsoDate(%s) is %s', (text, expected) => {
    expect(isIsoDate(text)).toBe(expected);
  });

  it.each([
    [2024, 2, 29, '2024-02-29'],
    [2023, 2, 29, null],
    [999, 1, 1, null],
    [2024, 1, 1.5, null],
  ])('toIsoDate(%i, %i, %s) is %s', (y, m, d, expected) => {
    expect(toIsoDate(y, m, d)).toBe(expected);
  });

  it.each([
    [2024, 2, 29, '2024-02-29'],
    [1000, 1, 1, '1000-01-01'],
    [9999, 12, 31, '9999-12-31'],
  ])('isoDateOf(%i, %i, %i) is %s', (y, m, d, expected) => {
    expect(isoDateOf(y, m, d)).toBe(expected);
  });

  it.each([
    [2023, 2, 29],
    [999, 1, 1],
    [2024, 1, 1.5],
    [2024, 13, 1],
  ])('isoDateOf(%i, %i, %s) throws a RangeError: the caller promised a real day', (y, m, d) => {
    expect(() => isoDateOf(y, m, d)).toThrow(RangeError);
  });

  it.each([
    ['1970-01-01', 0],
    ['1970-01-02', 1],
    ['1969-12-31', -1],
    ['2000-03-01', 11017],
  ])('toDayNumber(%s) is %i', (text, expected) => {
    expect(toDayNumber(text)).toBe(expected);
  });

  it('adds days across months, leap days and years', () => {
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2023-02-28', 1)).toBe('2023-03-01');
    expect(addDays('2024-12-31', 1)).toBe('2025-01-01');
    expect(addDays('2025-01-01', -1)).toBe('2024-12-31');
  });

  it('round-trips every day number', () => {
    fc.assert(
      fc.property(fc.integer({ min: -300_000, max: 2_900_000 }), (n) => {
        const text = fromDayNumber(n);
        return isIsoDate(text) && toDayNumber(text) === n;
      }),
    );
  });

  it('agrees with the built-in UTC calendar', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1000, max: 9999 }),
        fc.integer({ min: 1, max: 12 }),
        fc.integer({ min: 1, max: 31 }),
        (y, m, d) => {
          const utc = new Date(Date.UTC(y, m - 1, d));
          const real = utc.getUTCFullYear() === y && utc.getUTCMonth() === m - 1 && utc.getUTCDate() === d;
          return isValidCalendarDate(y, m, d) === real;
        },
      ),
    );
  });
});
