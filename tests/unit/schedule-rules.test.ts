import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  amountWithin,
  describeRecurrence,
  matchOccurrences,
  occurrencesBetween,
  openStatus,
  patternOf,
  patternRule,
  projectBalances,
  suggestSchedules,
  type CandidateTransaction,
  type HistoryRow,
  type PendingOccurrence,
  type RecurrencePattern,
  type ScheduleRules,
} from '../../src/shared/schedules';

const occurrence = (patch: Partial<PendingOccurrence>): PendingOccurrence => ({
  id: 1,
  scheduleId: 1,
  accountId: 1,
  date: '2025-03-01',
  amount: -120_000,
  toleranceBasisPoints: 0,
  window: 3,
  description: 'ACME PROPERTIES RENT',
  ...patch,
});
const row = (patch: Partial<CandidateTransaction>): CandidateTransaction => ({
  id: 10,
  accountId: 1,
  date: '2025-03-01',
  amount: -120_000,
  description: 'ACME PROPERTIES RENT',
  ...patch,
});

describe('matching expected occurrences', () => {
  it.each([
    ['exact amount, same day', occurrence({}), row({}), true],
    ['within 5 %', occurrence({ toleranceBasisPoints: 500 }), row({ amount: -126_000 }), true],
    ['just over 5 %', occurrence({ toleranceBasisPoints: 500 }), row({ amount: -126_001 }), false],
    ['another account', occurrence({}), row({ accountId: 2 }), false],
    ['the opposite sign', occurrence({ toleranceBasisPoints: 5000 }), row({ amount: 120_000 }), false],
    ['at the window’s edge', occurrence({ window: 3 }), row({ date: '2025-02-26' }), true],
    ['past the window', occurrence({ window: 3 }), row({ date: '2025-03-05' }), false],
    ['window 0, next day', occurrence({ window: 0 }), row({ date: '2025-03-02' }), false],
  ])('%s: matched %s', (_name, o, t, matched) => {
    expect(matchOccurrences([o], [t]).length).toBe(matched ? 1 : 0);
  });

  it('gives a row to one of two identical schedules only, the older one', () => {
    const matches = matchOccurrences(
      [occurrence({ id: 2, scheduleId: 9 }), occurrence({ id: 1, scheduleId: 4 })],
      [row({ id: 10 })],
    );
    expect(matches.map((m) => [m.occurrenceId, m.transactionId])).toEqual([[1, 10]]);
  });

  it('prefers the closest date, then the description that shares more merchant words', () => {
    const o = occurrence({ toleranceBasisPoints: 1000 });
    const rows = [
      row({ id: 1, date: '2025-03-03', description: 'ACME PROPERTIES RENT' }),
      row({ id: 2, date: '2025-03-02', description: 'TOLL ROAD' }),
      row({ id: 3, date: '2025-02-28', description: 'POS ACME PROPERTIES 0231' }),
    ];
    expect(matchOccurrences([o], rows)[0]?.transactionId).toBe(3);
    expect(matchOccurrences([o], rows.slice(0, 2))[0]?.transactionId).toBe(2);
  });

  it('pairs each occurrence and row once, whatever the order they come in (property)', () => {
    const occurrenceArb = fc.record({
      id: fc.integer({ min: 1, max: 30 }),
      scheduleId: fc.integer({ min: 1, max: 5 }),
      day: fc.integer({ min: 1, max: 28 }),
      amount: fc.constantFrom(-1000, -1050, -2000),
    });
    const rowArb = fc.record({
      id: fc.integer({ min: 1, max: 60 }),
      day: fc.integer({ min: 1, max: 28 }),
      amount: fc.constantFrom(-1000, -1040, -2000, 1000),
    });
    fc.assert(
      fc.property(
        fc.uniqueArray(occurrenceArb, { selector: (o) => o.id, maxLength: 12 }),
        fc.uniqueArray(rowArb, { selector: (r) => r.id, maxLength: 20 }),
        (os, rs) => {
          const day = (d: number) => `2025-03-${String(d).padStart(2, '0')}`;
          const pending = os.map((o) => occurrence({ ...o, date: day(o.day), toleranceBasisPoints: 500 }));
          const rows = rs.map((r) => row({ ...r, date: day(r.day) }));
          const matches = matchOccurrences(pending, rows);
          expect(new Set(matches.map((m) => m.occurrenceId)).size).toBe(matches.length);
          expect(new Set(matches.map((m) => m.transactionId)).size).toBe(matches.length);
          for (const m of matches) {
            const o = pending.find((p) => p.id === m.occurrenceId)!;
            const r = rows.find((t) => t.id === m.transactionId)!;
            expect(amountWithin(r.amount, o.amount, o.toleranceBasisPoints)).toBe(true);
            expect(m.distance).toBeLessThanOrEqual(o.window);
          }
          const reversed = matchOccurrences([...pending].reverse(), [...rows].reverse());
          expect(reversed.sort((a, b) => a.occurrenceId - b.occurrenceId)).toEqual(
            matches.sort((a, b) => a.occurrenceId - b.occurrenceId),
          );
        },
      ),
      { numRuns: 200 },
    );
  });
});

