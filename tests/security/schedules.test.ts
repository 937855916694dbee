import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Schedules as an attack surface: a start date centuries back (which would post or store a row
 * for every past date at once) and rule texts built to make the expansion run away are refused
 * with a 400 that names the field, and change nothing.
 */
let server: TestServer;
let user: ApiUser;
beforeAll(async () => {
  server = await startServer({ CLOCK_TODAY: '2026-03-10' });
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
});
afterAll(async () => {
  await server.close();
});

const base = { name: 'x', account: 'Checking', description: 'x', amount: -100, recurrence: 'FREQ=DAILY' };

async function nothingStored(): Promise<void> {
  const [schedules] = await server.sql<{ n: number | string }>('select count(*) as n from schedule');
  const [rows] = await server.sql<{ n: number | string }>('select count(*) as n from "transaction"');
  expect([Number(schedules?.n), Number(rows?.n)]).toEqual([0, 0]);
}

describe('schedules refuse what would flood the database or the expansion', () => {
  it.each(['post', 'expect'])(
    'refuses a %s schedule that would bring thousands of past dates due at once',
    async (mode) => {
      const res = await user.post('/api/schedules', { ...base, mode, startDate: '1000-01-01' });
      expect(res.status).toBe(400);
      expect(res.body.error).toMatch(
        /^startDate: the schedule would bring \d+ past occurrences due at once \(at most 1000\)/,
      );
      await nothingStored();
    },
  );

  it('refuses moving an existing schedule’s start back centuries, and keeps it as it was', async () => {
    const schedule = ok(await user.post('/api/schedules', { ...base, startDate: '2026-04-01' }));
    const res = await user.put(`/api/schedules/${schedule.id}`, { startDate: '1500-01-01' });
    expect(res.status).toBe(400);
    expect(ok(await user.get(`/api/schedules/${schedule.id}`)).startDate).toBe('2026-04-01');
    ok(await user.del(`/api/schedules/${schedule.id}`));
    await nothingStored();
  });

  it.each([
    ['FREQ=SECONDLY', 'FREQ must be one of'],
    ['FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23', 'BYHOUR is not supported'],
    ['FREQ=DAILY;INTERVAL=99999999', 'INTERVAL must be'],
    [`FREQ=YEARLY;BYMONTHDAY=${'1,'.repeat(300)}1`, 'Recurrence must be at most 500 characters'],
    ['FREQ=DAILY\u0000', 'control characters'],
  ])('refuses the rule %s', async (recurrence, message) => {
    const res = await user.post('/api/schedules', { ...base, recurrence, startDate: '2026-03-01' });
    expect(res.status).toBe(400);
    expect(res.body.error).toContain(message);
    await nothingStored();
  });
});
