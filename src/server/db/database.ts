import { MikroORM } from '@mikro-orm/core';
import type { AbstractSqlDriver, EntityManager } from '@mikro-orm/knex';
import { ormOptions, type DatabaseTarget } from './orm-options';

/** The app's ORM on either database (SQLite or PostgreSQL); its entity managers speak SQL. */
export type Orm = MikroORM<AbstractSqlDriver, EntityManager>;

/** Opens the database and brings its schema up to date with the committed migrations of its dialect. */
export async function openDatabase(target: DatabaseTarget, log: (message: string) => void = () => undefined, debug = false): Promise<Orm> {
  const orm = await MikroORM.init<AbstractSqlDriver, EntityManager>(ormOptions(target, debug));
  try {
    const applied = await orm.migrator.up();
    for (const migration of applied) log(`applied migration ${migration.name}`);
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
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
