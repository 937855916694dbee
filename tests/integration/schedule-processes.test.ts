import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, type ScratchDatabase } from '../../src/server/db/pg-scratch';
import { addDays, toDayNumber } from '../../src/shared/dates/calendar';
import { ok } from '../helpers/api';
import { registerUser, rest } from '../helpers/http';
import { spawnServer, type ServerProcess } from '../helpers/process';
import { pgAdminUrl, testDatabase } from '../helpers/server';

/**
 * Posting schedules across real server processes on one database: a server stopped for days posts
 * every date it missed once when it starts again, and two servers on one PostgreSQL database that
 * start together post each occurrence once. The day is pinned with CLOCK_TODAY.
 */
let dataDir = '';
let scratch: ScratchDatabase | null = null;
const running: ServerProcess[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop()));
  await scratch?.drop();
  scratch = null;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function prepare(): Promise<void> {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-sched-'));
  if (testDatabase === 'postgresql') scratch = await createScratchDatabase('bt_sched', pgAdminUrl);
}

function start(today: string): ServerProcess {
  const server = spawnServer({
    DATA_DIR: dataDir,
    CLOCK_TODAY: today,
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
  });
  running.push(server);
  return server;
}

/** Resolves once the server's run at start has finished (it logs it). */
async function startRunDone(server: ServerProcess): Promise<void> {
  await expect.poll(() => /schedules run/.test(stdoutOf(server)), { timeout: 60_000 }).toBe(true);
}

const outputs = new WeakMap<ServerProcess, string>();
function stdoutOf(server: ServerProcess): string {
  return outputs.get(server) ?? '';
}
function capture(server: ServerProcess): ServerProcess {
  server.child.stdout?.on('data', (chunk: Buffer) => outputs.set(server, stdoutOf(server) + chunk.toString()));
  return server;
}

async function postDates(url: string, token: string): Promise<string[]> {
  const rows = ok(
    await rest<{ postDate: string }[]>(url, 'GET', '/api/transactions?start_date=2000-01-01&end_date=2100-01-01', {
      token,
    }),
  );
  return rows.map((row) => row.postDate).sort();
}

function daysFrom(first: string, last: string): string[] {
  return Array.from({ length: toDayNumber(last) - toDayNumber(first) + 1 }, (_, i) => addDays(first, i));
}

async function userWithSchedule(url: string, startDate: string): Promise<string> {
  const { accessToken: token } = await registerUser(url);
  ok(await rest(url, 'POST', '/api/accounts', { token, body: { name: 'Checking', type: 'checking' } }));
  ok(
    await rest(url, 'POST', '/api/schedules', {
      token,
      body: {
        name: 'Coffee',
        account: 'Checking',
        description: 'Coffee club',
        amount: -350,
        recurrence: 'FREQ=DAILY',
        startDate,
      },
    }),
  );
  return token;
}

describe('a posting schedule across server processes', () => {
  it('posts every date missed while the server was stopped for 10 days once, after a real restart', async () => {
    await prepare();
    const first = capture(start('2026-03-01'));
    const url = await first.url;
    const token = await userWithSchedule(url, '2026-03-01');
    expect(await postDates(url, token)).toEqual(['2026-03-01']);
    await first.stop();

    const second = capture(start('2026-03-11'));
    const secondUrl = await second.url;
    await startRunDone(second);
    expect(await postDates(secondUrl, token)).toEqual(daysFrom('2026-03-01', '2026-03-11'));
    await second.stop();

    // Started again a day later: only the new day is posted.
    const third = capture(start('2026-03-12'));
    const thirdUrl = await third.url;
    await startRunDone(third);
    expect(await postDates(thirdUrl, token)).toEqual(daysFrom('2026-03-01', '2026-03-12'));
  }, 180_000);

  it.runIf(testDatabase === 'postgresql')(
    'posts each occurrence once when two servers on one PostgreSQL database run it at the same time',
    async () => {
      await prepare();
      const setup = capture(start('2026-01-01'));
      const setupUrl = await setup.url;
      const token = await userWithSchedule(setupUrl, '2026-01-01');
      await setup.stop();
      // Both start on a day 99 occurrences later, and both runs at start find them due.
      const [a, b] = [capture(start('2026-04-10')), capture(start('2026-04-10'))];
      await Promise.all([startRunDone(a), startRunDone(b)]);
      const expected = daysFrom('2026-01-01', '2026-04-10');
      expect(await postDates(await a.url, token)).toEqual(expected);
      expect(await postDates(await b.url, token)).toEqual(expected);
    },
    180_000,
  );
});
