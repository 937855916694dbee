import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSql, selectRows, withUserScope } from '../../src/server/db/sql';
import { scopedPreparedRows } from '../../src/server/db/transaction-reads/postgres-search';
import { ok, signUp, type ApiUser } from '../helpers/api';
import { rest } from '../helpers/http';
import { startServer, testDatabase, type TestServer } from '../helpers/server';

/**
 * PostgreSQL alone (the `integration-pg` project): row-level security, and the state that must
 * hold across several processes on one database, shown with two app instances sharing it.
 */
const SECRET = 'x'.repeat(40);
const ENV = { JWT_SECRET: SECRET, LOGIN_MAX_FAILURES: '3' };

describe.runIf(testDatabase === 'postgresql')('PostgreSQL', () => {
  let a: TestServer;
  let b: TestServer;
  beforeAll(async () => {
    a = await startServer(ENV);
    b = await startServer({ ...ENV, DATABASE_URL: a.config.databaseUrl! });
  });
  afterAll(async () => {
    await b?.close();

    await a?.close();
  });

  describe('row-level security', () => {
    let owner: ApiUser;
    let other: ApiUser;
    beforeAll(async () => {
      owner = await signUp(a.url);
      other = await signUp(a.url);
      for (const user of [owner, other]) {
        ok(await user.post('/api/accounts', { name: 'Main', type: 'checking' }));
        ok(
          await user.post('/api/transactions', {
            postDate: '2024-01-02',
            description: `row of ${user.username}`,
            amount: -500,
            account: 'Main',
            category: 'Food',
          }),
        );
        ok(
          await user.post('/api/rules', {
            name: 'Coffee',
            conditions: [{ field: 'description', op: 'contains', value: 'coffee' }],
            actions: { category: 'Cafe' },
            createCategory: true,
          }),
        );
        ok(await user.post('/api/budgets', { name: 'Year', startDate: '2024-01-01', endDate: '2024-12-31' }));
        ok(await user.post('/api/envelopes', { name: 'Fun', categories: ['Food'] }));
      }
    });

    it('lets a query that forgets its user condition see only the signed-in user’s rows', async () => {
      const seen = await withUserScope(a.app.orm.em.fork(), owner.userId, async (em) => ({
        transactions: await selectRows<{ user_id: number; description: string }>(
          em,
          'select user_id, description from "transaction"',
        ),
        accounts: await selectRows<{ user_id: number }>(em, 'select user_id from account'),
        categories: await selectRows<{ user_id: number }>(em, 'select user_id from category'),
      }));
      expect(seen.transactions).toEqual([{ user_id: owner.userId, description: `row of ${owner.username}` }]);
      expect(seen.accounts.map((r) => r.user_id)).toEqual([owner.userId]);
      expect(seen.categories.every((r) => r.user_id === owner.userId)).toBe(true);
      // The rows are there: a superuser (which bypasses the policies) sees both users'.
      expect((await a.sql('select count(*) as n from "transaction"'))[0].n).toBeGreaterThanOrEqual(2);
    });

    it('filters every table with a user_id column the same way, whatever migration added it', async () => {
      const tables = (
        await a.sql<{ table_name: string }>(
          `select table_name from information_schema.columns where table_schema = 'public' and column_name = 'user_id' order by 1`,
        )
      )
        .map((t) => t.table_name)
        // The sign-in bookkeeping is read before anyone is signed in (login, refresh): not user data.
        .filter((table) => !['refresh_token', 'sign_in'].includes(table));
      expect(tables).toEqual(
        expect.arrayContaining(['account', 'batch', 'budget', 'category', 'envelope', 'rule', 'transaction']),
      );
      for (const table of tables) {
        const users = await withUserScope(a.app.orm.em.fork(), owner.userId, (em) =>
          selectRows<{ user_id: number }>(em, `select distinct user_id from "${table}"`),
        );
        expect(
          users.map((r) => r.user_id),
          table,
        ).toEqual(users.length ? [owner.userId] : []);
        // Both users own rows here (or neither does): the filter, not an empty table, hides the other's.
        const all = await a.sql<{ n: number }>(
          `select count(distinct user_id) as n from "${table}" where user_id in (?, ?)`,
          [owner.userId, other.userId],
        );
        expect([0, 2], table).toContain(all[0].n);
      }
    });

    it('sees nothing outside a user scope, and cannot change or add another user’s rows', async () => {
      expect(await selectRows(a.app.orm.em.fork(), 'select * from "transaction"')).toEqual([]);
      await withUserScope(a.app.orm.em.fork(), owner.userId, async (em) => {
        expect(await runSql(em, 'update "transaction" set amount = 1')).toBe(1);
        expect(await runSql(em, 'delete from account where user_id = ?', [other.userId])).toBe(0);
      });
      await expect(
        withUserScope(a.app.orm.em.fork(), owner.userId, (em) =>
          runSql(em, `insert into category (user_id, name, name_key, created_at) values (?, 'Stolen', 'stolen', 'x')`, [
            other.userId,
          ]),
        ),
      ).rejects.toThrow(/row-level security/);
      const theirs = ok<{ amount: number }[]>(
        await other.get('/api/transactions?start_date=2024-01-01&end_date=2024-12-31'),
      );
      expect(theirs.map((t) => t.amount)).toEqual([-500]);
    });

    it('reads the search outside a transaction scoped to the user, and leaves neither the scope nor the plan setting on the pooled connection', async () => {
      const read = (userId: number) =>
        scopedPreparedRows<{ user_id: number }>(
          a.app.orm.em.fork(),
          userId,
          'select t.user_id from "transaction" t',
          [],
        );
      // The query forgets its user condition: row-level security answers the scoped user's rows only.
      expect(new Set((await read(owner.userId)).map((r) => r.user_id))).toEqual(new Set([owner.userId]));
      expect(new Set((await read(other.userId)).map((r) => r.user_id))).toEqual(new Set([other.userId]));
      const search = await rest(a.url, 'GET', '/api/transactions?start_date=2024-01-01&end_date=2024-12-31', {
        token: owner.token,
      });
      expect(search.status).toBe(200);
      expect(search.body.every((t: { id: number }) => typeof t.id === 'number')).toBe(true);
      expect(search.headers.get('x-total-count')).toBe(String(search.body.length));
      // Every connection of the pool (all held at once, so the one the reads used is among them) has no user set.
      const pool = a.app.orm.em.getConnection().getKnex().client as {
        acquireConnection: () => Promise<{
          query: (sql: string) => Promise<{ rows: { id: string | null; plans: string }[] }>;
        }>;
        releaseConnection: (connection: unknown) => Promise<unknown>;
      };
      const held = await Promise.all(Array.from({ length: 10 }, () => pool.acquireConnection()));
      try {
        const settings = await Promise.all(
          held.map(
            async (connection) =>
              (
                await connection.query(
                  "select current_setting('app.user_id', true) as id, current_setting('plan_cache_mode') as plans",
                )
              ).rows[0],
          ),
        );
        expect(settings.map((row) => ({ user: row?.id ?? '', plans: row?.plans }))).toEqual(
          held.map(() => ({ user: '', plans: 'auto' })),
        );
      } finally {
        await Promise.all(held.map((connection) => pool.releaseConnection(connection)));
      }
    });

    it('keeps many users’ scopes apart when their transactions start at once', async () => {
      const users = Array.from({ length: 30 }, (_, i) => (i % 2 ? owner : other));
      const seen = await Promise.all(
        users.map((user) =>
          withUserScope(a.app.orm.em.fork(), user.userId, async (em) =>
            (await selectRows<{ user_id: number }>(em, 'select distinct user_id from "transaction"')).map(
              (r) => r.user_id,
            ),
          ),
        ),
      );
      expect(seen).toEqual(users.map((user) => [user.userId]));
    });
  });

  describe('two processes on one database', () => {
    it('imports the same file into one account exactly once when both import it at the same time', async () => {
      const user = await signUp(a.url);
      ok(await user.post('/api/accounts', { name: 'Checking', type: 'checking' }));
      const lines = ['Date,Description,Amount'];
      for (let i = 0; i < 3000; i += 1)
        lines.push(`2024-02-${String((i % 28) + 1).padStart(2, '0')},Shop ${i},-${(i % 90) + 1}.00`);
      const send = (server: TestServer) => {
        const body = new FormData();
        body.append('file', new Blob([lines.join('\n')]), 'same.csv');
        body.append('account', 'Checking');
        body.append('transactionType', 'debit');
        return rest(server.url, 'POST', '/api/upload', { token: user.token, body });
      };
      const results = await Promise.all([send(a), send(b), send(a), send(b)]);
      expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 201]);
      expect(results.map((r) => r.body.imported).sort((x, y) => x - y)).toEqual([0, 0, 0, 3000]);
      expect((await a.sql('select count(*) as n from "transaction" where user_id = ?', [user.userId]))[0].n).toBe(3000);
    });

    it('counts failed logins across both processes (never more attempts than the limit)', async () => {
      const user = await signUp(a.url);
      const attempts = Array.from({ length: 10 }, (_, i) =>
        rest(i % 2 ? a.url : b.url, 'POST', '/api/auth/login', {
          body: { username: user.username, password: 'wrong password!' },
        }),
      );
      const statuses = (await Promise.all(attempts)).map((r) => r.status);
      expect(statuses.filter((s) => s === 401)).toHaveLength(3);
      expect(statuses.filter((s) => s === 429)).toHaveLength(7);
      expect(
        (await rest(a.url, 'POST', '/api/auth/login', { body: { username: user.username, password: user.password } }))
          .status,
      ).toBe(429);
    });

    it('rotates a refresh token once across processes and ends the sign-in when one is replayed on the other', async () => {
      const login = await rest(a.url, 'POST', '/api/auth/register', {
        body: { username: `rot${Date.now()}`, password: 'correct horse battery' },
      });
      const token = login.body.refreshToken as string;
      const both = await Promise.all([
        rest(a.url, 'POST', '/api/auth/refresh', { token }),
        rest(b.url, 'POST', '/api/auth/refresh', { token }),
      ]);
      expect(both.map((r) => r.status).sort()).toEqual([200, 401]);
      const winner = both.find((r) => r.status === 200)!;
      // The loser was a replay of a spent token: the whole sign-in ended, the new token too.
      expect((await rest(b.url, 'POST', '/api/auth/refresh', { token: winner.body.refreshToken })).status).toBe(401);
    });
  });

  describe('closed registration across processes', () => {
    let c: TestServer;
    let d: TestServer;
    beforeAll(async () => {
      c = await startServer({ ...ENV, ALLOW_REGISTRATION: 'false' });
      d = await startServer({ ...ENV, ALLOW_REGISTRATION: 'false', DATABASE_URL: c.config.databaseUrl! });
    });
    afterAll(async () => {
      await d?.close();

      await c?.close();
    });

    it('lets exactly one of many simultaneous first registrations through', async () => {
      const tries = Array.from({ length: 8 }, (_, i) =>
        rest(i % 2 ? c.url : d.url, 'POST', '/api/auth/register', {
          body: { username: `first${i}`, password: 'correct horse battery' },
        }),
      );
      const statuses = (await Promise.all(tries)).map((r) => r.status);
      expect(statuses.filter((s) => s === 200)).toHaveLength(1);
      expect((await c.sql('select count(*) as n from "user"'))[0].n).toBe(1);
    });
  });
});
