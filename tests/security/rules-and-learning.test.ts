import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';
import {
  encodedForm,
  LOOP_TURN_BOUND_CPU_MS,
  rawRequest,
  whileProbingHealth,
  type RawAnswer,
} from '../helpers/stall-watch';

/**
 * Work over a long history that once held the event loop: a thousand rules run over every stored row (count,
 * dry run, apply), and the suggestion learner after writes change the rows it learned from. Each runs while
 * /api/health is asked over and over, and no stretch of it may keep the event loop from turning.
 */
const ROWS = 100_000;
const RULES = 1000;
const CATEGORIES = ['Groceries', 'Fuel', 'Dining', 'Rent', 'Travel', 'Books', 'Garden', 'Pets'];

let server: TestServer;
let user: ApiUser;

function historyCsv(): string {
  const lines = ['Date,Description,Amount,Category'];
  for (let i = 0; i < ROWS; i += 1) {
    const month = String((i % 12) + 1).padStart(2, '0');
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(
      `2024-${month}-${day},Shop ${i % 700} ref ${i},-${(i % 5000) + 1}.00,${CATEGORIES[i % CATEGORIES.length]}`,
    );
  }
  return lines.join('\n');
}

const post = (path: string, body: unknown): Promise<RawAnswer> =>
  rawRequest(server.url, 'POST', path, { token: user.token, body: JSON.stringify(body) });

beforeAll(async () => {
  server = await startServer();
  user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  const { bytes, contentType } = await encodedForm(server.url, historyCsv(), { account: 'Checking' }, 'history.csv');
  const imported = await rawRequest(server.url, 'POST', '/api/upload', { token: user.token, body: bytes, contentType });
  expect(imported.status, JSON.stringify(imported.body).slice(0, 300)).toBe(201);
  for (let i = 0; i < RULES; i += 1) {
    // Most rules name a shop; every twentieth is a pattern without a literal, checked on every row.
    const conditions =
      i % 20 === 0
        ? [{ field: 'description', op: 'matches', value: `^s\\w+ ${i % 700}\\b.*\\d$` }]
        : [
            { field: 'description', op: 'contains', value: `shop ${i % 700} ` },
            { field: 'amount', op: 'lt', value: -(i % 300) },
          ];
    const res = await post('/api/rules', {
      name: `rule ${i}`,
      conditions,
      actions: { category: `Rule ${i % 40}` },
      createCategory: true,
    });
    expect(res.status).toBe(201);
  }
}, 300_000);

afterAll(async () => {
  await server.close();
});

describe(`${RULES} rules over ${ROWS} rows`, () => {
  it('a dry run answers what would change while the server keeps answering', async () => {
    const { value, longestTurnCpuMs, probes } = await whileProbingHealth(server.url, () =>
      post('/api/rules/apply', { dryRun: true, onlyUncategorized: false }),
    );
    expect(value.status).toBe(200);
    expect(value.body.matched, JSON.stringify(value.body).slice(0, 300)).toBeGreaterThan(0);
    expect(probes).toBeGreaterThan(0);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
  });

  it('counting the matches of a pattern over every row keeps the server answering', async () => {
    const { value, longestTurnCpuMs } = await whileProbingHealth(server.url, () =>
      post('/api/rules/count', { conditions: [{ field: 'description', op: 'matches', value: '(\\w+\\s?)*7$' }] }),
    );
    expect(value.status).toBe(200);
    expect(value.body.total).toBe(ROWS);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
  });
});

describe('suggestions after writes', () => {
  it('each write followed by a suggestion call: learning never holds the event loop', async () => {
    const page = ok(await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31&limit=5'));
    const rows = (Array.isArray(page) ? page : page.transactions) as { id: number }[];
    expect(rows.length).toBeGreaterThan(0);
    const ask = { transactions: [{ description: 'Shop 12 ref 99', amount: -1200 }] };
    for (const [i, row] of rows.slice(0, 4).entries()) {
      ok(await user.put(`/api/transactions/${row.id}`, { category: CATEGORIES[(i + 3) % CATEGORIES.length] }));
      const { value, longestTurnCpuMs } = await whileProbingHealth(server.url, () =>
        post('/api/categories/suggest', ask),
      );
      expect(value.status).toBe(200);
      expect(value.body[0].category).not.toBeNull();
      expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
    }
  });
});
