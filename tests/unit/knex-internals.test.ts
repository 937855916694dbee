import { createRequire } from 'node:module';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { KNEX_VERSION_WRITTEN_FOR, transactionConnection } from '../../src/server/db/knex-internals';

/** The knex that MikroORM's SQL driver loads. */
function installedKnexVersion(): string {
  const fromMikroOrm = createRequire(createRequire(import.meta.url).resolve('@mikro-orm/knex'));
  return (fromMikroOrm('knex/package.json') as { version: string }).version;
}

describe('knex internals', () => {
  it('were written for the knex that is installed (an upgrade must check db/knex-internals.ts again)', () => {
    expect(installedKnexVersion()).toBe(KNEX_VERSION_WRITTEN_FOR);
  });

  it('hand out the driver connection a transaction runs on, and refuse outside one', async () => {
    const orm = await openDatabase({ dialect: 'sqlite', file: ':memory:' });
    try {
      const em = orm.em.fork();
      await expect(transactionConnection(em)).rejects.toThrow('only handed out inside a transaction');
      await em.transactional(async (tem) => {
        const connection = await transactionConnection(tem);
        expect(connection).toBeInstanceOf(Database);
        // The same connection the ORM's statements run on: it sees the transaction's own writes.
        await tem.getConnection().execute('create table probe (n integer)', [], 'run', tem.getTransactionContext());
        expect((connection as Database.Database).prepare('select count(*) as n from probe').get()).toEqual({ n: 0 });
      });
    } finally {
      await orm.close(true);
    }
  });
});
