import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../src/server/db/entities';
import { signUp } from '../helpers/api';
import { startServer, type TestServer } from '../helpers/server';

/**
 * Each dialect's committed migrations, applied to an empty database, give exactly the schema
 * the entities describe (this file runs in the `integration` project on SQLite and in
 * `integration-pg` on PostgreSQL).
 */
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await server.close();
});

describe(`the migrations`, () => {
  it('build the schema of the entities (nothing left to update)', async () => {
    const diff = await server.app.orm.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim(), `${server.database}: migrations and entities differ`).toBe('');
  });

  it.runIf(process.env.TEST_DATABASE === 'postgresql')(
    'put row-level security on every table with a user_id column (PostgreSQL)',
    async () => {
      const tables = await server.sql<{ table_name: string; rls: boolean; forced: boolean }>(
        `select c.table_name, k.relrowsecurity as rls, k.relforcerowsecurity as forced
         from information_schema.columns c join pg_class k on k.relname = c.table_name and k.relkind = 'r'
        where c.table_schema = 'public' and c.column_name = 'user_id' order by 1`,
      );
      // The sign-in bookkeeping tables are read before anyone is signed in (login, refresh): not user data.
      const bookkeeping = new Set(['refresh_token', 'sign_in']);
      const userOwned = tables.filter((t) => !bookkeeping.has(t.table_name));
      expect(userOwned.length).toBeGreaterThanOrEqual(8);
      expect(userOwned.filter((t) => !t.rls || !t.forced).map((t) => t.table_name)).toEqual([]);
      const all = await server.sql<{ tablename: string }>(
        "select tablename from pg_tables where schemaname = 'public'",
      );
      const names = new Set(all.map((t) => t.tablename));
      // Every entity table is there (EntityBase is abstract: its columns live in the others).
      const tablesOfEntities = entities
        .filter((entity) => !entity.meta.abstract)
        .map((entity) => entity.meta.tableName);
      expect(tablesOfEntities.filter((table) => !names.has(table ?? ''))).toEqual([]);
    },
  );
});

/**
 * Split parts are found by their parent through an index that holds only rows with a parent:
 * imported rows (never parts) add nothing to it, and every lookup of parts stays indexed.
 */
describe('the index of split parts', () => {
  const INDEX = 'transaction_parent_id_partial_index';
  const lookups = [
    'select id from "transaction" where user_id = 1 and parent_id = 2',
    // Without the user's condition: on an empty table without statistics, the user's index and this
    // one tie for `user_id = ? and parent_id in (...)`; the question here is whether an IN list may use it.
    'select id from "transaction" where parent_id in (2, 3)',
    'delete from "transaction" where user_id = 1 and parent_id in (select id from "transaction" where batch_id = \'b\' and user_id = 1)',
    'update "transaction" set is_split = false where user_id = 1 and is_split = true and not exists (select 1 from "transaction" c where c.parent_id = "transaction".id)',
  ];

  beforeAll(async () => {
    if (server.database !== 'postgresql') return;
    // Without statistics, PostgreSQL's costs for an empty table tie between this index and the
    // user's covering index, and which one wins turns on the width of unrelated columns (amount
    // int or bigint). So the planner gets what a real database has: a user's rows, none of them
    // parts, analyzed; the lookups below (user 1) must then use the index on their merits.
    const user = await signUp(server.url);
    expect(user.userId).toBe(1);
    await server.sql(
      `insert into "transaction" (user_id, post_date, description, amount, type, is_split, created_at)
       select 1, '2024-01-01', 'row ' || g, -100, 'debit', false, '2024-01-01T00:00:00.000Z' from generate_series(1, 5000) g`,
    );
    await server.sql('analyze "transaction"');
  });

  it('holds only rows that have a parent', async () => {
    const definition =
      server.database === 'sqlite'
        ? (
            await server.sql<{ sql: string }>('select sql from sqlite_master where type = ? and name = ?', [
              'index',
              INDEX,
            ])
          )[0]?.sql
        : (await server.sql<{ indexdef: string }>('select indexdef from pg_indexes where indexname = ?', [INDEX]))[0]
            ?.indexdef;
    expect(definition).toMatch(/\bwhere\s+\(?\s*[`"]?parent_id[`"]?\s+is\s+not\s+null\s*\)?\s*$/i);
  });

  it.each(lookups)('serves %s', async (lookup) => {
    let plan: string;
    if (server.database === 'sqlite') {
      plan = (await server.sql<{ detail: string }>(`explain query plan ${lookup}`)).map((row) => row.detail).join('\n');
    } else {
      // Tables this small are read whole unless sequential scans are ruled out; then the index must exist to be used.
      await server.sql('set enable_seqscan = off');
      plan = (await server.sql<{ 'QUERY PLAN': string }>(`explain ${lookup}`))
        .map((row) => row['QUERY PLAN'])
        .join('\n');
      await server.sql('reset enable_seqscan');
    }
    expect(plan).toContain(INDEX);
  });
});

/**
 * Every index on the transaction table costs each imported row an entry (a large import spends more
 * time in its indexes than in the table), so the table keeps only the indexes its
 * queries use. No query looks rows up by category alone: every search, overview, envelope, report
 * and suggestion reads one user's rows, through the user's covering index, which holds category_id.
 * The two partial indexes hold only the rows that have a value: split parts, and transfers' sides.
 */
describe('the indexes of the transaction table', () => {
  it('are the ones its queries use, and no index on category_id alone', async () => {
    const names =
      server.database === 'sqlite'
        ? (
            await server.sql<{ name: string }>(
              "select name from sqlite_master where type = 'index' and tbl_name = 'transaction' and sql is not null",
            )
          ).map((row) => row.name)
        : (
            await server.sql<{ indexname: string }>(
              "select indexname from pg_indexes where tablename = 'transaction' and indexname <> 'transaction_pkey'",
            )
          ).map((row) => row.indexname);
    expect(names.sort()).toEqual([
      'transaction_account_post_date_amount_split_index',
      'transaction_batch_id_index',
      'transaction_parent_id_partial_index',
      'transaction_transfer_id_partial_index',
      'transaction_user_post_date_covering_index',
    ]);
  });

  it.runIf(process.env.TEST_DATABASE !== 'postgresql')(
    'serve a search by categories through the user covering index (SQLite)',
    async () => {
      const plan = await server.sql<{ detail: string }>(
        `explain query plan select id from "transaction" t where t.user_id = 1 and t.post_date between '2024-01-01' and '2024-12-31' and t.category_id in (1, 2)`,
      );
      expect(plan.map((row) => row.detail).join('\n')).toContain('transaction_user_post_date_covering_index');
    },
  );
});
