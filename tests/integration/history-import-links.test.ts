import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { historyEntries, userRows } from '../helpers/history';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Undo and redo of an import that linked or offered transfers with rows of other accounts (SQLite in `node`,
 * PostgreSQL in `integration-pg`): undo puts the other accounts' rows back unlinked and takes the links and offers
 * away, redo gives them back exactly (same ids); a later change to one of those rows makes the undo refuse with
 * nothing changed.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

type Upload = { transfers: { linkedCount: number; offeredCount: number } };

/** Every row of the user an import, its transfer detection, its undo and redo may write, as the database holds them. */
const state = (user: ApiUser) =>
  userRows(server, user, {
    batches: 'batch',
    transactions: 'transaction',
    transfers: 'transfer',
    candidates: 'transfer_candidate',
    trash: 'trashed_transaction',
  });

/** What the app shows: the rows with their counterparts, and the offers. */
async function shown(user: ApiUser) {
  return {
    rows: ok(await user.get('/api/transactions?start_date=2000-01-01&end_date=2100-01-01')),
    offers: ok(await user.get('/api/transfers/candidates?limit=1000')),
  };
}

async function upload(user: ApiUser, account: string, csv: string): Promise<Upload> {
  const body = new FormData();
  body.append('file', new Blob([csv]), 'statement.csv');
  body.append('account', account);
  body.append('transactionType', 'auto');
  return ok(await rest<Upload>(server.url, 'POST', '/api/upload', { token: user.token, body }));
}

async function userWith(...names: string[]): Promise<ApiUser> {
  const user = await signUp(server.url);
  for (const name of names) ok(await user.post('/api/accounts', { name, type: 'checking' }));
  return user;
}

async function addRow(user: ApiUser, account: string, amount: number, postDate: string, description: string) {
  return ok(await user.post<{ id: number }>('/api/transactions', { account, amount, postDate, description })).id;
}

/**
 * Runs the import, expects it to be the newest entry; undoes it and expects every row (and what the app shows) as
 * before, redoes it and expects them as after. Answers the entry and the state after.
 */
async function importUndoneAndRedone(user: ApiUser, importing: () => Promise<Upload>) {
  const before = { rows: await state(user), shown: await shown(user) };
  const result = await importing();
  const after = { rows: await state(user), shown: await shown(user) };
  const [entry] = await historyEntries(user);
  expect(entry).toMatchObject({ kind: 'import', state: 'done', undoable: true });
  // Recorded as its batch (and the offers its links settled): the rows' images and the links' are taken at its
  // first undo.
  expect(
    await server.sql("select id from history_row where entry_id = ? and table_name <> 'transfer_candidate'", [
      entry.id,
    ]),
  ).toEqual([]);
  ok(await user.post(`/api/history/${entry.id}/undo`));
  expect({ rows: await state(user), shown: await shown(user) }).toEqual(before);
  ok(await user.post(`/api/history/${entry.id}/redo`));
  expect({ rows: await state(user), shown: await shown(user) }).toEqual(after);
  // A second round takes the images the first undo kept.
  ok(await user.post(`/api/history/${entry.id}/undo`));
  expect({ rows: await state(user), shown: await shown(user) }).toEqual(before);
  ok(await user.post(`/api/history/${entry.id}/redo`));
  expect({ rows: await state(user), shown: await shown(user) }).toEqual(after);
  return { entry, result, before, after };
}

