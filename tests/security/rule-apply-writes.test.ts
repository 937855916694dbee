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
 * Rules applied for real to a long history: every row they change is written, kept in the history of changes
 * (undo) and committed, all in one transaction, while /api/health is asked over and over; no step of it, the
 * commit included, may keep the event loop from turning, and the apply stays all or nothing.
 */
const ROWS = 30_000;

let server: TestServer;
let user: ApiUser;

function historyCsv(): string {
  const lines = ['Date,Description,Amount'];
  for (let i = 0; i < ROWS; i += 1) {
    const month = String((i % 12) + 1).padStart(2, '0');
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(`2024-${month}-${day},Card payment ${i % 900} ref ${i},-${(i % 4000) + 1}.25`);
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
  // One rule renames and categorises every row: each update touches the row and every index over it.
  const rule = await post('/api/rules', {
    name: 'Card payments',
    conditions: [{ field: 'description', op: 'contains', value: 'card payment' }],
    actions: { category: 'Cards', description: 'Card' },
    createCategory: true,
  });
  expect(rule.status).toBe(201);
}, 300_000);

afterAll(async () => {
  await server.close();
});

describe(`a rule applied for real to ${ROWS} rows`, () => {
  it('changes every row in one undoable step while the server keeps answering', async () => {
    const { value, longestTurnCpuMs, probes } = await whileProbingHealth(server.url, () =>
      post('/api/rules/apply', { onlyUncategorized: false }),
    );
    expect(value.status, JSON.stringify(value.body).slice(0, 300)).toBe(200);
    expect(value.body.changed).toBe(ROWS);
    expect(probes).toBeGreaterThan(0);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);

    const cards = ok(await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31&limit=3'));
    const rows = (Array.isArray(cards) ? cards : cards.transactions) as { description: string; category: string }[];
    expect(rows.map((row) => [row.description, row.category])).toEqual([
      ['Card', 'Cards'],
      ['Card', 'Cards'],
      ['Card', 'Cards'],
    ]);
  });

  it('is undone in one step, every row back, while the server keeps answering', async () => {
    const { entries } = ok(await user.get<{ entries: { id: number; kind: string }[] }>('/api/history?limit=1'));
    expect(entries[0]?.kind).toBe('rule-apply');
    const { value, longestTurnCpuMs } = await whileProbingHealth(server.url, () =>
      rawRequest(server.url, 'POST', `/api/history/${entries[0]?.id}/undo`, { token: user.token, body: '{}' }),
    );
    expect(value.status, JSON.stringify(value.body).slice(0, 300)).toBe(200);
    expect(longestTurnCpuMs).toBeLessThan(LOOP_TURN_BOUND_CPU_MS);
    const page = ok(await user.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31&limit=3'));
    const rows = (Array.isArray(page) ? page : page.transactions) as { description: string; category: string | null }[];
    for (const row of rows) expect(row.description).toMatch(/^Card payment \d+ ref \d+$/);
  });
});
