import { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlDriver, EntityManager } from '@mikro-orm/knex';
import { migrationNames } from './migration-names';
import { loadMigrationsList, ormOptions, type DatabaseTarget } from './orm-options';

/** The app's ORM on either database (SQLite or PostgreSQL); its entity managers speak SQL. */
export type Orm = MikroORM<AbstractSqlDriver, EntityManager>;

/**
 * Opens the database and brings its schema up to date with the committed migrations of its
 * dialect. A database that has applied every one of them (one small read) starts without loading
 * the migration runner or any migration's code.
 */
export async function openDatabase(
  target: DatabaseTarget,
  log: (message: string) => void = () => undefined,
  debug = false,
  beforeMigrations: (orm: Orm) => Promise<void> = () => Promise.resolve(),
): Promise<Orm> {
  const orm = await MikroORM.init<AbstractSqlDriver, EntityManager>(await ormOptions(target, debug));
  try {
    await beforeMigrations(orm);
    if (!(await migrationsCurrent(orm, target.dialect))) {
      const applied = await (await migratorOf(orm, target.dialect)).up();
      for (const migration of applied) log(`applied migration ${migration.name}`);
    }
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}

/** The ORM's migrator, with every committed migration of the dialect loaded into its options first. */
export async function migratorOf(orm: Orm, dialect: DatabaseTarget['dialect']): Promise<Orm['migrator']> {
  const options = orm.config.get('migrations');
  options.migrationsList ??= await loadMigrationsList(dialect);
  return orm.migrator;
}

/** True when the database has applied exactly the committed migrations of its dialect (by name). */
async function migrationsCurrent(orm: Orm, dialect: DatabaseTarget['dialect']): Promise<boolean> {
  const table = orm.config.get('migrations').tableName ?? 'mikro_orm_migrations';
  const connection = orm.em.getConnection();
  const exists = await connection.execute<{ n: number | string }[]>(
    dialect === 'postgresql'
      ? 'select count(*) as n from information_schema.tables where table_schema = current_schema() and table_name = ?'
      : "select count(*) as n from sqlite_master where type = 'table' and name = ?",
    [table],
  );
  if (Number(exists[0]?.n ?? 0) === 0) return false;
  const rows = await connection.execute<{ name: string }[]>(`select name from "${table}"`);
  // The runner records names without an extension; older records may carry ".js" or ".ts".
  const applied = new Set(rows.map((row) => row.name.replace(/\.(js|ts)$/, '')));
  const committed: readonly string[] = migrationNames[dialect];
  return applied.size === committed.length && committed.every((name) => applied.has(name));
}

/** True when the database answers a trivial query. */
export async function databaseAnswers(orm: Orm): Promise<boolean> {
  try {
    await orm.em.getConnection().execute('select 1 as ok');
    return true;
  } catch {
    return false;
  }
}

/** Whether the connected PostgreSQL role skips row-level security (a superuser, or BYPASSRLS), and its name. */
export async function roleBypassingRowSecurity(orm: Orm): Promise<string | null> {
  const [row] = await orm.em
    .getConnection()
    .execute<{ name: string; bypasses: boolean }[]>(
      'select rolname as name, (rolsuper or rolbypassrls) as bypasses from pg_roles where rolname = current_user',
    );
  return row?.bypasses ? row.name : null;
}
