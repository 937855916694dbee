import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entities } from '../../src/server/db/entities';
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

  it.runIf(process.env.TEST_DATABASE === 'postgresql')('put row-level security on every table with a user_id column (PostgreSQL)', async () => {
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
    const all = await server.sql<{ tablename: string }>("select tablename from pg_tables where schemaname = 'public'");
    const names = new Set(all.map((t) => t.tablename));
    // Every entity table is there (EntityBase is abstract: its columns live in the others).
    const tablesOfEntities = entities.filter((entity) => !entity.meta.abstract).map((entity) => entity.meta.tableName);
    expect(tablesOfEntities.filter((table) => !names.has(table ?? ''))).toEqual([]);
  });
});
