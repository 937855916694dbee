import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, fromDayNumber, toDayNumber } from '../../src/shared/dates/calendar';
import {
  expandSchedule,
  moveOffWeekend,
  parseRecurrence,
  weekdayNumber,
  type ScheduleTiming,
} from '../../src/shared/schedules';

const timing = (recurrence: string, startDate: string, extra: Partial<ScheduleTiming> = {}): ScheduleTiming => ({
  recurrence,
  startDate,
  end: 'never',
  weekendRule: 'none',
  ...extra,
});
const days = (t: ScheduleTiming, from: string, to: string) => expandSchedule(t, from, to).map((o) => o.date);

describe('expanding a schedule over calendar dates', () => {
  const cases: [string, ScheduleTiming, string, string, string[]][] = [
    [
      'the 31st falls on the last day of shorter months (leap year)',
      timing('FREQ=MONTHLY;BYMONTHDAY=31', '2024-01-31'),
      '2024-01-01',
      '2024-06-30',
      ['2024-01-31', '2024-02-29', '2024-03-31', '2024-04-30', '2024-05-31', '2024-06-30'],
    ],
    [
      'a start on the 31st without a month day keeps to month ends',
      timing('FREQ=MONTHLY', '2023-01-31'),
      '2023-01-01',
      '2023-04-30',
      ['2023-01-31', '2023-02-28', '2023-03-31', '2023-04-30'],
    ],
    [
      'the 30th falls on Feb 28 and stays the 30th elsewhere',
      timing('FREQ=MONTHLY;BYMONTHDAY=30', '2025-01-01'),
      '2025-01-01',
      '2025-03-31',
      ['2025-01-30', '2025-02-28', '2025-03-30'],
    ],
    [
      'the 29th every two months',
      timing('FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=29', '2023-12-29'),
      '2023-12-01',
      '2024-04-30',
      ['2023-12-29', '2024-02-29', '2024-04-29'],
    ],
    [
      'the last day of the month (-1)',
      timing('FREQ=MONTHLY;BYMONTHDAY=-1', '2025-01-15'),
      '2025-01-01',
      '2025-04-30',
      ['2025-01-31', '2025-02-28', '2025-03-31', '2025-04-30'],
    ],
    [
      'Feb 29 falls on Feb 28 in other years',
      timing('FREQ=YEARLY', '2024-02-29'),
      '2024-01-01',
      '2029-12-31',
      ['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29', '2029-02-28'],
    ],
    [
      'yearly on the 31st of two months',
      timing('FREQ=YEARLY;BYMONTH=4,5;BYMONTHDAY=31', '2025-01-01'),
      '2025-01-01',
      '2025-12-31',
      ['2025-04-30', '2025-05-31'],
    ],
    [
      'the 15th and the 31st in one rule',
      timing('FREQ=MONTHLY;BYMONTHDAY=15,31', '2025-02-01'),
      '2025-02-01',
      '2025-04-30',
      ['2025-02-15', '2025-02-28', '2025-03-15', '2025-03-31', '2025-04-15', '2025-04-30'],
    ],
    [
      'the second Friday',
      timing('FREQ=MONTHLY;BYDAY=+2FR', '2025-01-01'),
      '2025-01-01',
      '2025-03-31',
      ['2025-01-10', '2025-02-14', '2025-03-14'],
    ],
    [
      'the last weekday of the month',
      timing('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1', '2025-05-01'),
      '2025-05-01',
      '2025-08-31',
      ['2025-05-30', '2025-06-30', '2025-07-31', '2025-08-29'],
    ],
    [
      'every two weeks on Friday from the start',
      timing('FREQ=WEEKLY;INTERVAL=2;BYDAY=FR', '2025-01-03'),
      '2025-01-01',
      '2025-02-14',
      ['2025-01-03', '2025-01-17', '2025-01-31', '2025-02-14'],
    ],
    [
      'every 10 days across a year end',
      timing('FREQ=DAILY;INTERVAL=10', '2024-12-20'),
      '2024-12-01',
      '2025-01-20',
      ['2024-12-20', '2024-12-30', '2025-01-09', '2025-01-19'],
    ],
    [
      'the first occurrence is the start date itself',
      timing('FREQ=MONTHLY;BYMONTHDAY=5', '2025-03-05'),
      '2025-03-05',
      '2025-03-05',
      ['2025-03-05'],
    ],
    [
      'nothing before the start date',
      timing('FREQ=MONTHLY;BYMONTHDAY=1', '2025-03-02'),
      '2025-01-01',
      '2025-04-01',
      ['2025-04-01'],
    ],
    [
      'an end after 3 occurrences',
      timing('FREQ=MONTHLY;BYMONTHDAY=31', '2025-01-31', { end: { after: 3 } }),
      '2025-01-01',
      '2025-12-31',
      ['2025-01-31', '2025-02-28', '2025-03-31'],
    ],
    [
      'an end on a date, inclusive',
      timing('FREQ=WEEKLY', '2025-01-06', { end: { until: '2025-01-20' } }),
      '2025-01-01',
      '2025-12-31',
      ['2025-01-06', '2025-01-13', '2025-01-20'],
    ],
    [
      'Saturday and Sunday move to the Friday before',
      timing('FREQ=MONTHLY;BYMONTHDAY=1', '2025-02-01', { weekendRule: 'before' }),
      '2025-01-01',
      '2025-06-30',
      // Feb 1 and Mar 1 2025 are Saturdays, Jun 1 a Sunday.
      ['2025-01-31', '2025-02-28', '2025-04-01', '2025-05-01', '2025-05-30'],
    ],
    [
      'Saturday and Sunday move to the Monday after',
      timing('FREQ=MONTHLY;BYMONTHDAY=31', '2025-05-31', { weekendRule: 'after' }),
      '2025-05-01',
      '2025-09-30',
      // May 31 2025 is a Saturday, Aug 31 a Sunday.
      ['2025-06-02', '2025-06-30', '2025-07-31', '2025-09-01', '2025-09-30'],
    ],
    [
      'a move before reaches back into the range from past its end',
      timing('FREQ=MONTHLY;BYMONTHDAY=1', '2025-01-01', { weekendRule: 'before' }),
      '2025-02-28',
      '2025-02-28',
      ['2025-02-28'],
    ],
  ];
  it.each(cases)('%s', (_name, t, from, to, expected) => {
    expect(days(t, from, to)).toEqual(expected);
  });

  it('keys each occurrence by the rule’s own date when the weekend rule moves it', () => {
    expect(
      expandSchedule(
        timing('FREQ=MONTHLY;BYMONTHDAY=1', '2025-03-01', { weekendRule: 'after' }),
        '2025-03-01',
        '2025-03-31',
      ),
    ).toEqual([{ scheduledDate: '2025-03-01', date: '2025-03-03' }]);
  });

  it('a monthly day past the 28th lands once in every month, on that day or the month’s last (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 31 }), fc.integer({ min: 0, max: 4000 }), (day, offset) => {
        const start = fromDayNumber(toDayNumber('2020-01-01') + offset);
        const startMonth = `${start.slice(0, 7)}-01`;
        const to = addDays(startMonth, 400);
        const dates = days(timing(`FREQ=MONTHLY;BYMONTHDAY=${day}`, startMonth), startMonth, to);
        const months = dates.map((d) => d.slice(0, 7));
        expect(new Set(months).size).toBe(months.length);
        for (const date of dates) {
          const dayOf = Number(date.slice(8));
          const lastOfMonth = addDays(`${addDays(`${date.slice(0, 7)}-28`, 4).slice(0, 7)}-01`, -1);
          expect(dayOf === day || (dayOf < day && date === lastOfMonth)).toBe(true);
        }
        expect(dates.length).toBeGreaterThanOrEqual(12);
      }),
      { numRuns: 60 },
    );
  });
});

