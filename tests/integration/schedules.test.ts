import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Scheduled transactions on a real server (SQLite in `node`, PostgreSQL in `integration-pg`), over
 * REST and tRPC, with a clock the test moves: posting every due date once, matching imported and
 * entered rows, missed occurrences, skipping and posting early, the upcoming list and suggestions.
 */
let server: TestServer;
let today = '2025-03-10';
const clock = { today: () => today };

beforeAll(async () => {
  server = await startServer({}, { clock });
});
afterAll(async () => {
  await server.close();
});

/** One run of the hourly job for the clock's day, as the server would run it. */
async function runJob(): Promise<void> {
  server.app.scheduleJob.runNow();
  await server.app.scheduleJob.idle();
}

async function userWithAccounts(): Promise<ApiUser> {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking', balance: 100_000 }));
  ok(await user.post('/api/accounts', { name: 'Savings', type: 'savings' }));
  return user;
}

function upload(user: ApiUser, csv: string, account = 'Checking') {
  const body = new FormData();
  body.append('file', new Blob([csv]), 'statement.csv');
  body.append('account', account);
  body.append('transactionType', 'auto');
  return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
}

type Tx = {
  id: number;
  postDate: string;
  description: string;
  amount: number;
  account: string;
  category: string | null;
};
async function transactions(user: ApiUser): Promise<Tx[]> {
  return ok(await user.get<Tx[]>('/api/transactions?start_date=2000-01-01&end_date=2100-01-01')).sort((a, b) =>
    a.postDate < b.postDate ? -1 : a.postDate > b.postDate ? 1 : a.id - b.id,
  );
}

type Occurrence = {
  id: number | null;
  scheduleId: number;
  date: string;
  scheduledDate: string;
  status: string;
  transactionId: number | null;
  amount: number;
};
async function occurrences(user: ApiUser, from: string, to: string): Promise<Occurrence[]> {
  return ok(await user.get<Occurrence[]>(`/api/schedules/occurrences?start_date=${from}&end_date=${to}`));
}

const rent = {
  name: 'Rent',
  account: 'Checking',
  description: 'ACME PROPERTIES RENT',
  amount: -120_000,
  recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1',
  startDate: '2025-01-01',
};

describe('posting schedules', () => {
  it('posts every due date up to today exactly once, the first occurrence included, and catches up later', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    const created = ok(
      await user.post('/api/schedules', {
        ...rent,
        name: 'Gym',
        description: 'Gym membership',
        amount: -4_500,
        category: 'Fitness',
        recurrence: 'FREQ=WEEKLY;BYDAY=MO',
        startDate: '2025-03-03',
      }),
    );
    expect(created).toMatchObject({
      mode: 'post',
      window: 3,
      weekendRule: 'none',
      end: 'never',
      nextDate: '2025-03-17',
    });
    // The start date (a Monday) and the Monday after, each once.
    expect((await transactions(user)).map((t) => [t.postDate, t.amount, t.category])).toEqual([
      ['2025-03-03', -4_500, 'Fitness'],
      ['2025-03-10', -4_500, 'Fitness'],
    ]);
    // Ten days with no run: the next run posts both Mondays it missed, and a second run posts nothing more.
    today = '2025-03-25';
    await runJob();
    await runJob();
    expect((await transactions(user)).map((t) => t.postDate)).toEqual([
      '2025-03-03',
      '2025-03-10',
      '2025-03-17',
      '2025-03-24',
    ]);
    const stored = await occurrences(user, '2025-03-01', '2025-03-31');
    expect(stored.map((o) => [o.date, o.status])).toEqual([
      ['2025-03-03', 'posted'],
      ['2025-03-10', 'posted'],
      ['2025-03-17', 'posted'],
      ['2025-03-24', 'posted'],
      ['2025-03-31', 'upcoming'],
    ]);
    expect(stored.filter((o) => o.transactionId !== null)).toHaveLength(4);
  });

  it('posts the 31st on the last day of shorter months and moves weekend dates', async () => {
    today = '2025-06-30';
    const user = await userWithAccounts();
    ok(
      await user.post('/api/schedules', {
        ...rent,
        name: 'Salary',
        description: 'Salary',
        amount: 300_000,
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=31',
        weekendRule: 'before',
        startDate: '2025-01-31',
      }),
    );
    // Feb 28 2025 is a Friday, May 31 a Saturday (moved to Friday 30th).
    expect((await transactions(user)).map((t) => t.postDate)).toEqual([
      '2025-01-31',
      '2025-02-28',
      '2025-03-31',
      '2025-04-30',
      '2025-05-30',
      '2025-06-30',
    ]);
  });

  it('skips the next occurrence and posts one early, dated today', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    const schedule = ok(await user.post('/api/schedules', { ...rent, startDate: '2025-04-01' }));
    const skipped = ok(await user.post(`/api/schedules/${schedule.id}/skip`));
    expect(skipped).toMatchObject({ scheduledDate: '2025-04-01', status: 'skipped', transactionId: null });
    expect(ok(await user.get(`/api/schedules/${schedule.id}`)).nextDate).toBe('2025-05-01');
    const early = ok(await user.post(`/api/schedules/${schedule.id}/post-now`));
    expect(early).toMatchObject({ scheduledDate: '2025-05-01', status: 'posted' });
    expect((await transactions(user)).map((t) => [t.id, t.postDate, t.amount])).toEqual([
      [early.transactionId, '2025-03-10', -120_000],
    ]);
    // Neither is posted again when its day comes.
    today = '2025-05-02';
    await runJob();
    expect((await transactions(user)).map((t) => t.postDate)).toEqual(['2025-03-10']);
    expect((await user.post(`/api/schedules/${schedule.id}/skip?date=2025-04-01`)).status).toBe(409);
    expect((await user.post(`/api/schedules/${schedule.id}/skip?date=2025-04-02`)).status).toBe(404);
  });
});

