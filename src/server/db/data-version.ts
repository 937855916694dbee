/**
 * A cheap check of whether the database may have changed since an answer was computed, for answers kept between
 * requests (the plan's, plan.service.ts). It is read before the answer's own reads, so a change that lands between
 * the two only makes the next check differ (the kept answer is computed again, never served stale).
 */
import type { EntityManager } from '@mikro-orm/knex';
import type BetterSqlite3 from 'better-sqlite3';
import { withPooledConnection } from './knex-internals';
import { onPostgres, selectRows } from './sql';

export interface DataVersion {
  /** What the token is counted on: a token is comparable only with one of the same owner. */
  owner: object;
  token: string;
}

const statements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement<[], { c: number; v: number }>>();

/**
 * SQLite: the rows the app's one write connection has changed (its own writes, committed or rolled back, triggers'
 * included) with `pragma data_version` (commits by any other connection or process), counted on that connection;
 * null inside a transaction (its writes are not settled).
 * PostgreSQL: the snapshot the statement reads (`pg_current_snapshot()`: which transactions it sees as finished).
 * Two equal snapshots see the same committed rows, in any server process on the database, so any commit anywhere
 * changes it; null once the caller's transaction has written (its own writes are not settled).
 */
export async function dataVersion(em: EntityManager): Promise<DataVersion | null> {
  if (onPostgres(em)) return postgresVersion(em);
  if (em.getTransactionContext() !== undefined) return null;
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

async function postgresVersion(em: EntityManager): Promise<DataVersion | null> {
  const [row] = await selectRows<{ snapshot: string; written: boolean }>(
    em,
    'select pg_current_snapshot()::text as snapshot, pg_current_xact_id_if_assigned() is not null as written',
  );
  return row && !row.written ? { owner: em.getDriver(), token: row.snapshot } : null;
}
