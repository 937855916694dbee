import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Retention applied by the hourly job (SQLite in `node`, PostgreSQL in `integration-pg`): history entries older than
 * the history's period and trashed transactions older than the trash's are deleted for good for a user who never
 * reads them, with everything they held; the settings set the periods. Every check before the job reads the
 * database directly, since reading the history or the trash through the API purges too.
 */
let short: TestServer;
let standard: TestServer;

beforeAll(async () => {
  [short, standard] = await Promise.all([
    startServer({ TRASH_RETENTION_DAYS: '10', HISTORY_RETENTION_DAYS: '20' }),
    startServer(),
  ]);
});
afterAll(async () => {
  await Promise.all([short.close(), standard.close()]);
});

type Tx = { id: number; description: string };
type Entry = { id: number; kind: string; state: string };

/** One run of the hourly job, as the server would run it. */
async function runJob(server: TestServer): Promise<void> {
  server.app.scheduleJob.runNow();
  await server.app.scheduleJob.idle();
}

/** Moves when an entry was made, or when its rows went to the trash, this many days into the past. */
async function age(server: TestServer, table: 'history_entry' | 'trashed_transaction', entryId: number, days: number) {
  const column = table === 'history_entry' ? 'created_at' : 'deleted_at';
  const key = table === 'history_entry' ? 'id' : 'entry_id';
  await server.sql(`update ${table} set ${column} = ? where ${key} = ?`, [
    new Date(Date.now() - days * 86_400_000).toISOString(),
    entryId,
  ]);
}

async function entryIds(server: TestServer, userId: number): Promise<number[]> {
  const rows = await server.sql<{ id: number }>('select id from history_entry where user_id = ? order by id', [userId]);
  return rows.map((row) => Number(row.id));
}

async function count(server: TestServer, sql: string, params: readonly unknown[]): Promise<number> {
  const [row] = await server.sql<{ n: number | string }>(sql, params);
  return Number(row?.n ?? 0);
}

const rowsOf = (server: TestServer, entryId: number) =>
  count(server, 'select count(*) as n from history_row where entry_id = ?', [entryId]);
const trashOf = (server: TestServer, entryId: number) =>
  count(server, 'select count(*) as n from trashed_transaction where entry_id = ?', [entryId]);

async function withAccount(server: TestServer): Promise<ApiUser> {
  const user = await signUp(server.url);
  ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
  return user;
}

async function add(user: ApiUser, description: string, amount = -100): Promise<Tx> {
  return ok(
    await user.post<Tx>('/api/transactions', { account: 'Checking', postDate: '2025-01-05', description, amount }),
  );
}

async function latestEntry(user: ApiUser): Promise<Entry> {
  return ok(await user.get<{ entries: Entry[] }>('/api/history?limit=1')).entries[0];
}

/** Three entries (adding three rows); the first aged 21 days, the second 19. */
async function agedHistory(server: TestServer, given?: ApiUser) {
  const user = given ?? (await withAccount(server));
  for (const description of ['First', 'Second', 'Third']) await add(user, description);
  const ids = await entryIds(server, user.userId);
  expect(ids).toHaveLength(3);
  await age(server, 'history_entry', ids[0], 21);
  await age(server, 'history_entry', ids[1], 19);
  return { user, ids };
}

/** A split row (two parts) and a plain one deleted; the split's trash aged 11 days, the other's 9. */
async function agedTrash(server: TestServer, given?: ApiUser) {
  const user = given ?? (await withAccount(server));
  const grocer = await add(user, 'Grocer', -4210);
  const cafe = await add(user, 'Cafe', -350);
  ok(
    await user.post(`/api/transactions/${grocer.id}/split`, {
      splits: [
        { amount: -4000, category: 'Food' },
        { amount: -210, category: 'Home' },
      ],
    }),
  );
  ok(await user.del(`/api/transactions/${grocer.id}`));
  const old = await latestEntry(user);
  ok(await user.del(`/api/transactions/${cafe.id}`));
  const young = await latestEntry(user);
  await age(server, 'trashed_transaction', old.id, 11);
  await age(server, 'trashed_transaction', young.id, 9);
  return { user, grocer, cafe, old, young };
}

