import { describe, expect, it } from 'vitest';
import { draftRule, readDraft, toDraft, type ScheduleDraft } from '../../src/client/features/schedules/scheduleForm';
import type { ScheduleDto } from '../../src/shared/schedules';

const defaults = { today: '2025-03-31', account: 'Checking', locale: 'en-US' };

describe('the schedule form', () => {
  it('starts monthly on today’s day from today', () => {
    const draft = toDraft(null, defaults);
    expect(draftRule(draft)).toBe('FREQ=MONTHLY;BYMONTHDAY=31');
    expect(draft).toMatchObject({ startDate: '2025-03-31', account: 'Checking', mode: 'post', window: '3' });
  });

  it.each<[Partial<ScheduleDraft>, string]>([
    [{ kind: 'days', every: '10' }, 'FREQ=DAILY;INTERVAL=10'],
    [{ kind: 'weeks', every: '2', weekdays: ['FR', 'MO'] }, 'FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,FR'],
    [{ kind: 'monthDay', every: '1', monthDay: '-1' }, 'FREQ=MONTHLY;BYMONTHDAY=-1'],
    [{ kind: 'nthWeekday', every: '1', nth: '-1', weekday: 'FR' }, 'FREQ=MONTHLY;BYDAY=-1FR'],
    [{ kind: 'yearly', month: '2', monthDay: '29' }, 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29'],
    [
      { kind: 'custom', rule: 'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1' },
      'FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1',
    ],
  ])('%o makes %s', (patch, rule) => {
    expect(draftRule({ ...toDraft(null, defaults), ...patch })).toBe(rule);
  });

  it('reads a filled draft into the input, and names the first field to fix', () => {
    const draft = {
      ...toDraft(null, defaults),
      name: ' Rent ',
      description: 'ACME RENT',
      amount: '-1,200.50',
      mode: 'expect' as const,
      tolerance: '2.5',
    };
    expect(readDraft(draft, 'en-US')).toEqual({
      ok: true,
      input: {
        name: 'Rent',
        account: 'Checking',
        description: 'ACME RENT',
        amount: -120_050,
        amountTolerance: 2.5,
        category: null,
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=31',
        weekendRule: 'none',
        mode: 'expect',
        window: 3,
        startDate: '2025-03-31',
        end: 'never',
      },
    });
    expect(readDraft({ ...draft, name: '' }, 'en-US')).toMatchObject({ ok: false, field: 'name' });
    expect(readDraft({ ...draft, amount: 'abc' }, 'en-US')).toMatchObject({ ok: false, field: 'amount' });
    expect(readDraft({ ...draft, endKind: 'after', endAfter: '0' }, 'en-US')).toMatchObject({
      ok: false,
      field: 'end',
    });
  });

  it('opens a schedule with its own values and pattern', () => {
    const schedule: ScheduleDto = {
      id: 1,
      name: 'Pay',
      account: 'Checking',
      accountId: 1,
      description: 'ACME PAYROLL',
      amount: 250_000,
      currency: 'USD',
      amountTolerance: 0,
      category: 'Salary',
      recurrence: 'FREQ=MONTHLY;BYDAY=-1FR',
      recurrenceText: 'Every month on the last Friday',
      weekendRule: 'none',
      mode: 'expect',
      window: 2,
      startDate: '2025-01-31',
      end: { after: 12 },
      nextDate: '2025-04-25',
      missed: 0,
    };
    const draft = toDraft(schedule, defaults);
    expect(draft).toMatchObject({
      kind: 'nthWeekday',
      nth: '-1',
      weekday: 'FR',
      amount: '2,500.00',
      endKind: 'after',
      endAfter: '12',
    });
    expect(readDraft(draft, 'en-US')).toMatchObject({
      ok: true,
      input: { recurrence: schedule.recurrence, end: { after: 12 }, category: 'Salary' },
    });
  });

  it.each<[string, number, string, number]>([
    ['JPY', 150_000, '150,000', 150_000],
    ['BHD', 1_250_500, '1,250.500', 1_250_500],
    ['EUR', 120_050, '1,200.50', 120_050],
  ])('shows and reads a %s schedule in its decimals', (currency, stored, shown, read) => {
    const schedule = { ...toDraft(null, defaults), name: 'Rent', description: 'RENT', amount: shown };
    expect(readDraft(schedule, 'en-US', currency)).toMatchObject({ ok: true, input: { amount: read } });
    const opened = toDraft(
      {
        id: 1,
        name: 'Rent',
        account: 'Checking',
        accountId: 1,
        description: 'RENT',
        amount: stored,
        currency,
        amountTolerance: 0,
        category: null,
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1',
        recurrenceText: 'Every month on the 1st',
        weekendRule: 'none',
        mode: 'post',
        window: 3,
        startDate: '2025-01-01',
        end: 'never',
        nextDate: '2025-04-01',
        missed: 0,
      },
      { ...defaults, currency },
    );
    expect(opened.amount).toBe(shown);
  });

  it("asks for the amount in the currency's decimals", () => {
    const draft = { ...toDraft(null, defaults), name: 'Rent', description: 'RENT', amount: '' };
    expect(readDraft(draft, 'en-US', 'JPY')).toMatchObject({ ok: false, message: expect.stringContaining('-1200)') });
    expect(readDraft(draft, 'en-US', 'KWD')).toMatchObject({
      ok: false,
      message: expect.stringContaining('-1200.000)'),
    });
  });
});
