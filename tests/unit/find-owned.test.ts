import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isAppError } from '../../src/shared/errors';
import { openDatabase, type Orm } from '../../src/server/db/database';
import { findOwned } from '../../src/server/db/find-owned';
import { Account } from '../../src/server/modules/accounts/account.entity';
import { Budget } from '../../src/server/modules/budgets/budget.entity';
import { LineItem } from '../../src/server/modules/budgets/line-item.entity';
import { Batch } from '../../src/server/modules/transactions/batch.entity';
import { User } from '../../src/server/modules/users/user.entity';

/** findOwned against a migrated temporary SQLite file (the ORM is the thing under test). */
describe('findOwned', () => {
  let dir: string;
  let orm: Orm;
  const ids = { alice: 0, bob: 0, account: 0, lineItem: 0 };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-find-owned-'));
    orm = await openDatabase({ dialect: 'sqlite', file: path.join(dir, 'owned.sqlite') });
    const em = orm.em.fork();
    const now = new Date().toISOString();
    const user = (name: string) =>
      em.create(User, { username: name, usernameKey: name, passwordHash: 'x', createdAt: now, updatedAt: now });
    const alice = user('alice');
    const bob = user('bob');
    const account = em.create(Account, {
      user: alice,
      name: 'Checking',
      nameKey: 'checking',
      type: 'Checking',
      openingBalance: 0,
      openingDate: '2026-01-01',
      applySuggestions: true,
      onBudget: true,
      createdAt: now,
    });
    const budget = em.create(Budget, {
      user: alice,
      name: 'May',
      startDate: '2026-05-01',
      endDate: '2026-05-31',
      amount: 0,
      createdAt: now,
    });
    const item = em.create(LineItem, {
      user: alice,
      budget,
      name: 'Food',
      amount: 100,
      type: 'Variable',
      relatedCategories: [],
      createdAt: now,
    });
    await em.flush();
    Object.assign(ids, { alice: alice.id, bob: bob.id, account: account.id, lineItem: item.id });
  });

  afterAll(async () => {
    await orm?.close(true);
    rmSync(dir, { recursive: true, force: true });
  });

  async function refusal(run: () => Promise<unknown>) {
    const error = await run().then(
      () => null,
      (e: unknown) => e,
    );
    expect(isAppError(error)).toBe(true);
    return error as { code: string; status: number; message: string };
  }

  it("returns the owner's row", async () => {
    const account = await findOwned(orm!.em.fork(), Account, ids.alice, ids.account);
    expect(account).toBeInstanceOf(Account);
    expect(account.name).toBe('Checking');
  });

  it("answers another user's row with the same 404 as a missing one", async () => {
    const theirs = await refusal(() => findOwned(orm!.em.fork(), Account, ids.bob, ids.account));
    const missing = await refusal(() => findOwned(orm!.em.fork(), Account, ids.bob, 999_999));
    expect(theirs).toMatchObject({ code: 'NOT_FOUND', status: 404, message: `Account ${ids.account} not found` });
    expect(missing).toMatchObject({ code: 'NOT_FOUND', status: 404, message: 'Account 999999 not found' });
  });

  it.each([
    [
      'LineItem',
      () => findOwned(orm!.em.fork(), LineItem, ids.bob, ids.lineItem),
      () => `Line item ${ids.lineItem} not found`,
    ],
    ['Budget', () => findOwned(orm!.em.fork(), Budget, ids.alice, 424_242), () => 'Budget 424242 not found'],
    [
      'Batch (string id)',
      () => findOwned(orm!.em.fork(), Batch, ids.alice, 'no-such-batch'),
      () => 'Batch no-such-batch not found',
    ],
  ] as [string, () => Promise<unknown>, () => string][])('names the kind of row: %s', async (_name, run, message) => {
    expect((await refusal(run)).message).toBe(message());
  });
});
