/**
 * A cheap check of whether the database may have changed since an answer was computed, for answers kept between
 * requests (the plan's, plan.service.ts). It is read before the answer's own reads, so a change that lands between
 * the two only makes the next check differ (the kept answer is computed again, never served stale).
 */
import type { EntityManager } from '@mikro-orm/knex';
import type BetterSqlite3 from 'better-sqlite3';
import { withPooledConnection } from './knex-internals';
import { onPostgres } from './sql';

export interface DataVersion {
  /** What the token is counted on: a token is comparable only with one of the same owner. */
  owner: object;
  token: string;
}

const statements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement<[], { c: number; v: number }>>();

/**
 * SQLite: the rows the app's one write connection has changed (its own writes, committed or rolled back, triggers'
 * included) with `pragma data_version` (commits by any other connection or process), counted on that connection.
 * Null inside a transaction (its writes are not settled) and on PostgreSQL, where nothing is kept: several server
 * processes may share one database, and no counter is both cheap and shared there.
 */
export async function dataVersion(em: EntityManager): Promise<DataVersion | null> {
  if (em.getTransactionContext() !== undefined || onPostgres(em)) return null;
  return withPooledConnection(em, (connection) => {
    const db = connection as BetterSqlite3.Database;
    let statement = statements.get(db);
    if (!statement) {
      statement = db.prepare<[], { c: number; v: number }>(
        'select total_changes() as c, (select data_version from pragma_data_version) as v',
      );
      statements.set(db, statement);
    }
    const row = statement.get();
    return Promise.resolve(row ? { owner: db, token: `${row.v}:${row.c}` } : null);
  });
}
