import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { largeExportJson } from '../helpers/large-export';
import { largeListJson } from '../helpers/large-lists';
import { startServer, type TestServer } from '../helpers/server';
import { LOOP_TURN_BOUND_CPU_MS, rawRequest, whileProbingHealth } from '../helpers/stall-watch';

/**
 * Restoring a large document (tens of megabytes of JSON, a long history with splits) while /api/health is asked
 * over and over: reading, checking and writing it may never keep the event loop from turning, whether the
 * document is restored, refused for parts that do not add up, or cut off in the middle.
 */
const ROWS = 90_000;

let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server.close();
});

const restore = (user: ApiUser, body: Uint8Array) =>
  rawRequest(server.url, 'POST', '/api/import', { token: user.token, body });

/** The balance each account of the document ends with: its rows, split parents left out (their parts count). */
function balances(json: string): Map<number, number> {
  const doc = JSON.parse(json) as { transactions: { accountId: number; amount: number; isSplit: boolean }[] };
  const sums = new Map<number, number>();
  for (const t of doc.transactions) if (!t.isSplit) sums.set(t.accountId, (sums.get(t.accountId) ?? 0) + t.amount);
  return sums;
}

const isEmpty = async (user: ApiUser) => expect(ok(await user.get('/api/accounts'))).toEqual([]);

describe(`a document of ${ROWS} transactions`, () => {
  it('is restored while the server keeps answering', async () => {
    const json = largeExportJson({ transactions: ROWS });
    const body = Buffer.from(json);
    expect(body.byteLength).toBeGreaterThan(20_000_000);
    const user = await signUp(server.url);
    const { value, longestTurnCpuMs, probes } = await whileProbingHealth(server.url, () => restore(user, body));
    expect(value.status, JSON.stringify(value.body).slice(0, 300)).toBe(201);
    expect(value.body.imported).toMatchObject({ accounts: 3, categories: 8, batches: 3, transactions: ROWS });
    expect(probes).toBeGreaterThan(0);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);

    const accounts = ok<{ id: number; name: string; balance: number }[]>(await user.get('/api/accounts'));
    const expected = balances(json);
    expect(accounts.map((a) => [a.name, a.balance]).sort()).toEqual(
      [
        ['Checking', expected.get(1)],
        ['Savings', expected.get(2)],
        ['Card', expected.get(3)],
      ].sort(),
    );
  });

  it('whose split parents follow parts that do not add up is refused with 400 naming one, without a stall', async () => {
    const body = Buffer.from(largeExportJson({ transactions: ROWS, partsFirst: true, unbalanced: true }));
    const user = await signUp(server.url);
    const { value, longestTurnCpuMs } = await whileProbingHealth(server.url, () => restore(user, body));
    expect(value.status).toBe(400);
    expect(value.body.error).toMatch(/split of transaction \d+: Split amounts must sum to/);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
    await isEmpty(user);
  });

  it('cut off before its end is refused with 400 (not JSON), without a stall', async () => {
    const json = largeExportJson({ transactions: ROWS });
    const body = Buffer.from(json.slice(0, json.length - 5000));
    const user = await signUp(server.url);
    const { value, longestTurnCpuMs } = await whileProbingHealth(server.url, () => restore(user, body));
    expect(value.status).toBe(400);
    expect(value.body.error).toMatch(/not valid JSON/);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
    await isEmpty(user);
  });
});

describe('a document of a million transfers', () => {
  it('all linking the same two transactions is refused with 400, without a stall', async () => {
    const body = Buffer.from(largeExportJson({ transactions: 1000, repeatedTransfers: 1_000_000 }));
    const user = await signUp(server.url);
    const { value, longestTurnCpuMs } = await whileProbingHealth(server.url, () => restore(user, body));
    expect(value.status).toBe(400);
    expect(value.body.error).toMatch(/transfers\.0: links two opposite amounts/);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
    await isEmpty(user);
  });
});

describe('a document whose weight is in another list than the transactions', () => {
  for (const [kind, status, bytes] of [
    ['plan', 201, 20_000_000],
    ['rates', 201, 20_000_000],
    ['transferCandidates', 201, 20_000_000],
    ['occurrences', 201, 10_000_000],
    ['occurrences', 413, 40_000_000],
    ['relatedCategories', 413, 40_000_000],
    ['transfers', 400, 20_000_000],
  ] as const)
    it(`of ${bytes / 1e6} MB of ${kind} is answered ${status} while the server keeps answering`, async () => {
      const body = Buffer.from(largeListJson(kind, bytes));
      const user = await signUp(server.url);
      const { value, longestTurnCpuMs } = await whileProbingHealth(server.url, () => restore(user, body));
      expect(value.status, JSON.stringify(value.body).slice(0, 300)).toBe(status);
      // One budget of 250,000 related categories is checked in one step: it is refused before it is whole.
      if (kind === 'relatedCategories') expect(value.body.error).toMatch(/a budget holds more than 50000 values/);
      expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
    });
});
