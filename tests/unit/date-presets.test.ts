import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, isIsoDate } from '../../src/shared/dates/calendar';
import { DATE_PRESETS, presetOf, presetRange } from '../../src/shared/dates/presets';

describe('presetRange', () => {
  it.each([
    ['This month', '2024-02-15', '2024-02-01', '2024-02-29'],
    ['This month', '2023-02-01', '2023-02-01', '2023-02-28'],
    ['Last month', '2024-03-31', '2024-02-01', '2024-02-29'],
    ['Last month', '2024-01-10', '2023-12-01', '2023-12-31'],
    ['Last 3 months', '2024-05-20', '2024-03-01', '2024-05-31'],
    ['Last 3 months', '2024-02-05', '2023-12-01', '2024-02-29'],
    ['Last 3 months', '2024-01-01', '2023-11-01', '2024-01-31'],
    ['This year', '2024-07-04', '2024-01-01', '2024-12-31'],
    ['Last year', '2024-01-01', '2023-01-01', '2023-12-31'],
  ] as const)('%s on %s is %s to %s', (preset, today, startDate, endDate) => {
    expect(presetRange(preset, today)).toEqual({ startDate, endDate });
    expect(presetOf({ startDate, endDate }, today)).toBe(preset);
  });

  it('refuses a today that is not a date', () => {
    expect(() => presetRange('This month', '2024-02-30')).toThrow(RangeError);
  });

  it('answers null for hand-typed ranges and missing dates', () => {
    expect(presetOf({ startDate: '2024-02-02', endDate: '2024-02-29' }, '2024-02-10')).toBeNull();
    expect(presetOf({ startDate: '2024-02-01' }, '2024-02-10')).toBeNull();
    expect(presetOf({ startDate: '2024-02-01', endDate: '2024-02-29' }, 'not a date')).toBeNull();
  });

  it('every preset is a valid range, ordered, that contains or precedes today', () => {
    const days = fc.integer({ min: 0, max: 365 * 300 }).map((n) => addDays('1900-01-01', n));
    fc.assert(
      fc.property(days, fc.constantFrom(...DATE_PRESETS), (today, preset) => {
        const { startDate, endDate } = presetRange(preset, today);
        expect(isIsoDate(startDate) && isIsoDate(endDate)).toBe(true);
        expect(startDate <= endDate).toBe(true);
        expect(startDate.endsWith('-01')).toBe(true);
        if (preset.startsWith('Last') && preset !== 'Last 3 months') expect(endDate < today).toBe(true);
        else expect(startDate <= today && today <= endDate).toBe(true);
        expect(isIsoDate(addDays(endDate, 1)) && addDays(endDate, 1).endsWith('-01')).toBe(true);
      }),
    );
  });
});
