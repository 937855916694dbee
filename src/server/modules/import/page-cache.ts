import type { SqlTx } from '../../db/sql';

/** SQLite's page cache while an import writes, in KiB: the pages of the rows it adds need not stay in memory. */
export const IMPORT_PAGE_CACHE_KIB = 8000;

/**
 * Runs an import's writes with SQLite's page cache (32 MB for reads, see orm-options.ts) held to
 * IMPORT_PAGE_CACHE_KIB, then gives the cache its size back: without it a large import fills the
 * whole cache with the new rows' pages, and the server's memory grows with the file.
 */
export async function withSmallPageCache<T>(db: SqlTx, work: () => Promise<T>): Promise<T> {
  if (db.dialect !== 'sqlite') return work();
  const [before] = await db.all<{ cache_size: number }>('pragma cache_size');
  await db.run(`pragma cache_size = -${IMPORT_PAGE_CACHE_KIB}`);
  try {
    return await work();
  } finally {
    if (before) await db.run(`pragma cache_size = ${Math.trunc(before.cache_size)}`);
  }
}
