import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_PREPARED_STATEMENTS,
  pgCountedJsonRows,
  pgPreparedRows,
  runSql,
  selectRows,
  withUserScope,
} from '../../src/server/db/sql';
import { searchTransactionsJsonPage } from '../../src/server/modules/transactions/transactions.query';
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

    /** The SQL knex sends on the app's connections while `work` runs (as sent: after scopeUsersInBegin). */
    async function sentSql<T>(work: () => Promise<T>): Promise<{ result: T; sent: string[] }> {
      // A transaction's statements go through a copy of the client made from its class's prototype.
      const client = Object.getPrototypeOf(a.app.orm.em.getConnection().getKnex().client) as {
        _query: (this: unknown, connection: unknown, obj: { sql?: string }) => Promise<unknown>;
      };
      const patched = client._query;
      const sent: string[] = [];
      client._query = function (connection, obj) {
        const answer = patched.call(this, connection, obj);
        sent.push(obj.sql ?? '');
        return answer;
      };
      try {
        return { result: await work(), sent };
      } finally {
        client._query = patched;
      }
    }

    it('sets the user in the same round trip as the transaction’s BEGIN', async () => {
      const { result, sent } = await sentSql(() =>
        withUserScope(a.app.orm.em.fork(), owner.userId, async (em) => ({
          setting: (await selectRows<{ id: string }>(em, "select current_setting('app.user_id') as id"))[0]?.id,
          users: (await selectRows<{ user_id: number }>(em, 'select distinct user_id from "transaction"')).map(
            (r) => r.user_id,
          ),
        })),
      );
      expect(result).toEqual({ setting: String(owner.userId), users: [owner.userId] });
      expect(sent[0]).toBe(`BEGIN; select set_config('app.user_id', '${owner.userId}', true);`);
      // No second statement sets it: BEGIN, the two reads, COMMIT.
      expect(sent.filter((sql) => sql.includes('set_config'))).toHaveLength(1);
      expect(sent).toHaveLength(4);
    });

    it('sets the user of a scope opened inside a running transaction (a savepoint), and only once per BEGIN', async () => {
      const { result, sent } = await sentSql(() =>
        withUserScope(a.app.orm.em.fork(), owner.userId, async (outer) => {
          const inner = await withUserScope(outer, other.userId, (em) =>
            selectRows<{ user_id: number }>(em, 'select distinct user_id from "transaction"'),
          );
          // A transaction a scope's work opens on another entity manager is not scoped by it.
          const unscoped = await a.app.orm.em
            .fork()
            .transactional((em) => selectRows(em, 'select * from "transaction"'));
          return { inner: inner.map((r) => r.user_id), unscoped };
        }),
      );
      expect(result).toEqual({ inner: [other.userId], unscoped: [] });
      expect(sent.filter((sql) => sql.includes('set_config'))).toHaveLength(2);
      expect(sent.filter((sql) => sql.startsWith('BEGIN'))).toEqual([
        `BEGIN; select set_config('app.user_id', '${owner.userId}', true);`,
        'BEGIN;',
      ]);
    });

    it('runs the search as a statement prepared once per connection, its values sent as parameters', async () => {
      const named = (em: Parameters<typeof selectRows>[0]) =>
        selectRows<{ name: string; statement: string }>(
          em,
          'select name, statement from pg_prepared_statements order by name',
        );
      const { before, answers, after } = await withUserScope(a.app.orm.em.fork(), owner.userId, async (em) => {
        const before = await named(em);
        const answers = [];
        for (const [startDate, endDate] of [
          ['2024-01-01', '2024-01-31'],
          ['2023-01-01', '2023-12-31'],
          ['2024-01-01', '2024-12-31'],
        ]) {
          answers.push(await searchTransactionsJsonPage(em, owner.userId, { startDate, endDate }));
        }
        return { before, answers, after: await named(em) };
      });
      expect(answers.map((answer) => answer.total)).toEqual([1, 0, 1]);
      expect(JSON.parse(String(answers[0]?.json))).toMatchObject([{ description: `row of ${owner.username}` }]);
      // One statement more on the connection (or none when an earlier request prepared it there), whatever the dates.
      const added = after.filter((row) => !before.some((old) => old.name === row.name));
      expect(added.length).toBeLessThanOrEqual(1);
      const search = after.filter(
        (row) =>
          row.statement.includes('"transaction"') &&
          row.statement.includes('with k as') &&
          !row.statement.startsWith('execute'),
      );
      expect(search).toHaveLength(1);
      expect(search[0]?.statement).not.toContain('2024-01-01');
      expect(search[0]?.statement).toContain('$1');
    });

    it('counts and reads rows in one statement: all of them, one page, or none over the cap, always with their count', async () => {
      const answers = await withUserScope(a.app.orm.em.fork(), owner.userId, async (em) => {
        ok(
          await owner.post('/api/transactions', {
            postDate: '2022-06-01',
            description: 'second row',
            amount: -1,
            account: 'Main',
          }),
        );
        const ids = (await selectRows<{ id: number }>(em, 'select id from "transaction" order by id desc')).map(
          (row) => row.id,
        );
        const read = async (max: number, page: { limit: number; offset: number } | null, where = 't.user_id = ?') => {
          const answer = await pgCountedJsonRows(
            em,
            {
              columns: 't.id',
              json: 'cast(s.id as text)',
              from: '"transaction" t',
              where,
              orderBy: 't.id desc',
              page,
              max,
            },
            [owner.userId],
          );
          return { json: answer.json.toString(), total: answer.total };
        };
        return {
          ids,
          all: await read(10, null),
          over: await read(1, null),
          page: await read(Number.MAX_SAFE_INTEGER, { limit: 1, offset: 1 }),
          beyond: await read(Number.MAX_SAFE_INTEGER, { limit: 1, offset: 5 }),
          none: await read(10, null, 't.user_id = ? and false'),
        };
      });
      expect(answers.ids.length).toBeGreaterThanOrEqual(2);
      const total = answers.ids.length;
      expect(answers.all).toEqual({ json: JSON.stringify(answers.ids), total });
      expect(answers.over).toEqual({ json: '[]', total });
      expect(answers.page).toEqual({ json: JSON.stringify(answers.ids.slice(1, 2)), total });
      expect(answers.beyond).toEqual({ json: '[]', total });
      expect(answers.none).toEqual({ json: '[]', total: 0 });
    });

    it('reads outside a transaction in one round trip scoped to the user, and leaves neither the scope nor the plan setting on the pooled connection', async () => {
      const read = (scope?: number) =>
        pgCountedJsonRows(
          a.app.orm.em.fork(),
          {
            columns: 't.user_id',
            json: 'cast(s.user_id as text)',
            from: '"transaction" t',
            where: 'true',
            orderBy: 't.user_id',
            page: null,
            max: 1000,
          },
          [],
          scope,
        );
      // The query forgets its user condition: row-level security answers the scoped user's rows only, and none unscoped.
      const [mine, theirs, unscoped] = [await read(owner.userId), await read(other.userId), await read()];
      expect(new Set(JSON.parse(mine.json.toString()) as number[])).toEqual(new Set([owner.userId]));
      expect(new Set(JSON.parse(theirs.json.toString()) as number[])).toEqual(new Set([other.userId]));
      expect({ json: unscoped.json.toString(), total: unscoped.total }).toEqual({ json: '[]', total: 0 });
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
        // The two scoped reads' statement ran on its generic plan from the first run on (none planned for its values).
        const plans = await Promise.all(
          held.map(
            async (connection) =>
              (
                await connection.query(
                  "select coalesce(sum(generic_plans), 0)::int as generic, coalesce(sum(custom_plans), 0)::int as custom from pg_prepared_statements where statement like '%cast(s.user_id as text)%'",
                )
              ).rows[0] as unknown as { generic: number; custom: number },
          ),
        );
        expect(plans.reduce((sum, row) => sum + row.custom, 0)).toBe(0);
        expect(plans.reduce((sum, row) => sum + row.generic, 0)).toBe(2);
      } finally {
        await Promise.all(held.map((connection) => pool.releaseConnection(connection)));
      }
    });

    it('prepares at most MAX_PREPARED_STATEMENTS statements on a connection, and answers the rest all the same', async () => {
      const { answers, prepared } = await withUserScope(a.app.orm.em.fork(), owner.userId, async (em) => {
        const answers: number[] = [];
        for (let i = 0; i < MAX_PREPARED_STATEMENTS + 20; i++) {
          const [row] = await pgPreparedRows<{ n: number }>(em, `select ?::int + ${i} as n`, [1]);
          answers.push(row?.n ?? -1);
        }
        const [count] = await selectRows<{ n: string }>(em, 'select count(*) as n from pg_prepared_statements');
        return { answers, prepared: Number(count?.n) };
      });
      expect(answers).toEqual(Array.from({ length: MAX_PREPARED_STATEMENTS + 20 }, (_, i) => 1 + i));
      expect(prepared).toBe(MAX_PREPARED_STATEMENTS);
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

  it('marks the pages an import wrote all-visible once it commits (a count of its rows reads no table page)', async () => {
    const user = await signUp(a.url);
    ok(await user.post('/api/accounts', { name: 'Fresh', type: 'checking' }));
    const lines = ['Date,Description,Amount'];
    for (let i = 0; i < 2000; i += 1)
      lines.push(`2024-03-${String((i % 28) + 1).padStart(2, '0')},Fresh ${i},-${(i % 90) + 1}.00`);
    const body = new FormData();
    body.append('file', new Blob([lines.join('\n')]), 'fresh.csv');
    body.append('account', 'Fresh');
    body.append('transactionType', 'debit');
    expect((await rest(a.url, 'POST', '/api/upload', { token: user.token, body })).status).toBe(201);
    const plan = () =>
      withUserScope(a.app.orm.em.fork(), user.userId, async (em) => {
        await runSql(em, 'set local enable_seqscan = off');
        await runSql(em, 'set local enable_bitmapscan = off');
        const [row] = await selectRows<{ 'QUERY PLAN': unknown }>(
          em,
          'explain (analyze, format json) select count(*) from "transaction" t where t.user_id = ?',
          [user.userId],
        );
        return JSON.stringify(row?.['QUERY PLAN']);
      });
    expect(await plan()).toContain('"Index Only Scan"');
    expect(await plan()).toContain('"Actual Rows":2000');
    // Polled: when autovacuum happens to hold the table as the import ends, the import's VACUUM skips it (SKIP_LOCKED)
    // and autovacuum marks the pages a moment later. Without the import's VACUUM they stay unmarked until autovacuum
    // next comes by (a minute or more on a table this size), well past the poll.
    await expect.poll(plan).toContain('"Heap Fetches":0');
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
