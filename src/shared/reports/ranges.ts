/**
 * The Reports screen's range presets. Pure: `today` (`YYYY-MM-DD`) comes in. Every preset
 * covers whole months, so each month's bar sums the whole month.
 */
import { daysInMonth, isoDateOf, parseIsoDate } from '../dates/calendar';

export const REPORT_PRESETS = ['This year', 'Last 12 months', 'Last year', 'Custom'] as const;
export type ReportPreset = (typeof REPORT_PRESETS)[number];

function monthStart(year: number, month: number): string {
  return isoDateOf(year, month, 1);
}
function monthEnd(year: number, month: number): string {
  return isoDateOf(year, month, daysInMonth(year, month));
}

/**
 * - This year: 1 January to the end of this month (months still to come would only be zeros);
 * - Last 12 months: this month and the eleven before it;
 * - Last year: 1 January to 31 December of the previous year.
 * 'Custom' has no range of its own: null.
 */
export function reportPresetRange(preset: ReportPreset, today: string): { startDate: string; endDate: string } | null {
  const parts = parseIsoDate(today);
  if (!parts) throw new RangeError(`Not a calendar date: ${today}`);
  const { year, month } = parts;
  switch (preset) {
    case 'This year':
      return { startDate: monthStart(year, 1), endDate: monthEnd(year, month) };
    case 'Last 12 months': {
      const index = year * 12 + (month - 1) - 11;
      return { startDate: monthStart(Math.floor(index / 12), (index % 12) + 1), endDate: monthEnd(year, month) };
    }
    case 'Last year':
      return { startDate: monthStart(year - 1, 1), endDate: monthEnd(year - 1, 12) };
    case 'Custom':
      return null;
  }
}
