import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserDataDocument } from '../../src/shared/schemas/user-data';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * A restore from a backup is one entry of the history (SQLite in `node`, PostgreSQL in `integration-pg`): its
 * summary counts what it brought, it keeps no row images, and it cannot be undone or redone; the changes
 * before it can no longer be undone either. Each refusal is a 409 with the reason, changing nothing.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type Entry = {
  id: number;
  kind: string;
  summary: string;
  state: string;
  undoable: boolean;
  readOnlyReason: string | null;
  rowCount: number;
  rows: unknown[];
  moreRows: number;
};

async function history(user: ApiUser): Promise<Entry[]> {
  return ok(await user.get<{ entries: Entry[] }>('/api/history?limit=50')).entries;
}

/** A backup of a user with an account, two categories and three transactions. */
async function backup(): Promise<UserDataDocument> {
  const source = await signUp(server.url);
  ok(await source.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  for (const [postDate, description, amount, category] of [
    ['2025-02-01', 'Grocer', -4210, 'Food'],
    ['2025-02-02', 'Salary', 250_000, 'Pay'],
    ['2025-02-03', 'Cafe', -350, 'Food'],
  ] as const)
    ok(await source.post('/api/transactions', { account: 'Checking', postDate, description, amount, category }));
  return ok<UserDataDocument>(await source.get('/api/export'));
}

/** Everything the user has, as an export (without its time) shows it. */
async function everything(user: ApiUser): Promise<unknown> {
  const { exportedAt: _exportedAt, ...doc } = ok<UserDataDocument & { exportedAt: string }>(
    await user.get('/api/export'),
  );
  return doc;
}

describe('a restore in the history', () => {
  it('is listed with its summary, read-only with the reason, and its undo and redo answer 409 changing nothing', async () => {
    const doc = await backup();
    const user = await signUp(server.url);
    ok(await user.post('/api/import', doc));

    const [entry] = await history(user);
    expect(entry).toMatchObject({
      kind: 'restore',
      summary: 'Restored a backup of 3 transactions, 1 account, 2 categories, 0 budgets and 0 envelopes',
      state: 'done',
      undoable: false,
      rows: [],
    });
    expect(entry.readOnlyReason).toMatch(/^A restore from a backup cannot be undone/);
    // It counts what it brought without keeping an image of each row.
    expect(entry.rowCount).toBeGreaterThanOrEqual(6);

    const state = await everything(user);
    for (const verb of ['undo', 'redo'] as const) {
      const refused = await user.post(`/api/history/${entry.id}/${verb}`);
      expect(refused.status).toBe(409);
      expect(refused.body.error).toBe(entry.readOnlyReason);
      expect(await everything(user)).toEqual(state);
    }
    expect((await user.trpc.history.undo.mutate({ id: entry.id })).error?.data.httpStatus).toBe(409);
  });

  it('makes the changes before it read-only: their undo answers 409 and changes nothing', async () => {
    const doc = await backup();
    const user = await signUp(server.url);
    // Changes that leave the user without data, so the restore is taken.
    ok(await user.post('/api/accounts', { name: 'Old', type: 'checking' }));
    const created = ok<{ id: number }>(
      await user.post('/api/transactions', {
        account: 'Old',
        postDate: '2025-01-05',
        description: 'Old',
        amount: -100,
      }),
    );
    ok(await user.del(`/api/transactions/${created.id}`));
    const [deleted] = await history(user);
    expect(deleted).toMatchObject({ kind: 'delete', undoable: true, readOnlyReason: null });
    const accounts = ok<{ id: number }[]>(await user.get('/api/accounts'));
    for (const account of accounts) ok(await user.del(`/api/accounts/${account.id}`));

    ok(await user.post('/api/import', doc));
    const state = await everything(user);
    const entries = await history(user);
    const earlier = entries.find((entry) => entry.id === deleted.id)!;
    expect(earlier.undoable).toBe(false);
    expect(earlier.readOnlyReason).toMatch(/a restore from a backup came after it/i);

    const refused = await user.post(`/api/history/${deleted.id}/undo`);
    expect(refused.status).toBe(409);
    expect(refused.body.error).toBe(earlier.readOnlyReason);
    expect(await everything(user)).toEqual(state);
  });
});
