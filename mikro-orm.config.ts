import { defineConfig, type Options } from '@mikro-orm/better-sqlite';
import type BetterSqlite3 from 'better-sqlite3';
import { Migrator } from '@mikro-orm/migrations';
import { entities } from './src/server/db/entities';
import { migrationsList } from './src/server/db/migrations';
import { registerSqlFunctions } from './src/server/modules/transactions/sql-dialect';

/**
 * The ORM's options for a database file. SQLite runs in WAL mode (readers never
 * wait for a writer) with foreign keys enforced; migrations are listed in code so
 * they also run from the bundled server.
 */
export function ormOptions(databaseFile: string, debug = false): Options {
  return defineConfig({
    dbName: databaseFile,
    entities,
    extensions: [Migrator],
    debug,
    allowGlobalContext: false,
    forceUndefined: false,
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: BetterSqlite3.Database, done: (err: Error | null, conn: unknown) => void) {
        try {
          connection.pragma('journal_mode = WAL');
          connection.pragma('foreign_keys = ON');
          connection.pragma('busy_timeout = 5000');
          // A 32 MB page cache (default 2 MB): years of history read back without going to the file.
          connection.pragma('cache_size = -32000');
          // fold() and payee_key(): see sql-dialect.ts.
          registerSqlFunctions(connection);
          done(null, connection);
        } catch (error) {
          done(error as Error, connection);
        }
      },
    },
    migrations: {
      migrationsList,
      path: 'src/server/db/migrations',
      pathTs: 'src/server/db/migrations',
      emit: 'ts',
      snapshot: false,
      transactional: true,
      allOrNothing: true,
      silent: true,
    },
  });
}

// For the MikroORM CLI (`npx mikro-orm migration:create`): the default data file.
export default ormOptions(process.env.DATABASE_FILE ?? 'data/budget-tracker.sqlite');
