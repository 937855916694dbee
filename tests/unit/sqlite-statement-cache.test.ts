import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { cacheSqliteStatements, type KnexSqliteClient } from '../../src/server/db/sql';

/**
 * Knex's better-sqlite3 client prepares each statement anew; cacheSqliteStatements keeps them by
 * SQL text and answers exactly what knex's own _query answers (rows of a read, lastID and
 * changes of a write, booleans and dates bound as numbers), leaving a query that sets its own
 * safeIntegers mode to knex.
 */
function setup() {
  const db = new Database(':memory:');
  db.exec('create table t (id integer primary key, flag integer, at integer, name text)');
  let prepares = 0;
  const prepare = db.prepare.bind(db);
  db.prepare = (sql: string) => {
    prepares += 1;
    return prepare(sql);
  };
  let fallbacks = 0;
  const client: KnexSqliteClient = {
    _query: (_connection, obj) => {
      fallbacks += 1;
      return Promise.resolve({ ...obj, response: 'knex' });
    },
  };
  cacheSqliteStatements(client);
  return { db, client, prepares: () => prepares, fallbacks: () => fallbacks };
}

describe('cacheSqliteStatements', () => {
  it('prepares a statement once and answers as knex does', async () => {
    const { db, client, prepares } = setup();
    const insert = 'insert into t (flag, at, name) values (?, ?, ?)';
    const first = await client._query(db, { sql: insert, bindings: [true, new Date(5000), 'a'] });
    const second = await client._query(db, { sql: insert, bindings: [false, new Date(6000), 'b'] });
    expect(first.context).toEqual({ lastID: 1, changes: 1 });
    expect(second.context).toEqual({ lastID: 2, changes: 1 });
    const select = 'select id, flag, at, name from t where id >= ? order by id';
    expect((await client._query(db, { sql: select, bindings: [1] })).response).toEqual([
      { id: 1, flag: 1, at: 5000, name: 'a' },
      { id: 2, flag: 0, at: 6000, name: 'b' },
    ]);
    expect((await client._query(db, { sql: select, bindings: [2] })).response).toEqual([
      { id: 2, flag: 0, at: 6000, name: 'b' },
    ]);
    expect((await client._query(db, { sql: 'select count(*) as n from t' })).response).toEqual([{ n: 2 }]);
    expect(prepares()).toBe(3);
  });

  it('keeps statements per connection and leaves safeIntegers queries to knex', async () => {
    const { db, client, prepares, fallbacks } = setup();
    const other = new Database(':memory:');
    await client._query(db, { sql: 'select 1 as one' });
    expect((await client._query(other, { sql: 'select 2 as two' })).response).toEqual([{ two: 2 }]);
    expect((await client._query(db, { sql: 'select 1 as one', options: { safeIntegers: true } })).response).toBe(
      'knex',
    );
    expect(fallbacks()).toBe(1);
    expect(prepares()).toBe(1);
  });

  it('reports a bad statement as knex would, and still works after it', async () => {
    const { db, client } = setup();
    await expect(client._query(db, { sql: 'select x from nowhere_table' })).rejects.toThrow(/no such table/);
    expect((await client._query(db, { sql: 'select 3 as three' })).response).toEqual([{ three: 3 }]);
  });
});
