import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import type { SqlTx } from '../../src/server/db/sql';
import { IMPORT_PAGE_CACHE_KIB, withSmallPageCache } from '../../src/server/modules/import/page-cache';

/** The two calls withSmallPageCache makes, on a real SQLite connection. */
function sqliteTx(db: Database.Database, dialect: SqlTx['dialect'] = 'sqlite'): SqlTx {
  return {
    dialect,
    all: (sql: string) => Promise.resolve(db.prepare(sql).all()),
    run: (sql: string) => Promise.resolve(db.prepare(sql).run().changes),
  } as unknown as SqlTx;
}

const cacheSize = (db: Database.Database) =>
  (db.prepare('pragma cache_size').get() as { cache_size: number }).cache_size;

describe('withSmallPageCache', () => {
  it('holds the page cache to IMPORT_PAGE_CACHE_KIB while the work runs and gives the old size back, also when the work throws', async () => {
    const db = new Database(':memory:');
    db.pragma('cache_size = -32000');
    const during = await withSmallPageCache(sqliteTx(db), () => Promise.resolve(cacheSize(db)));
    expect(during).toBe(-IMPORT_PAGE_CACHE_KIB);
    expect(cacheSize(db)).toBe(-32000);
    await expect(
      withSmallPageCache(sqliteTx(db), () => {
        expect(cacheSize(db)).toBe(-IMPORT_PAGE_CACHE_KIB);
        return Promise.reject(new Error('the import failed'));
      }),
    ).rejects.toThrow('the import failed');
    expect(cacheSize(db)).toBe(-32000);
    db.close();
  });

  it('leaves PostgreSQL alone', async () => {
    const db = new Database(':memory:');
    db.pragma('cache_size = -32000');
    expect(await withSmallPageCache(sqliteTx(db, 'postgresql'), () => Promise.resolve(cacheSize(db)))).toBe(-32000);
    db.close();
  });
});
