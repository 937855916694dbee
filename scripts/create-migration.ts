/**
 * Writes a migration for the difference between the entities and the schema the
 * committed migrations build. Usage: npm run db:migration -- [name]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MikroORM } from '@mikro-orm/better-sqlite';
import { ormOptions } from '../mikro-orm.config';

const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-migration-'));
const orm = await MikroORM.init(ormOptions(path.join(dir, 'scratch.sqlite')));
try {
  const migrator = orm.migrator;
  await migrator.up();
  const result = await migrator.createMigration(undefined, false, false, process.argv[2]);
  if (result.diff.up.length === 0) {
    console.log('No schema changes: nothing written.');
  } else {
    console.log(`Wrote ${result.fileName}. Add it to src/server/db/migrations/index.ts.`);
    console.log(result.diff.up.join('\n'));
  }
} finally {
  await orm.close(true);
  rmSync(dir, { recursive: true, force: true });
}