const rules = (patch: Partial<ScheduleRules> = {}): ScheduleRules => ({
  recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1',
  startDate: '2025-01-01',
  end: 'never',
  weekendRule: 'none',
  mode: 'expect',
  window: 3,
  amount: -100,
  ...patch,
});

describe('occurrence statuses', () => {
  it.each([
    ['post', '2025-03-01', '2025-02-28', 'upcoming'],
    ['post', '2025-03-01', '2025-03-01', 'due'],
    ['expect', '2025-03-10', '2025-03-06', 'upcoming'],
    ['expect', '2025-03-10', '2025-03-07', 'due'],
    ['expect', '2025-03-10', '2025-03-13', 'due'],
    ['expect', '2025-03-10', '2025-03-14', 'missed'],
  ] as const)('%s on %s seen on %s is %s', (mode, date, today, status) => {
    expect(openStatus(mode, 3, date, today)).toBe(status);
  });

  it('shows stored rows as they are and the rest of the rule as open', () => {
    const list = occurrencesBetween(
      rules(),
      [
        { id: 7, scheduledDate: '2025-02-01', date: '2025-02-01', amount: -100, status: 'matched', transactionId: 3 },
        { id: 8, scheduledDate: '2025-03-01', date: '2025-03-01', amount: -100, status: 'due', transactionId: null },
        // Made by an older rule and posted: still shown; an older rule's skipped row is not.
        { id: 9, scheduledDate: '2025-03-15', date: '2025-03-15', amount: -100, status: 'posted', transactionId: 4 },
        {
          id: 10,
          scheduledDate: '2025-03-20',
          date: '2025-03-20',
          amount: -100,
          status: 'skipped',
          transactionId: null,
        },
      ],
      '2025-01-01',
      '2025-04-30',
      '2025-03-05',
    );
    expect(list.map((o) => [o.date, o.status, o.id])).toEqual([
      ['2025-01-01', 'missed', null],
      ['2025-02-01', 'matched', 7],
      ['2025-03-01', 'missed', 8],
      ['2025-03-15', 'posted', 9],
      ['2025-04-01', 'upcoming', null],
    ]);
  });
});

describe('projected balances', () => {
  it('adds each account’s occurrences and later stored rows in date order', () => {
    const items = [
      { accountId: 1, date: '2025-03-05', amount: -100 },
      { accountId: 2, date: '2025-03-06', amount: 50 },
      { accountId: 1, date: '2025-03-10', amount: 300 },
    ];
    const later = [
      { accountId: 1, date: '2025-03-07', amount: -20 },
      { accountId: 1, date: '2025-03-30', amount: -999 },
    ];
    expect(
      projectBalances(
        items,
        new Map([
          [1, 1000],
          [2, 0],
        ]),
        later,
      ).map((i) => i.projectedBalance),
    ).toEqual([900, 50, 1180]);
  });
});

