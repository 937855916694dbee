/**
 * Writes a migration for each database dialect (SQLite and PostgreSQL): the difference between
 * the entities and the schema that dialect's committed migrations build. The PostgreSQL one also
 * puts row-level security on each new table with a `user_id` column (addRowSecurity). Then the
 * lists of migrations are written again (scripts/migration-lists.ts). The PostgreSQL half needs a
 * server: PG_ADMIN_URL (default postgres://postgres@127.0.0.1:5432/postgres) may create and drop a
 * scratch database.
 * Usage: npm run db:migration -- [name]
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { migratorOf, openDatabase } from '../src/server/db/database';
import type { DatabaseTarget } from '../src/server/db/orm-options';
import { createScratchDatabase, DEFAULT_PG_ADMIN_URL, postgresAnswers } from '../src/server/db/pg-scratch';
import { writeMigrationLists } from './migration-lists';

/** The tables a migration's statements create with a `user_id` column. */
function newUserTables(statements: readonly string[]): string[] {
  return statements
    .map((sql) => /^create table "(\w+)" \(.*"user_id"/.exec(sql)?.[1])
    .filter((table): table is string => table !== undefined);
}

/** Adds `addRowSecurity(this, table)` for each table at the end of the migration's up(). */
function addRowSecurityCalls(file: string, tables: readonly string[]): void {
  const code = readFileSync(file, 'utf8');
  const up = code.indexOf('async up(): Promise<void> {');
  const end = code.indexOf('\n  }\n', up);
  if (up < 0 || end < 0) throw new Error(`${file}: no up() to add row-level security to`);
  const calls = tables.map((table) => `\n    addRowSecurity(this, '${table}');`).join('');
  const imports =
    "import { Migration } from '@mikro-orm/migrations';\nimport { addRowSecurity } from './row-security';";
  writeFileSync(
    file,
    `${code.slice(0, end)}\n${calls}${code.slice(end)}`.replace(
      "import { Migration } from '@mikro-orm/migrations';",
      imports,
    ),
  );
}

async function listMigrations(): Promise<void> {
  const lists = await writeMigrationLists();
  if (lists.length > 0) console.log(`wrote ${lists.join(', ')}`);
}

async function writeMigration(target: DatabaseTarget, folder: string): Promise<void> {
  const orm = await openDatabase(target);
  try {
    const migrator = await migratorOf(orm, target.dialect);
    const result = await migrator.createMigration(undefined, false, false, process.argv[2]);
    if (result.diff.up.length === 0) {
      console.log(`${target.dialect}: no schema changes, nothing written.`);
      return;
    }
    const tables = target.dialect === 'postgresql' ? newUserTables(result.diff.up) : [];
    if (tables.length > 0) addRowSecurityCalls(path.join(folder, result.fileName), tables);
    console.log(`${target.dialect}: wrote ${folder}/${result.fileName}`);
    console.log(result.diff.up.join('\n'));
    if (tables.length > 0) console.log(`with row-level security on ${tables.join(', ')}`);
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
  await listMigrations();
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
  await listMigrations();
}
