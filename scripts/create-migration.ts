/**
 * Writes a migration for each database dialect (SQLite and PostgreSQL): the difference between
 * the entities and the schema that dialect's committed migrations build. The PostgreSQL half
 * needs a server: PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) may
 * create and drop a scratch database.
 * Usage: npm run db:migration -- [name]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../src/server/db/database';
import type { DatabaseTarget } from '../src/server/db/orm-options';
import { createScratchDatabase, DEFAULT_PG_ADMIN_URL, postgresAnswers } from '../src/server/db/pg-scratch';

async function writeMigration(target: DatabaseTarget, folder: string): Promise<void> {
  const orm = await openDatabase(target);
  try {
    const result = await orm.migrator.createMigration(undefined, false, false, process.argv[2]);
    if (result.diff.up.length === 0) {
      console.log(`${target.dialect}: no schema changes, nothing written.`);
    } else {
      console.log(`${target.dialect}: wrote ${result.fileName}. Add it to ${folder}/index.ts.`);
      console.log(result.diff.up.join('\n'));
    }
  } finally {
    await orm.close(true);
  }
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'bt-migration-'));
try {
  await writeMigration({ dialect: 'sqlite', file: path.join(dir, 'scratch.sqlite') }, 'src/server/db/migrations');
} finally {
  rmSync(dir, { recursive: true, force: true });
}

const adminUrl = process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL;
if (!(await postgresAnswers(adminUrl))) {
  console.error(
    `postgresql: no PostgreSQL answers at PG_ADMIN_URL (${new URL(adminUrl).host}): the PostgreSQL migration was NOT written.`,
  );
  process.exit(1);
}
const scratch = await createScratchDatabase('bt_migration', adminUrl);
try {
  await writeMigration({ dialect: 'postgresql', url: scratch.url }, 'src/server/db/migrations-pg');
} finally {
  await scratch.drop();
}
