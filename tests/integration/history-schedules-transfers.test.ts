import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { data, ok, seedBatch, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { historyEntries, type HistoryEntryAnswer, userRows } from '../helpers/history';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Schedules and offered transfers in the history (SQLite in `node`, PostgreSQL in `integration-pg`): creating,
 * editing, deleting, skipping and posting a schedule now, accepting or dismissing an offered pair, and deleting rows
 * a schedule posted or a pair was offered for, are each one entry that undo puts back exactly (the rows as the
 * database holds them) and redo applies again; a later change to a row an entry wrote makes its undo refuse with
 * nothing changed.
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

/** Every row of the user that these actions may write, as the database holds them. */
const state = (user: ApiUser) =>
  userRows(server, user, {
    schedules: 'schedule',
    occurrences: 'schedule_occurrence',
    transactions: 'transaction',
    transfers: 'transfer',
    candidates: 'transfer_candidate',
  });

/**
 * Runs `action` and expects it to add one history entry with this summary; undoes it and expects every row as
 * before, redoes it and expects every row as after. Answers the entry.
 */
async function recordedOnce(
  user: ApiUser,
  summary: string,
  action: () => Promise<unknown>,
): Promise<HistoryEntryAnswer> {
  const before = await state(user);
  const earlier = await historyEntries(user);
  await action();
  const after = await state(user);
  const now = await historyEntries(user);
  expect(now.length).toBe(earlier.length + 1);
  const entry = now[0];
  expect(entry).toMatchObject({ summary, state: 'done', undoable: true });
  ok(await user.post(`/api/history/${entry.id}/undo`));
  expect(await state(user)).toEqual(before);
  ok(await user.post(`/api/history/${entry.id}/redo`));
  expect(await state(user)).toEqual(after);
  return entry;
}

async function userWithAccounts(): Promise<ApiUser> {
  const user = await signUp(server.url);
  for (const [name, type] of [
    ['Checking', 'checking'],
    ['Card', 'credit'],
    ['Savings', 'savings'],
  ])
    ok(await user.post('/api/accounts', { name, type }));
  return user;
}

const rent = {
  name: 'Rent',
  account: 'Checking',
  description: 'ACME PROPERTIES RENT',
  amount: -120_000,
  recurrence: 'FREQ=MONTHLY;BYMONTHDAY=1',
  startDate: '2025-01-01',
};

/** A user whose rent is expected (not posted) from March 1st. */
async function expectingRent(): Promise<ApiUser> {
  const user = await userWithAccounts();
  ok(await user.post('/api/schedules', { ...rent, mode: 'expect', startDate: '2025-03-01' }));
  return user;
}

/** March's rent entered by hand on the 2nd, within the occurrence's window; answers its id. */
async function payMarchRent(user: ApiUser): Promise<number> {
  return ok(
    await user.post<{ id: number }>('/api/transactions', {
      account: 'Checking',
      amount: -120_000,
      postDate: '2025-03-02',
      description: 'ACME PROPERTIES RENT MARCH',
    }),
  ).id;
}

describe('schedules in the history', () => {
  it('create (with the occurrences it posts), edit, skip, post now and delete are each one entry undone and redone exactly', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    let id = 0;
    const created = await recordedOnce(user, 'Created schedule Rent', async () => {
      id = ok(await user.post<{ id: number }>('/api/schedules', rent)).id;
    });
    expect(created.kind).toBe('create');
    // The three due dates were posted with it, and are gone with its undo (checked in recordedOnce).
    expect((await state(user)).transactions).toHaveLength(3);

    const expected = await recordedOnce(user, 'Created schedule Water', async () => {
      ok(await user.post('/api/schedules', { ...rent, name: 'Water', mode: 'expect', amount: -3_000 }));
    });
    expect(expected.kind).toBe('create');

    // An edit of the timing remakes the open occurrences: the expected schedule's missed ones go and come back.
    const water = ok(await user.get<{ id: number; name: string }[]>('/api/schedules')).find((s) => s.name === 'Water')!;
    await recordedOnce(user, 'Edited schedule Water bill', async () => {
      ok(await user.put(`/api/schedules/${water.id}`, { name: 'Water bill', amount: -3_500, window: 5 }));
    });

    await recordedOnce(user, 'Skipped Rent of 2025-04-01', async () => {
      expect(ok(await user.post(`/api/schedules/${id}/skip`))).toMatchObject({ status: 'skipped' });
    });

    let posted = 0;
    const postNow = await recordedOnce(user, 'Posted Rent now', async () => {
      posted = ok(await user.post<{ transactionId: number }>(`/api/schedules/${id}/post-now`)).transactionId;
    });
    expect((await state(user)).transactions.map((t) => t.id)).toContain(posted);

    await recordedOnce(user, 'Deleted schedule Rent', async () => {
      ok(await user.del(`/api/schedules/${id}`));
    });

    // The posted row edited since: undoing the post would drop that edit, so it is refused and nothing changes.
    ok(await user.put(`/api/transactions/${posted}`, { description: 'Rent for May' }));
    const held = await state(user);
    expect((await user.post(`/api/history/${postNow.id}/undo`)).status).toBe(409);
    expect(await state(user)).toEqual(held);
  });

  it('a matched transaction deleted and brought back (undo, or from the trash) is matched to its occurrence again', async () => {
    today = '2025-03-10';
    const user = await expectingRent();
    const paid = async () =>
      ok(
        await user.post<{ id: number }>('/api/transactions', {
          account: 'Checking',
          amount: -120_000,
          postDate: '2025-03-02',
          description: 'ACME PROPERTIES RENT MARCH',
        }),
      ).id;
    const matchOf = async () =>
      (await state(user)).occurrences.map((o) => [o.scheduled_date, o.status, o.transaction_id]);
    const id = await paid();
    const matched = await matchOf();
    expect(matched).toEqual([['2025-03-01', 'matched', id]]);

    ok(await user.del(`/api/transactions/${id}`));
    expect(await matchOf()).not.toEqual(matched);
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));
    expect(await matchOf()).toEqual(matched);

    ok(await user.del(`/api/transactions/${id}`));
    ok(await user.post('/api/trash/restore', { transactionIds: [id] }));
    expect(await matchOf()).toEqual(matched);
  });

  it('an edit that changes nothing adds no entry, and a refused create leaves none', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    const { id } = ok(await user.post<{ id: number }>('/api/schedules', rent));
    const count = (await historyEntries(user)).length;
    ok(await user.put(`/api/schedules/${id}`, { name: 'Rent' }));
    expect(await historyEntries(user)).toHaveLength(count);
    expect(
      (await user.post('/api/schedules', { ...rent, startDate: '1990-01-01', recurrence: 'FREQ=DAILY' })).status,
    ).toBe(400);
    expect(await historyEntries(user)).toHaveLength(count);
  });
});

