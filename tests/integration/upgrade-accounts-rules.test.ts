import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationNames } from '../../src/server/db/migration-names';
import { migratorOf } from '../../src/server/db/database';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * The upgrades that opening balances and distinct rule names brought, run again on each database:
 * the schema is put back as it was before the migration, data an older release could hold is
 * written, and the migration runs as an upgrade would.
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

function migrationNamed(suffix: string): string {
  const name = migrationNames[server.database].find((m) => m.endsWith(suffix));
  if (!name) throw new Error(`no migration ${suffix}`);
  return name;
}

async function rerun(suffix: string): Promise<void> {
  const name = migrationNamed(suffix);
  await server.sql('delete from mikro_orm_migrations where name = ?', [name]);
  const migrator = await migratorOf(server.app.orm, server.database);
  await migrator.up({ migrations: [name] });
}

async function add(user: ApiUser, postDate: string, amount: number, account: string) {
  return ok<{ id: number }>(await user.post('/api/transactions', { postDate, description: 'row', amount, account })).id;
}

describe('upgrading to opening balances', () => {
  it('keeps every balance: opening balance = the old balance minus the counted rows, dated before the first', async () => {
    const user = await signUp(server.url);
    const other = await signUp(server.url);
    ok(await user.post('/api/accounts', { name: 'Main', type: 'checking' }));
    ok(await user.post('/api/accounts', { name: 'Empty', type: 'cash' }));
    ok(await other.post('/api/accounts', { name: 'Theirs', type: 'savings' }));
    await add(user, '2024-03-10', 2_000, 'Main');
    const split = await add(user, '2024-02-01', -1_000, 'Main');
    ok(
      await user.post(`/api/transactions/${split}/split`, {
        splits: [
          { amount: -600, category: 'A' },
          { amount: -400, category: 'B' },
        ],
      }),
    );
    await add(other, '2023-12-31', 50, 'Theirs');

    // As an older release stored them: one balance, the account's balance after all its rows.
    await server.sql('alter table account drop column opening_date');
    await server.sql('alter table account rename column opening_balance to balance');
    await server.sql("update account set balance = 10000 where name = 'Main'");
    await server.sql("update account set balance = 777, created_at = '2024-05-06T10:00:00.000Z' where name = 'Empty'");
    await server.sql("update account set balance = -5 where name = 'Theirs'");
    await rerun('_opening_balance');

    const mine = ok<{ id: number; name: string; balance: number; openingBalance: number; openingDate: string }[]>(
      await user.get('/api/accounts'),
    );
    expect(mine.map((a) => [a.name, a.balance, a.openingBalance, a.openingDate])).toEqual([
      ['Empty', 777, 777, '2024-05-06'],
      ['Main', 10_000, 10_000 - 2_000 + 1_000, '2024-01-31'],
    ]);
    const theirs = ok<{ balance: number; openingBalance: number; openingDate: string }[]>(
      await other.get('/api/accounts'),
    );
    expect(theirs[0]).toMatchObject({ balance: -5, openingBalance: -55, openingDate: '2023-12-30' });
    const main = mine.find((a) => a.name === 'Main');
    const register = ok<{ runningBalance: number }[]>(await user.get(`/api/accounts/${main?.id}/register`));
    expect(register[0]?.runningBalance).toBe(10_000);
  });
});

describe('upgrading to distinct rule names', () => {
  it('keeps the oldest rule its name and numbers the later ones, per user and whatever the case', async () => {
    const user = await signUp(server.url);
    const other = await signUp(server.url);
    const rule = (name: string) => ({
      name,
      conditions: [{ field: 'description', op: 'contains', value: name }],
      actions: { type: 'debit' },
    });
    for (const name of ['Coffee', 'Rent', 'coffee x', 'Tea']) ok(await user.post('/api/rules', rule(name)));
    ok(await other.post('/api/rules', rule('Coffee')));

    // As an older release could store them: names repeated in other cases.
    if (server.database === 'postgresql') {
      await server.sql('alter table rule drop constraint rule_user_name_key_unique');
    } else {
      await server.sql('drop index rule_user_name_key_unique');
    }
    await server.sql('alter table rule drop column name_key');
    await server.sql("update rule set name = 'COFFEE' where name = 'coffee x'");
    await server.sql("update rule set name = 'coffee' where name = 'Tea' and user_id = ?", [user.userId]);
    await rerun('_rule_names');

    const names = ok<{ name: string }[]>(await user.get('/api/rules')).map((r) => r.name);
    expect(names).toEqual(['Coffee', 'Rent', 'COFFEE (2)', 'coffee (3)']);
    expect(ok<{ name: string }[]>(await other.get('/api/rules')).map((r) => r.name)).toEqual(['Coffee']);
    // The names are held distinct from now on.
    expect((await user.post('/api/rules', rule('coffee (2)'))).status).toBe(409);
  });
});
