import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBundle, type RunningBundle } from './production-bundle';

/**
 * An undo is one database transaction: the production bundle killed with SIGKILL while it undoes a large bulk
 * edit comes back with every row as it was before the undo or every row as the undo left it, and the history
 * entry saying which, never a mix.
 */
const ROWS = 20_000;

let dataDir: string;
let running: RunningBundle | null = null;

async function start(): Promise<RunningBundle> {
  running = await startBundle({ dataDir });
  return running;
}

async function call<T>(server: RunningBundle, token: string, method: string, url: string, body?: unknown): Promise<T> {
  const res = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

/** Every row's category, and the entry's state, as the restarted server answers them. */
async function state(server: RunningBundle, token: string, entryId: number) {
  const rows = await call<{ category: string | null }[]>(
    server,
    token,
    'GET',
    '/api/transactions?start_date=2020-01-01&end_date=2020-12-31&limit=100000',
  );
  const { entries } = await call<{ entries: { id: number; state: string }[] }>(
    server,
    token,
    'GET',
    '/api/history?limit=5',
  );
  return {
    categories: [...new Set(rows.map((row) => row.category))],
    count: rows.length,
    entry: entries.find((entry) => entry.id === entryId)?.state,
  };
}

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-crash-'));
});
afterAll(() => {
  running?.child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('a crash during an undo', () => {
  it('leaves the rows before or after it, never a mix', async () => {
    let server = await start();
    const auth = await fetch(`${server.url}/api/auth/register`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ username: 'crash-test', password: 'crash-test-password' }),
    });
    const { accessToken: token } = (await auth.json()) as { accessToken: string };
    await call(server, token, 'POST', '/api/accounts', { name: 'Checking', type: 'checking' });
    const lines = Array.from({ length: ROWS }, (_, i) => {
      const day = String((i % 28) + 1).padStart(2, '0');
      const month = String((Math.floor(i / 28) % 12) + 1).padStart(2, '0');
      return `2020-${month}-${day},Shop ${i},-${(i % 900) + 1}.25`;
    });
    const form = new FormData();
    form.append('file', new Blob([`Date,Description,Amount\n${lines.join('\n')}\n`]), 'year.csv');
    form.append('account', 'Checking');
    form.append('transactionType', 'auto');
    const upload = await fetch(`${server.url}/api/upload`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
      body: form,
    });
    expect(upload.status, await upload.clone().text()).toBeLessThan(300);
    const ids = (
      await call<{ id: number }[]>(
        server,
        token,
        'GET',
        '/api/transactions?start_date=2020-01-01&end_date=2020-12-31&limit=100000',
      )
    ).map((row) => row.id);
    expect(ids).toHaveLength(ROWS);
    await call(server, token, 'PUT', '/api/transactions/bulk', {
      transactionIds: ids,
      updates: { category: 'Groceries' },
    });
    const { entries } = await call<{ entries: { id: number; kind: string }[] }>(
      server,
      token,
      'GET',
      '/api/history?limit=1',
    );
    const entryId = entries[0].id;
    expect(entries[0].kind).toBe('bulk-edit');

    // The undo is under way once the server has logged its request: the process dies there.
    const undo = fetch(`${server.url}/api/history/${entryId}/undo`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}` },
    }).catch(() => null);
    await expect
      .poll(() => server.output().includes(`/api/history/${entryId}/undo`), { timeout: 30_000, interval: 5 })
      .toBe(true);
    server.child.kill('SIGKILL');
    await Promise.all([undo, server.exited]);

    server = await start();
    const after = await state(server, token, entryId);
    console.info(`killed during the undo; restarted with the entry ${after.entry ?? 'missing'}`);
    expect(after.count).toBe(ROWS);
    // Before the undo: every row in Groceries and the entry done; after it: none and the entry undone.
    expect([
      { categories: ['Groceries'], count: ROWS, entry: 'done' },
      { categories: [null], count: ROWS, entry: 'undone' },
    ]).toContainEqual(after);
  }, 180_000);
});