describe('expected schedules', () => {
  it('match an imported rent within the tolerance, and a second identical schedule does not take it', async () => {
    today = '2025-03-02';
    const user = await userWithAccounts();
    const first = ok(
      await user.post('/api/schedules', { ...rent, mode: 'expect', amountTolerance: 5, startDate: '2025-03-01' }),
    );
    const second = ok(
      await user.post('/api/schedules', {
        ...rent,
        name: 'Rent again',
        mode: 'expect',
        amountTolerance: 5,
        startDate: '2025-03-01',
      }),
    );
    // A decoy of the same amount in the other account, and one too far off in amount.
    ok(
      await upload(
        user,
        'Date,Description,Amount\n2025-03-02,ACME PROPERTIES RENT MAR,-1230.00\n2025-03-01,ACME PROPERTIES DEPOSIT,-1400.00\n',
      ),
    );
    ok(await upload(user, 'Date,Description,Amount\n2025-03-01,ACME PROPERTIES RENT,-1200.00\n', 'Savings'));
    const rows = await transactions(user);
    const paid = rows.find((t) => t.amount === -123_000 && t.account === 'Checking');
    const march = await occurrences(user, '2025-03-01', '2025-03-01');
    expect(march.map((o) => [o.scheduleId, o.status, o.transactionId])).toEqual([
      [first.id, 'matched', paid?.id],
      [second.id, 'due', null],
    ]);
    // Nothing was created: matching only links.
    expect(rows).toHaveLength(3);
    // Past its window without a row of its own, the second one is missed and counted.
    today = '2025-03-05';
    await runJob();
    const after = await occurrences(user, '2025-03-01', '2025-03-01');
    expect(after.map((o) => o.status)).toEqual(['matched', 'missed']);
    expect(ok(await user.get(`/api/schedules/${second.id}`)).missed).toBe(1);
    expect(ok(await user.get(`/api/schedules/${first.id}`)).missed).toBe(0);
  });

  it('match a transaction entered by hand, the closest in date first, and a late row still pays a missed occurrence', async () => {
    today = '2025-03-04';
    const user = await userWithAccounts();
    const phone = ok(
      await user.post('/api/schedules', {
        ...rent,
        name: 'Phone',
        description: 'Telco mobile bill',
        amount: -3_999,
        mode: 'expect',
        window: 2,
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=3',
        startDate: '2025-02-03',
      }),
    );
    // February's passed its window: missed. March's is due.
    expect((await occurrences(user, '2025-02-01', '2025-04-30')).map((o) => o.status)).toEqual([
      'missed',
      'due',
      'upcoming',
    ]);
    const late = ok(
      await user.post('/api/transactions', {
        postDate: '2025-02-04',
        description: 'TELCO MOBILE',
        amount: -3_999,
        account: 'Checking',
      }),
    );
    const near = ok(
      await user.post('/api/transactions', {
        postDate: '2025-03-03',
        description: 'Telco',
        amount: -3_999,
        account: 'Checking',
      }),
    );
    const list = await occurrences(user, '2025-02-01', '2025-04-30');
    expect(list.map((o) => [o.date, o.status, o.transactionId])).toEqual([
      ['2025-02-03', 'matched', late.id],
      ['2025-03-03', 'matched', near.id],
      ['2025-04-03', 'upcoming', null],
    ]);
    expect(ok(await user.get(`/api/schedules/${phone.id}`)).missed).toBe(0);
    // A matched row deleted later leaves its occurrence open again (missed, past its window).
    ok(await user.del(`/api/transactions/${late.id}`));
    await runJob();
    expect((await occurrences(user, '2025-02-01', '2025-02-28')).map((o) => [o.status, o.transactionId])).toEqual([
      ['missed', null],
    ]);
  });
});