describe('the hourly job applies the retention', () => {
  it('drops history entries older than the history period with their rows, and keeps younger ones', async () => {
    const { user, ids } = await agedHistory(short);
    const [first, second, third] = ids as [number, number, number];
    expect(await rowsOf(short, first)).toBe(1);
    await runJob(short);
    expect(await entryIds(short, user.userId)).toEqual([second, third]);
    expect(await rowsOf(short, first)).toBe(0);
    expect(await rowsOf(short, second)).toBe(1);
  });

  it('deletes trashed rows older than the trash period for good with their split parts, and keeps younger ones', async () => {
    const { user, grocer, cafe, old, young } = await agedTrash(short);
    // The parent and its two parts are kept as the deleting entry's images.
    expect(await rowsOf(short, old.id)).toBe(3);
    await runJob(short);
    expect(await trashOf(short, old.id)).toBe(0);
    expect(await rowsOf(short, old.id)).toBe(0);
    const [state] = await short.sql<{ state: string }>('select state from history_entry where id = ?', [old.id]);
    expect(state?.state).toBe('purged');
    expect(await trashOf(short, young.id)).toBe(1);

    expect(ok(await user.get<{ transactionId: number }[]>('/api/trash')).map((item) => item.transactionId)).toEqual([
      cafe.id,
    ]);
    expect((await user.post('/api/trash/restore', { transactionIds: [grocer.id] })).status).toBe(404);
    expect((await user.post(`/api/history/${old.id}/undo`)).status).toBe(409);
    ok(await user.post('/api/trash/restore', { transactionIds: [cafe.id] }));
    const left = ok(await user.get<Tx[]>('/api/transactions?start_date=2000-01-01&end_date=2100-01-01'));
    expect(left.map((row) => row.description)).toEqual(['Cafe']);
  });

  it('keeps an entry past the history period while the rows it deleted are still in the trash', async () => {
    const user = await withAccount(short);
    const gone = await add(user, 'Gone');
    ok(await user.del(`/api/transactions/${gone.id}`));
    const entry = await latestEntry(user);
    await age(short, 'history_entry', entry.id, 21);
    await runJob(short);
    expect(await trashOf(short, entry.id)).toBe(1);
    ok(await user.post('/api/trash/restore', { transactionIds: [gone.id] }));
  });

  it('purges more rows than one slice holds: a deleted import of 2,500 rows', async () => {
    const user = await withAccount(short);
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 2500; i += 1)
      lines.push(`2025-02-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},-${i + 1}`);
    const body = new FormData();
    body.append('file', new Blob([`${lines.join('\n')}\n`]), 'big.csv');
    body.append('account', 'Checking');
    body.append('transactionType', 'auto');
    const upload = ok(await rest<{ batchId: string }>(short.url, 'POST', '/api/upload', { token: user.token, body }));
    ok(await user.del(`/api/transactions/batches/${upload.batchId}`));
    const entry = await latestEntry(user);
    expect(await trashOf(short, entry.id)).toBe(2500);
    await age(short, 'trashed_transaction', entry.id, 11);
    // Entries are made in time order: the import's too, before it.
    for (const id of await entryIds(short, user.userId)) await age(short, 'history_entry', id, 21);
    await runJob(short);
    expect(await trashOf(short, entry.id)).toBe(0);
    expect(await rowsOf(short, entry.id)).toBe(0);
    expect(await entryIds(short, user.userId)).not.toContain(entry.id);
  });

  it('the settings set the periods: the same ages are kept under the default 90 and 30 days', async () => {
    const history = await agedHistory(standard);
    const trash = await agedTrash(standard);
    await runJob(standard);
    expect(await entryIds(standard, history.user.userId)).toEqual(history.ids);
    expect(await trashOf(standard, trash.old.id)).toBe(1);
    expect(await rowsOf(standard, trash.old.id)).toBe(3);
  });
});

describe('a user’s own periods', () => {
  it('replace the server’s for that user alone once set, and null goes back to the server’s', async () => {
    const mine = await withAccount(standard);
    expect(ok(await mine.get('/api/settings'))).toMatchObject({
      historyRetentionDays: null,
      trashRetentionDays: null,
      serverHistoryRetentionDays: 90,
      serverTrashRetentionDays: 30,
    });
    expect(ok(await mine.put('/api/settings', { historyRetentionDays: 20, trashRetentionDays: 10 }))).toMatchObject({
      historyRetentionDays: 20,
      trashRetentionDays: 10,
      serverHistoryRetentionDays: 90,
    });
    const history = await agedHistory(standard, mine);
    const trash = await agedTrash(standard, mine);
    // Another user of the same server, with the same ages, keeps everything under the server's periods.
    const other = await agedHistory(standard);
    const otherTrash = await agedTrash(standard);
    await runJob(standard);
    const mineLeft = await entryIds(standard, mine.userId);
    expect(mineLeft).not.toContain(history.ids[0]);
    expect(mineLeft).toContain(history.ids[1]);
    expect(await trashOf(standard, trash.old.id)).toBe(0);
    expect(await trashOf(standard, trash.young.id)).toBe(1);
    expect(await entryIds(standard, other.user.userId)).toEqual(other.ids);
    expect(await trashOf(standard, otherTrash.old.id)).toBe(1);

    for (const wrong of [0, 3651, 1.5, '10'])
      expect((await mine.put('/api/settings', { trashRetentionDays: wrong })).status).toBe(400);
    expect(ok(await mine.put('/api/settings', { historyRetentionDays: null, trashRetentionDays: null }))).toMatchObject(
      {
        historyRetentionDays: null,
        trashRetentionDays: null,
      },
    );
  });

  it('apply when the history and the trash are read, as the job applies them', async () => {
    const mine = await withAccount(standard);
    ok(await mine.put('/api/settings', { trashRetentionDays: 10 }));
    const trash = await agedTrash(standard, mine);
    expect(ok(await mine.get<{ transactionId: number }[]>('/api/trash')).map((item) => item.transactionId)).toEqual([
      trash.cafe.id,
    ]);
  });
});
