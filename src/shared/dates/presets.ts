/**
 * Date-range presets for finding transactions. Pure: `today` (a `YYYY-MM-DD` string) comes in.
 * Month presets cover whole calendar months, so a month's transactions are all found even when
 * some are dated later in the month than today.
 */
import { daysInMonth, isoDateOf, parseIsoDate } from './calendar';

export const DATE_PRESETS = ['This month', 'Last month', 'Last 3 months', 'This year', 'Last year'] as const;
export type DatePreset = (typeof DATE_PRESETS)[number];

export interface DateRange {
  startDate: string;
  endDate: string;
}

/** Year and month `offset` months from the given one (offset may be negative). */
function shiftMonth(year: number, month: number, offset: number): { year: number; month: number } {
  const index = year * 12 + (month - 1) + offset;
  return { year: Math.floor(index / 12), month: (index % 12) + 1 };
}

function monthRange(from: { year: number; month: number }, to: { year: number; month: number }): DateRange {
  return {
    startDate: isoDateOf(from.year, from.month, 1),
    endDate: isoDateOf(to.year, to.month, daysInMonth(to.year, to.month)),
  };
}

/**
 * The range of a preset for `today`:
 * - This month: its 1st to its last day; Last month: the whole previous month;
 * - Last 3 months: the 1st of the month two months back to the end of this month;
 * - This year / Last year: 1 January to 31 December.
 */
export function presetRange(preset: DatePreset, today: string): DateRange {
  const parts = parseIsoDate(today);
  if (!parts) throw new RangeError(`Not a calendar date: ${today}`);
  const current = { year: parts.year, month: parts.month };
  switch (preset) {
    case 'This month':
      return monthRange(current, current);
    case 'Last month': {
      const previous = shiftMonth(current.year, current.month, -1);
      return monthRange(previous, previous);
    }
    case 'Last 3 months':
      return monthRange(shiftMonth(current.year, current.month, -2), current);
    case 'This year':
      return monthRange({ year: current.year, month: 1 }, { year: current.year, month: 12 });
    case 'Last year':
      return monthRange({ year: current.year - 1, month: 1 }, { year: current.year - 1, month: 12 });
  }
}

/** The preset whose range is exactly `range` for `today`, or null (dates typed by hand). */
export function presetOf(range: Partial<DateRange>, today: string): DatePreset | null {
  if (!range.startDate || !range.endDate || !parseIsoDate(today)) return null;
  for (const preset of DATE_PRESETS) {
    const candidate = presetRange(preset, today);
    if (candidate.startDate === range.startDate && candidate.endDate === range.endDate) return preset;
  }
  return null;
}