describe('a matched row that changes', () => {
  it('no longer pays its occurrence once moved to another account or edited out of the tolerance', async () => {
    today = '2025-03-04';
    const user = await userWithAccounts();
    ok(
      await user.post('/api/schedules', {
        ...rent,
        name: 'Gym',
        description: 'City gym',
        amount: -5_000,
        amountTolerance: 10,
        mode: 'expect',
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=2',
        startDate: '2025-02-02',
      }),
    );
    const feb = ok(
      await user.post<Tx>('/api/transactions', {
        postDate: '2025-02-02',
        description: 'CITY GYM',
        amount: -5_200,
        account: 'Checking',
      }),
    );
    const mar = ok(
      await user.post<Tx>('/api/transactions', {
        postDate: '2025-03-02',
        description: 'CITY GYM',
        amount: -5_000,
        account: 'Checking',
      }),
    );
    expect((await occurrences(user, '2025-02-01', '2025-03-31')).map((o) => [o.status, o.transactionId])).toEqual([
      ['matched', feb.id],
      ['matched', mar.id],
    ]);
    ok(await user.put(`/api/transactions/${feb.id}`, { amount: -9_000 }));
    ok(await user.put('/api/transactions/bulk', { transactionIds: [mar.id], updates: { account: 'Savings' } }));
    await runJob();
    expect((await occurrences(user, '2025-02-01', '2025-03-31')).map((o) => [o.status, o.transactionId])).toEqual([
      ['missed', null],
      ['due', null],
    ]);
    // Edited back within the tolerance, the February row pays its occurrence again.
    ok(await user.put(`/api/transactions/${feb.id}`, { amount: -4_800 }));
    await runJob();
    expect((await occurrences(user, '2025-02-01', '2025-02-28')).map((o) => [o.status, o.transactionId])).toEqual([
      ['matched', feb.id],
    ]);
    // A change of the schedule itself leaves what it matched as it is.
    const [gym] = ok(await user.get<{ id: number }[]>('/api/schedules'));
    ok(await user.put(`/api/schedules/${gym.id}`, { amountTolerance: 0, account: 'Savings' }));
    await runJob();
    expect((await occurrences(user, '2025-02-01', '2025-02-28')).map((o) => [o.status, o.transactionId])).toEqual([
      ['matched', feb.id],
    ]);
  });
});

describe('what is coming', () => {
  it('lists upcoming occurrences with the projected balance of their account after each', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    ok(await user.post('/api/schedules', { ...rent, startDate: '2025-04-01' }));
    ok(
      await user.post('/api/schedules', {
        ...rent,
        name: 'Pay',
        description: 'Salary',
        amount: 250_000,
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=25',
        startDate: '2025-03-25',
      }),
    );
    ok(
      await user.post('/api/schedules', {
        ...rent,
        name: 'Save',
        account: 'Savings',
        description: 'Savings plan',
        amount: 10_000,
        startDate: '2025-04-01',
      }),
    );
    // A row dated ahead counts in the projection on its own day.
    ok(
      await user.post('/api/transactions', {
        postDate: '2025-03-28',
        description: 'Future cheque',
        amount: -5_000,
        account: 'Checking',
      }),
    );
    const upcoming = ok(await user.get('/api/schedules/upcoming?days=30'));
    expect(upcoming).toMatchObject({ startDate: '2025-03-10', endDate: '2025-04-09' });
    expect(upcoming.occurrences.map((o: any) => [o.date, o.account, o.amount, o.projectedBalance])).toEqual([
      ['2025-03-25', 'Checking', 250_000, 100_000 + 250_000],
      ['2025-04-01', 'Checking', -120_000, 100_000 + 250_000 - 5_000 - 120_000],
      ['2025-04-01', 'Savings', 10_000, 10_000],
    ]);
    const checking = ok(await user.get('/api/accounts')).find((a: any) => a.name === 'Checking');
    const one = ok(await user.get(`/api/schedules/upcoming?days=90&account_id=${checking.id}`));
    expect(one.occurrences.every((o: any) => o.account === 'Checking')).toBe(true);
    expect(one.occurrences.map((o: any) => o.date)).toEqual([
      '2025-03-25',
      '2025-04-01',
      '2025-04-25',
      '2025-05-01',
      '2025-05-25',
      '2025-06-01',
    ]);
    expect((await user.get('/api/schedules/upcoming?days=0')).status).toBe(400);
    expect((await user.get('/api/schedules/upcoming?days=abc')).body.error).toContain('days');
  });
});