/** One run of the hourly job for the clock's day, as the server would run it. */
async function runJob(): Promise<void> {
  server.app.scheduleJob.runNow();
  await server.app.scheduleJob.idle();
}

describe('rows a schedule posted or matched, in the history', () => {
  const occurrencesOf = async (user: ApiUser) =>
    (await state(user)).occurrences.map((o) => [o.scheduled_date, o.status, o.transaction_id]);

  it('deleting a posted row keeps its occurrence posted (not posted again); undo, redo and the trash give it its link back', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    ok(await user.post('/api/schedules', rent));
    const posted = await occurrencesOf(user);
    const march = posted.find(([date]) => date === '2025-03-01')![2] as number;

    await recordedOnce(user, 'Deleted 1 transaction', async () => {
      ok(await user.del(`/api/transactions/${march}`));
    });
    // While its row is in the trash the occurrence stays posted without a row, and the hourly job leaves it.
    await runJob();
    expect(await occurrencesOf(user)).toEqual(
      posted.map(([date, status, id]) => [date, status, id === march ? null : id]),
    );
    expect((await state(user)).transactions).toHaveLength(2);

    const deleted = await state(user);
    ok(await user.post('/api/trash/restore', { transactionIds: [march] }));
    expect(await occurrencesOf(user)).toEqual(posted);
    // The restore is a change of its own: its undo puts the row back in the trash and the occurrence as it was.
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));
    expect(await state(user)).toEqual(deleted);
  });

  it('a matched row deleted is matched again by its undo, even after the hourly job made its occurrence missed', async () => {
    today = '2025-03-10';
    const user = await expectingRent();
    const id = await payMarchRent(user);
    const before = await state(user);
    ok(await user.del(`/api/transactions/${id}`));
    await runJob();
    expect(await occurrencesOf(user)).toEqual([['2025-03-01', 'missed', null]]);
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));
    expect(await state(user)).toEqual(before);
  });

  it('an import that paid a missed occurrence: its undo leaves the occurrence missed again at once, not due', async () => {
    today = '2025-03-10';
    const user = await expectingRent();
    await runJob();
    const missed = await state(user);
    expect(await occurrencesOf(user)).toEqual([['2025-03-01', 'missed', null]]);
    const body = new FormData();
    body.append(
      'file',
      new Blob(['Date,Description,Amount\n2025-03-02,ACME PROPERTIES RENT MARCH,-1200.00\n']),
      'march.csv',
    );
    body.append('account', 'Checking');
    body.append('transactionType', 'auto');
    ok(await rest(server.url, 'POST', '/api/upload', { token: user.token, body }));
    expect((await occurrencesOf(user))[0]?.[1]).toBe('matched');
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));
    expect(await state(user)).toEqual(missed);
  });

  it('deleting a row that paid an occurrence past its window leaves the occurrence missed at once', async () => {
    today = '2025-03-10';
    const user = await expectingRent();
    const id = await payMarchRent(user);
    expect(await occurrencesOf(user)).toEqual([['2025-03-01', 'matched', id]]);
    ok(await user.del(`/api/transactions/${id}`));
    expect(await occurrencesOf(user)).toEqual([['2025-03-01', 'missed', null]]);
  });

  it('adding a row by hand that pays an expected occurrence: undo leaves the occurrence open again, redo matched', async () => {
    today = '2025-03-02';
    const user = await expectingRent();
    expect(await occurrencesOf(user)).toEqual([['2025-03-01', 'due', null]]);
    let id = 0;
    await recordedOnce(user, 'Added “ACME PROPERTIES RENT MARCH”', async () => {
      id = ok(
        await user.post<{ id: number }>('/api/transactions', {
          account: 'Checking',
          amount: -120_000,
          postDate: '2025-03-02',
          description: 'ACME PROPERTIES RENT MARCH',
        }),
      ).id;
    });
    expect(await occurrencesOf(user)).toEqual([['2025-03-01', 'matched', id]]);
  });

  it('undoing the create of a schedule that posted rows since is refused, naming them, until those rows are deleted', async () => {
    today = '2025-03-10';
    const user = await userWithAccounts();
    const created = await recordedOnce(user, 'Created schedule Rent', async () => {
      ok(await user.post('/api/schedules', rent));
    });
    today = '2025-04-02';
    await runJob();
    const april = (await occurrencesOf(user)).find(([date]) => date === '2025-04-01')![2] as number;
    expect(april).toEqual(expect.any(Number));
    const held = await state(user);
    const refused = await user.post<unknown>(`/api/history/${created.id}/undo`);
    expect(refused.status).toBe(409);
    expect(JSON.stringify(refused.body)).toContain(`transaction ${april}`);
    expect(await state(user)).toEqual(held);

    // With the row it posted since deleted, the create is undone: nothing of the schedule is left in the register.
    ok(await user.del(`/api/transactions/${april}`));
    ok(await user.post(`/api/history/${created.id}/undo`));
    const after = await state(user);
    expect(after.schedules).toEqual([]);
    expect(after.occurrences).toEqual([]);
    expect(after.transactions).toEqual([]);
  });
});