describe('moving a date off the weekend', () => {
  it.each([
    ['2025-03-01', 'none', '2025-03-01'],
    ['2025-03-01', 'before', '2025-02-28'],
    ['2025-03-02', 'before', '2025-02-28'],
    ['2025-03-01', 'after', '2025-03-03'],
    ['2025-03-02', 'after', '2025-03-03'],
    ['2025-03-03', 'before', '2025-03-03'],
    ['2024-12-29', 'after', '2024-12-30'],
  ] as const)('%s with %s is %s', (date, rule, expected) => {
    expect(moveOffWeekend(date, rule)).toBe(expected);
  });

  it('counts weekdays from 1970-01-01, a Thursday', () => {
    expect(['1970-01-01', '2025-03-01', '2025-03-02', '2000-02-29'].map(weekdayNumber)).toEqual([4, 6, 0, 2]);
  });
});

describe('reading a recurrence rule', () => {
  it.each([
    ['RRULE:freq=monthly;bymonthday=31', 'FREQ=MONTHLY;BYMONTHDAY=31'],
    ['FREQ=WEEKLY;BYDAY=MO,FR;INTERVAL=1', 'FREQ=WEEKLY;BYDAY=MO,FR'],
    ['BYDAY=-1FR;FREQ=MONTHLY', 'FREQ=MONTHLY;BYDAY=-1FR'],
    ['FREQ=YEARLY;BYMONTHDAY=29;BYMONTH=2', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'],
  ])('%s reads as %s', (input, text) => {
    expect(parseRecurrence(input)).toMatchObject({ ok: true, text });
  });

  it.each([
    ['', 'must be a rule'],
    ['FREQ=HOURLY', 'FREQ must be one of'],
    ['BYMONTHDAY=1', 'FREQ is required'],
    ['FREQ=MONTHLY;COUNT=3', 'COUNT is set by the schedule’s end'],
    ['FREQ=MONTHLY;UNTIL=20250101', 'UNTIL is set by the schedule’s end'],
    ['FREQ=MONTHLY;DTSTART=20250101', 'DTSTART is the schedule’s start date'],
    ['FREQ=MONTHLY;BYMONTHDAY=32', 'BYMONTHDAY: 32 must be from'],
    ['FREQ=MONTHLY;BYMONTHDAY=x', "BYMONTHDAY: 'X' is not a whole number"],
    ['FREQ=MONTHLY;BYDAY=XX', 'BYDAY'],
    ['FREQ=WEEKLY;BYDAY=+2FR', 'needs FREQ=MONTHLY or YEARLY'],
    ['FREQ=DAILY;INTERVAL=0', 'INTERVAL must be'],
    ['FREQ=DAILY;BYHOUR=3', 'BYHOUR is not supported'],
    ['FREQ=DAILY;FREQ=WEEKLY', 'FREQ appears twice'],
    ['FREQ', "'FREQ' is not KEY=VALUE"],
  ])('%s is refused (%s)', (input, message) => {
    const result = parseRecurrence(input);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toContain(message);
  });
});
