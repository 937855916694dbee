import type { MigrationObject } from '@mikro-orm/core';
import type BetterSqlite3 from 'better-sqlite3';
import { registerSqlFunctions } from './sql';
import { entities } from './entities';

/** Where the data lives: a SQLite file (the default) or a PostgreSQL database (DATABASE_URL). */
export type DatabaseTarget = { dialect: 'sqlite'; file: string } | { dialect: 'postgresql'; url: string };

export function databaseTarget(config: { databaseFile: string; databaseUrl?: string }): DatabaseTarget {
  return config.databaseUrl
    ? { dialect: 'postgresql', url: config.databaseUrl }
    : { dialect: 'sqlite', file: config.databaseFile };
}

// No Migrator extension: `orm.migrator` loads @mikro-orm/migrations on first use (database.ts), so
// a start on a current database never loads it, nor the migrations' code.
const common = {
  entities,
  allowGlobalContext: false,
  forceUndefined: false,
};

const migrationDefaults = {
  emit: 'ts',
  snapshot: false,
  transactional: true,
  allOrNothing: true,
  silent: true,
} as const;

/**
 * Every committed migration of a dialect, loaded on demand (see migration-names.ts). Before the
 * ORM's migrator is used, they go into its options (migratorOf in database.ts).
 */
export async function loadMigrationsList(dialect: DatabaseTarget['dialect']): Promise<MigrationObject[]> {
  return dialect === 'postgresql'
    ? (await import('./migrations-pg')).migrationsList
    : (await import('./migrations')).migrationsList;
}

/**
 * The ORM's options for either database. SQLite runs in WAL mode (readers never wait for a
 * writer) with foreign keys enforced; PostgreSQL through a pool. Each dialect has its own
 * migrations, listed in code so they also run from the bundled server (loadMigrationsList).
 * Only the chosen dialect's driver is loaded (the other one's packages cost start-up time and memory).
 */
export async function ormOptions(target: DatabaseTarget, debug = false) {
  if (target.dialect === 'postgresql') {
    const [{ defineConfig: postgresConfig }, { default: pg }] = await Promise.all([
      import('@mikro-orm/postgresql'),
      import('pg'),
    ]);
    // PostgreSQL answers count(*), sum() and the money columns (bigint: cents.type.ts) as int8 /
    // numeric, which node-postgres reads as text. Money is integer cents (at most 10^13 each), so
    // both are read as numbers, as SQLite gives them, in this one place for raw SQL and the ORM
    // alike. A sum beyond 2^53 becomes a number that is not a safe integer, which the readers of
    // sums reject (Number.isSafeInteger), as on SQLite.
    pg.types.setTypeParser(pg.types.builtins.INT8, (text: string) => Number(text));
    pg.types.setTypeParser(pg.types.builtins.NUMERIC, (text: string) => Number(text));
    return postgresConfig({
      ...common,
      clientUrl: target.url,
      debug,
      pool: { min: 0, max: 10 },
      migrations: {
        ...migrationDefaults,
        path: 'src/server/db/migrations-pg',
        pathTs: 'src/server/db/migrations-pg',
      },
    });
  }
  const { defineConfig: sqliteConfig } = await import('@mikro-orm/better-sqlite');
  return sqliteConfig({
    ...common,
    dbName: target.file,
    debug,
    pool: {
      min: 1,
      max: 1,
      afterCreate(connection: BetterSqlite3.Database, done: (err: Error | null, conn: unknown) => void) {
        try {
          connection.pragma('journal_mode = WAL');
          connection.pragma('foreign_keys = ON');
          connection.pragma('busy_timeout = 5000');
          // fold() and payee_key(): see sql.ts.
          registerSqlFunctions(connection);
          done(null, connection);
        } catch (error) {
          done(error as Error, connection);
        }
      },
    },
    migrations: {
      ...migrationDefaults,
      path: 'src/server/db/migrations',
      pathTs: 'src/server/db/migrations',
    },
  });
}