describe('finding schedules in history', () => {
  it('suggests a regular payment with a stable amount, and one click creates it', async () => {
    today = '2025-06-10';
    const user = await userWithAccounts();
    const lines = ['Date,Description,Amount'];
    for (const [month, amount] of [
      ['01', '-15.99'],
      ['02', '-15.99'],
      ['03', '-16.49'],
      ['04', '-15.99'],
      ['05', '-15.99'],
      ['06', '-15.99'],
    ])
      lines.push(`2025-${month}-05,NETFLIX.COM ${month}${month}77 CA,${amount}`);
    for (const [date, amount] of [
      ['2025-02-11', '-42.10'],
      ['2025-04-02', '-8.00'],
      ['2025-05-20', '-61.30'],
    ])
      lines.push(`${date},GREEN BASKET,${amount}`);
    ok(await upload(user, `${lines.join('\n')}\n`));
    const suggestions = ok(await user.get('/api/schedules/suggestions'));
    expect(suggestions).toHaveLength(1);
    const [netflix] = suggestions;
    expect(netflix).toMatchObject({
      account: 'Checking',
      amount: -1_599,
      amountRange: { min: -1_649, max: -1_599 },
      interval: 'monthly',
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=5',
      occurrences: 6,
      nextDate: '2025-07-05',
    });
    const created = data(
      await user.trpc.schedules.create.mutate({
        name: netflix.name,
        account: netflix.accountId,
        description: netflix.description,
        amount: netflix.amount,
        amountTolerance: netflix.amountTolerance,
        recurrence: netflix.recurrence,
        mode: 'expect',
        startDate: netflix.nextDate,
      }),
    );
    expect(created.nextDate).toBe('2025-07-05');
    expect(ok(await user.get('/api/schedules/suggestions'))).toEqual([]);
  });
});