describe('offered transfers in the history', () => {
  async function offered(user: ApiUser) {
    const row = async (account: string, amount: number, postDate: string) =>
      ok(
        await user.post<{ id: number }>('/api/transactions', {
          account,
          amount,
          postDate,
          description: `Row ${amount}`,
        }),
      ).id;
    const out = await row('Checking', -900, '2025-08-02');
    const into = await row('Savings', 900, '2025-08-03');
    const other = await row('Card', 900, '2025-08-03');
    for (const [first, second, score] of [
      [out, into, 60],
      [out, other, 40],
    ])
      await server.sql(
        `insert into transfer_candidate (created_at, user_id, first_id, second_id, score, reason, status) values (?, ?, ?, ?, ?, 'same amount', 'open')`,
        ['2025-08-04T10:00:00.000Z', user.userId, first, second, score],
      );
    const list = ok(await user.get<{ id: number; score: number }[]>('/api/transfers/candidates'));
    expect(list.map((c) => c.score)).toEqual([60, 40]);
    return list;
  }

  it('undoing an accept unlinks the pair and offers it again as it was, with the offers the link settled', async () => {
    const user = await userWithAccounts();
    const [sure] = await offered(user);
    const listed = ok(await user.get('/api/transfers/candidates'));
    await recordedOnce(user, 'Accepted the offered transfer between Checking and Savings', async () => {
      ok(await user.post(`/api/transfers/candidates/${sure.id}/accept`));
      expect(ok(await user.get('/api/transfers/candidates'))).toEqual([]);
    });
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));
    expect(ok(await user.get('/api/transfers/candidates'))).toEqual(listed);
    // The offer can be accepted again after the undo.
    ok(await user.post(`/api/transfers/candidates/${sure.id}/accept`));
  });

  it('deleting a row takes its offers in the same entry: undo offers them again as they were, redo takes them again', async () => {
    const user = await userWithAccounts();
    const list = await offered(user);
    const listed = ok(await user.get('/api/transfers/candidates'));
    const out = (await state(user)).candidates[0].first_id as number;
    await recordedOnce(user, 'Deleted 1 transaction', async () => {
      ok(await user.del(`/api/transactions/${out}`));
      expect(ok(await user.get('/api/transfers/candidates'))).toEqual([]);
    });
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));
    expect(ok(await user.get('/api/transfers/candidates'))).toEqual(listed);
    // Brought back from the trash instead, the row is offered again with its pairs (same ids, scores, reasons).
    const before = (await state(user)).candidates;
    ok(await user.del(`/api/transactions/${out}`));
    ok(await user.post('/api/trash/restore', { transactionIds: [out] }));
    expect((await state(user)).candidates).toEqual(before);
    ok(await user.post(`/api/transfers/candidates/${list[0].id}/accept`));
  });

  it('deleting several rows at once, or an import, takes their offers in the entry too', async () => {
    const user = await userWithAccounts();
    await offered(user);
    const [first] = (await state(user)).candidates;
    const ids = [first.first_id as number, first.second_id as number];
    await recordedOnce(user, 'Deleted 2 transactions', async () => {
      data(await user.trpc.transactions.deleteMany.mutate({ ids }));
    });
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));
    const batchId = await seedBatch(server.app, user.userId, null, ids);
    await recordedOnce(user, 'Deleted the import of seed.csv with 2 transactions', async () => {
      ok(await user.del(`/api/transactions/batches/${batchId}`));
      expect((await state(user)).candidates).toEqual([]);
    });
  });

  it('undoing a dismiss offers the pair again', async () => {
    const user = await userWithAccounts();
    const [, unsure] = await offered(user);
    const listed = ok(await user.get('/api/transfers/candidates'));
    await recordedOnce(user, 'Dismissed the offered transfer between Checking and Card', async () => {
      ok(await user.post(`/api/transfers/candidates/${unsure.id}/dismiss`));
    });
    ok(await user.post(`/api/history/${(await historyEntries(user))[0].id}/undo`));
    expect(ok(await user.get('/api/transfers/candidates'))).toEqual(listed);
  });
});