describe('recurrence patterns', () => {
  const patterns: [RecurrencePattern, string, string][] = [
    [{ kind: 'days', every: 1 }, 'FREQ=DAILY', 'Every day'],
    [{ kind: 'days', every: 10 }, 'FREQ=DAILY;INTERVAL=10', 'Every 10 days'],
    [
      { kind: 'weeks', every: 2, weekdays: ['FR', 'MO'] },
      'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR',
      'Every 2 weeks on Monday, Friday',
    ],
    [
      { kind: 'monthDay', every: 1, day: 31 },
      'FREQ=MONTHLY;BYMONTHDAY=31',
      'Every month on the 31st (or the last day)',
    ],
    [
      { kind: 'monthDay', every: 3, day: -1 },
      'FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=-1',
      'Every 3 months on the last day',
    ],
    [
      { kind: 'nthWeekday', every: 1, nth: 2, weekday: 'TU' },
      'FREQ=MONTHLY;BYDAY=2TU',
      'Every month on the 2nd Tuesday',
    ],
    [
      { kind: 'nthWeekday', every: 1, nth: -1, weekday: 'FR' },
      'FREQ=MONTHLY;BYDAY=-1FR',
      'Every month on the last Friday',
    ],
    [{ kind: 'yearly', month: 2, day: 29 }, 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', 'Every year on February 29'],
  ];
  it.each(patterns)('%o is %s (%s) and reads back', (pattern, rule, words) => {
    expect(patternRule(pattern)).toBe(rule);
    expect(describeRecurrence(rule)).toBe(words);
    const back = patternOf(rule);
    expect(patternRule(back)).toBe(rule);
  });

  it('keeps any other rule as custom text', () => {
    expect(patternOf('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1')).toEqual({
      kind: 'custom',
      rule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
    });
  });
});

describe('schedules found in history', () => {
  const monthly = (description: string, amounts: number[], day = 5, accountId = 1): HistoryRow[] =>
    amounts.map((amount, i) => ({
      accountId,
      account: 'Checking',
      date: `2025-${String(i + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`,
      amount,
      description: `${description} ${i}${i}77`,
    }));

  it('proposes a monthly payment with a stable amount, its range and the next date', () => {
    const [found, ...rest] = suggestSchedules(monthly('NETFLIX.COM', [-1599, -1599, -1649, -1599]), '2025-04-20');
    expect(rest).toEqual([]);
    expect(found).toMatchObject({
      interval: 'monthly',
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=5',
      amount: -1599,
      amountRange: { min: -1649, max: -1599 },
      occurrences: 4,
      lastDate: '2025-04-05',
      nextDate: '2025-05-05',
    });
  });

  it.each([
    ['fewer than three rows', monthly('SPOTIFY', [-999, -999]), '2025-02-20'],
    ['an amount that wanders', monthly('ELECTRIC CO', [-4000, -9000, -2500, -7000]), '2025-04-20'],
    ['a pattern that stopped', monthly('GYM', [-3000, -3000, -3000]), '2025-09-01'],
    ['an existing schedule’s merchant', monthly('NETFLIX.COM', [-1599, -1599, -1599]), '2025-03-20'],
  ])('proposes nothing for %s', (_name, rows, today) => {
    expect(suggestSchedules(rows, today, new Set(['1:netflix']))).toEqual([]);
  });

  it('finds a weekly and a two-weekly rhythm', () => {
    const weekly = [3, 10, 17, 24].map((d) => ({
      accountId: 1,
      account: 'Checking',
      date: `2025-03-${String(d).padStart(2, '0')}`,
      amount: -500,
      description: 'CAFE LUNA',
    }));
    const payday = ['2025-02-14', '2025-02-28', '2025-03-14'].map((date) => ({
      accountId: 1,
      account: 'Checking',
      date,
      amount: 250_000,
      description: 'ACME PAYROLL',
    }));
    const found = suggestSchedules([...weekly, ...payday], '2025-03-25');
    expect(found.map((s) => [s.name, s.interval, s.recurrence, s.nextDate])).toEqual([
      ['Cafe Luna', 'weekly', 'FREQ=WEEKLY;BYDAY=MO', '2025-03-31'],
      ['Acme Payroll', 'every 2 weeks', 'FREQ=WEEKLY;INTERVAL=2;BYDAY=FR', '2025-03-28'],
    ]);
  });
});