describe('the schedules API', () => {
  it('states the account’s currency beside every amount: schedules, occurrences, upcoming and suggestions', async () => {
    today = '2025-03-10';
    const user = await signUp(server.url);
    ok(await user.post('/api/accounts', { name: 'Yen', type: 'checking', currency: 'JPY' }));
    for (const postDate of ['2024-12-20', '2025-01-20', '2025-02-20'])
      ok(await user.post('/api/transactions', { account: 'Yen', postDate, description: 'TOKYO GAS', amount: -8000 }));
    const [suggested] = ok(await user.get<{ amount: number; currency: string }[]>('/api/schedules/suggestions'));
    expect(suggested).toMatchObject({ amount: -8000, currency: 'JPY' });
    ok(
      await user.post('/api/schedules', {
        name: 'Rent',
        account: 'Yen',
        description: 'RENT',
        amount: -90000,
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=25',
        startDate: '2025-03-25',
      }),
    );
    expect(ok(await user.get('/api/schedules'))).toEqual([expect.objectContaining({ currency: 'JPY' })]);
    const ahead = await occurrences(user, '2025-03-01', '2025-04-30');
    expect(ahead.map((o) => [o.date, o.amount, (o as Occurrence & { currency: string }).currency])).toEqual([
      ['2025-03-25', -90000, 'JPY'],
      ['2025-04-25', -90000, 'JPY'],
    ]);
    const upcoming = ok(await user.get<{ occurrences: { currency: string }[] }>('/api/schedules/upcoming?days=30'));
    expect(upcoming.occurrences).toEqual([expect.objectContaining({ currency: 'JPY' })]);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const user = await userWithAccounts();
    const bad: [Record<string, unknown>, string][] = [
      [{ recurrence: 'FREQ=HOURLY' }, 'recurrence: FREQ must be one of'],
      [{ recurrence: 'FREQ=MONTHLY;COUNT=2' }, 'COUNT is set by the schedule’s end'],
      [{ amount: 0 }, 'amount: must not be 0'],
      [{ amountTolerance: 51 }, 'amountTolerance: must be from 0 to 50'],
      [{ window: 11 }, 'window: must be from 0 to 10'],
      [{ mode: 'auto' }, 'mode: must be one of post, expect'],
      [{ weekendRule: 'sometimes' }, 'weekendRule'],
      [{ startDate: '2025-02-30' }, 'startDate: is not a real calendar date'],
      [{ end: { until: '2024-12-31' } }, 'end: The end date must not be before the start date'],
      [{ end: { after: 0 } }, 'end'],
      [{ extra: 1 }, 'extra'],
    ];
    for (const [patch, message] of bad) {
      const res = await user.post('/api/schedules', { ...rent, ...patch });
      expect(res.status, JSON.stringify(patch)).toBe(400);
      expect(res.body.error, JSON.stringify(patch)).toContain(message);
    }
    expect((await user.post('/api/schedules', { ...rent, account: 'Nope' })).status).toBe(404);
    expect(ok(await user.get('/api/schedules'))).toEqual([]);
    expect(await transactions(user)).toEqual([]);
  });

  it('mirrors REST in tRPC: create, update, list, skip, post now, delete', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    const created = data(
      await user.trpc.schedules.create.mutate({ ...rent, startDate: '2025-04-01', amountTolerance: 2.5 }),
    );
    expect(ok(await user.get(`/api/schedules/${created.id}`))).toEqual(created);
    expect(created).toMatchObject({
      amountTolerance: 2.5,
      recurrenceText: 'Every month on the 1st',
      nextDate: '2025-04-01',
    });
    const updated = ok(
      await user.put(`/api/schedules/${created.id}`, {
        recurrence: 'FREQ=MONTHLY;BYMONTHDAY=31',
        startDate: '2025-03-31',
      }),
    );
    expect(updated).toMatchObject({
      recurrence: 'FREQ=MONTHLY;BYMONTHDAY=31',
      nextDate: '2025-03-31',
      recurrenceText: 'Every month on the 31st (or the last day)',
    });
    expect(data(await user.trpc.schedules.list.query())).toEqual([updated]);
    expect(data(await user.trpc.schedules.skip.mutate({ id: created.id }))).toMatchObject({
      date: '2025-03-31',
      status: 'skipped',
    });
    expect(data(await user.trpc.schedules.postNow.mutate({ id: created.id }))).toMatchObject({
      date: '2025-04-30',
      status: 'posted',
    });
    expect(data(await user.trpc.schedules.upcoming.query({ days: 40 })).occurrences).toEqual([]);
    expect(ok(await user.del(`/api/schedules/${created.id}`)).message).toContain('deleted');
    expect((await user.get(`/api/schedules/${created.id}`)).status).toBe(404);
    // The posted transaction stays.
    expect(await transactions(user)).toHaveLength(1);
  });

  it('carries schedules and their occurrences through export and restore', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    const schedule = ok(await user.post('/api/schedules', { ...rent, category: 'Housing', startDate: '2025-02-01' }));
    ok(await user.post(`/api/schedules/${schedule.id}/skip`));
    const exported = ok(await user.get('/api/export'));
    expect(exported.schedules).toHaveLength(1);
    expect(exported.schedules[0].occurrences.map((o: any) => [o.scheduledDate, o.status])).toEqual([
      ['2025-02-01', 'posted'],
      ['2025-03-01', 'posted'],
      ['2025-04-01', 'skipped'],
    ]);
    const other = await signUp(server.url);
    ok(await other.post('/api/import', exported));
    const [restored] = ok(await other.get('/api/schedules'));
    expect({ ...restored, id: 0, accountId: 0 }).toEqual({ ...schedule, id: 0, accountId: 0, nextDate: '2025-05-01' });
    const restoredRows = await occurrences(other, '2025-02-01', '2025-04-30');
    const restoredTransactions = await transactions(other);
    expect(restoredRows.map((o) => [o.date, o.status])).toEqual([
      ['2025-02-01', 'posted'],
      ['2025-03-01', 'posted'],
      ['2025-04-01', 'skipped'],
    ]);
    expect(restoredRows.slice(0, 2).map((o) => o.transactionId)).toEqual(restoredTransactions.map((t) => t.id));
    // Restored occurrences are not posted again.
    await runJob();
    expect(await transactions(other)).toHaveLength(2);
  });
});
