import { MikroORM } from '@mikro-orm/better-sqlite';
import { ormOptions } from '../../../mikro-orm.config';

/** Opens the database file and brings its schema up to date with the committed migrations. */
export async function openDatabase(
  databaseFile: string,
  log: (message: string) => void = () => undefined,
  debug = false,
): Promise<MikroORM> {
  const orm = await MikroORM.init(ormOptions(databaseFile, debug));
  try {
    const applied = await orm.getMigrator().up();
    for (const migration of applied) log(`applied migration ${migration.name}`);
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}

/** True when the database answers a trivial query. */
export async function databaseAnswers(orm: MikroORM): Promise<boolean> {
  try {
    await orm.em.getConnection().execute('select 1 as ok');
    return true;
  } catch {
    return false;
  }
}