describe('an import that linked or offered transfers, in the history', () => {
  it('a link to a row of another account: undo leaves that row unlinked and no transfer, redo links it again', async () => {
    const user = await userWith('Checking', 'Savings');
    const out = await addRow(user, 'Checking', -25_000, '2025-03-02', 'TRANSFER TO SAVINGS');
    const { result, after } = await importUndoneAndRedone(user, () =>
      upload(user, 'Savings', 'Date,Description,Amount\n2025-03-03,TRANSFER FROM CHECKING,250.00\n'),
    );
    expect(result.transfers.linkedCount).toBe(1);
    expect(after.rows.transfers).toHaveLength(1);
    const linked = after.rows.transactions.find((row) => row.id === out);
    expect(linked?.transfer_id).toBe(after.rows.transfers[0]?.id);
  });

  it('an offer with a row of another account: undo takes it away, redo offers it again with its id, score and reason', async () => {
    const user = await userWith('Everyday', 'Holiday fund');
    await addRow(user, 'Everyday', -25_000, '2025-03-01', 'MOVE MONEY');
    const { result, after } = await importUndoneAndRedone(user, () =>
      upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-05,INCOMING,250.00\n'),
    );
    expect(result.transfers).toMatchObject({ linkedCount: 0, offeredCount: 1 });
    expect(after.shown.offers).toHaveLength(1);
  });

  it('a link that settled an open offer of another pair: undo offers that pair again, redo settles it again', async () => {
    const user = await userWith('Checking', 'Savings', 'Holiday fund');
    await addRow(user, 'Checking', -25_000, '2025-03-01', 'MOVE MONEY');
    const offered = await upload(user, 'Holiday fund', 'Date,Description,Amount\n2025-03-05,INCOMING,250.00\n');
    expect(offered.transfers).toMatchObject({ linkedCount: 0, offeredCount: 1 });
    const { result, before, after } = await importUndoneAndRedone(user, () =>
      upload(user, 'Savings', 'Date,Description,Amount\n2025-03-02,TRANSFER FROM CHECKING,250.00\n'),
    );
    expect(result.transfers.linkedCount).toBe(1);
    expect(before.shown.offers).toHaveLength(1);
    expect(after.shown.offers).toHaveLength(0);
  });

  it('two imports linked to each other: the older is undone only after the newer', async () => {
    const user = await userWith('Checking', 'Savings');
    await upload(user, 'Checking', 'Date,Description,Amount\n2025-03-02,TRANSFER TO SAVINGS,-250.00\n');
    const [first] = await historyEntries(user);
    const settled = await state(user);
    const linked = await upload(user, 'Savings', 'Date,Description,Amount\n2025-03-03,TRANSFER FROM CHECKING,250.00\n');
    expect(linked.transfers.linkedCount).toBe(1);
    const [second] = await historyEntries(user);
    const held = await state(user);
    const [into] = held.transactions.filter((row) => row.account_id !== settled.transactions[0]?.account_id);
    // Refused before the newer import's images are taken, and after (then the older's own row is named).
    for (const named of [into?.id, settled.transactions[0]?.id]) {
      const refused = await user.post(`/api/history/${first.id}/undo`);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ rows: [`transaction ${String(named)}`] });
      expect(await state(user)).toEqual(held);
      ok(await user.post(`/api/history/${second.id}/undo`));
      expect(await state(user)).toEqual(settled);
      ok(await user.post(`/api/history/${first.id}/undo`));
      ok(await user.post(`/api/history/${first.id}/redo`));
      expect(await state(user)).toEqual(settled);
      ok(await user.post(`/api/history/${second.id}/redo`));
      expect(await state(user)).toEqual(held);
    }
  });

  it('a later change to the linked row, its link or an offer refuses the undo, naming the row, with nothing changed', async () => {
    const user = await userWith('Checking', 'Savings', 'Card');
    const out = await addRow(user, 'Checking', -25_000, '2025-03-02', 'TRANSFER TO SAVINGS');
    await addRow(user, 'Card', -9_000, '2025-03-01', 'MOVE MONEY');
    const linked = await upload(
      user,
      'Savings',
      'Date,Description,Amount\n2025-03-03,TRANSFER FROM CHECKING,250.00\n2025-03-04,INCOMING,90.00\n',
    );
    expect(linked.transfers).toMatchObject({ linkedCount: 1, offeredCount: 1 });
    const [entry] = await historyEntries(user);

    // The other side's row edited since.
    ok(await user.put(`/api/transactions/${out}`, { description: 'Rent savings' }));
    let held = await state(user);
    let refused = await user.post(`/api/history/${entry.id}/undo`);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain(`transaction ${out}`);
    expect(await state(user)).toEqual(held);
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));

    // The offer dismissed since.
    const [offer] = ok(await user.get<{ id: number }[]>('/api/transfers/candidates'));
    ok(await user.post(`/api/transfers/candidates/${offer.id}/dismiss`));
    held = await state(user);
    refused = await user.post(`/api/history/${entry.id}/undo`);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain(`transfer_candidate ${offer.id}`);
    expect(await state(user)).toEqual(held);
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));

    // Nothing changed since any more: the undo goes through.
    const now = await state(user);
    ok(await user.post(`/api/history/${entry.id}/undo`));
    ok(await user.post(`/api/history/${entry.id}/redo`));
    expect(await state(user)).toEqual(now);
  });
});
