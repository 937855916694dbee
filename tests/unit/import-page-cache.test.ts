import type BetterSqlite3 from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/server/db/database';
import { transactionConnection } from '../../src/server/db/knex-internals';
import { sqlTx } from '../../src/server/db/sql';
import { IMPORT_PAGE_CACHE_KIB } from '../../src/server/modules/import/import.service';

const cacheSize = (db: BetterSqlite3.Database) => Number(db.pragma('cache_size', { simple: true }));

describe('an import holds the page cache small', () => {
  it('holds the page cache to IMPORT_PAGE_CACHE_KIB while the work runs and gives the old size back, also when the work throws', async () => {
    const orm = await openDatabase({ dialect: 'sqlite', file: ':memory:' });
    try {
      await orm.em.fork().transactional(async (tem) => {
        const db = (await transactionConnection(tem)) as BetterSqlite3.Database;
        const tx = await sqlTx(tem);
        const before = cacheSize(db);
        expect(await tx.withPageCache(IMPORT_PAGE_CACHE_KIB, () => Promise.resolve(cacheSize(db)))).toBe(
          -IMPORT_PAGE_CACHE_KIB,
        );
        expect(cacheSize(db)).toBe(before);
        await expect(
          tx.withPageCache(IMPORT_PAGE_CACHE_KIB, () => {
            expect(cacheSize(db)).toBe(-IMPORT_PAGE_CACHE_KIB);
            return Promise.reject(new Error('the import failed'));
          }),
        ).rejects.toThrow('the import failed');
        expect(cacheSize(db)).toBe(before);
      });
    } finally {
      await orm.close(true);
    }
  });
});
