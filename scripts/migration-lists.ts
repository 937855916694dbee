/**
 * Writes the lists of committed migrations from the migration files themselves, so no migration is
 * listed by hand: each dialect's index.ts (the migrations the runner loads) and db/migration-names.ts
 * (their names alone, which start-up compares with the database without loading any migration).
 * `npm run db:migration` runs this after writing a migration; after adding or removing a migration
 * file by hand, run `npm run db:migration-lists`. A unit test fails while the lists and the files differ.
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';

const DB = 'src/server/db';
const FOLDERS = { sqlite: `${DB}/migrations`, postgresql: `${DB}/migrations-pg` } as const;
type Dialect = keyof typeof FOLDERS;
const NAMES_FILE = `${DB}/migration-names.ts`;
const HEADER = '// Written by scripts/migration-lists.ts (npm run db:migration) from the migration files: do not edit.';

/** A migration file's name is its timestamp and title, and it exports a class of that name (as MikroORM writes them). */
const MIGRATION_FILE = /^(Migration\d{14}_\w+)\.ts$/;

/** The migrations in a dialect's folder, oldest first (the timestamp leads the name). */
function migrationsIn(root: string, dialect: Dialect): string[] {
  return readdirSync(path.join(root, FOLDERS[dialect]))
    .map((file) => MIGRATION_FILE.exec(file)?.[1])
    .filter((name): name is string => name !== undefined)
    .sort();
}

function indexSource(dialect: Dialect, names: readonly string[]): string {
  const label = dialect === 'sqlite' ? 'SQLite' : 'PostgreSQL';
  return [
    HEADER,
    "import type { MigrationObject } from '@mikro-orm/core';",
    ...names.map((name) => `import { ${name} } from './${name}';`),
    '',
    `/** Every ${label} migration, oldest first. */`,
    'export const migrationsList: MigrationObject[] = [',
    ...names.map((name) => `  { name: '${name}', class: ${name} },`),
    '];',
    '',
  ].join('\n');
}

function namesSource(names: Record<Dialect, readonly string[]>): string {
  const list = (dialect: Dialect) => names[dialect].map((name) => `'${name}'`).join(', ');
  return `${HEADER}

/**
 * The name of every committed migration, per dialect, oldest first: the names migrations/index.ts and
 * migrations-pg/index.ts list. Start-up compares them with the names the database has applied, so on a
 * current database the migration runner (and every migration's code) is never loaded.
 */
export const migrationNames = {
  sqlite: [${list('sqlite')}],
  postgresql: [${list('postgresql')}],
} as const satisfies Record<'sqlite' | 'postgresql', readonly string[]>;
`;
}

/** Every list file (path from `root`) with the text it should hold. */
export async function migrationLists(root = process.cwd()): Promise<Map<string, string>> {
  const names = { sqlite: migrationsIn(root, 'sqlite'), postgresql: migrationsIn(root, 'postgresql') };
  const namesFile = path.join(root, NAMES_FILE);
  const prettier = await resolveConfig(namesFile);
  return new Map([
    [`${FOLDERS.sqlite}/index.ts`, indexSource('sqlite', names.sqlite)],
    [`${FOLDERS.postgresql}/index.ts`, indexSource('postgresql', names.postgresql)],
    [NAMES_FILE, await format(namesSource(names), { ...prettier, filepath: namesFile })],
  ]);
}

/** Writes the lists that changed; answers their paths. */
export async function writeMigrationLists(root = process.cwd()): Promise<string[]> {
  const written: string[] = [];
  for (const [file, text] of await migrationLists(root)) {
    const full = path.join(root, file);
    let current = '';
    try {
      current = readFileSync(full, 'utf8');
    } catch {
      // A missing list is written.
    }
    if (current === text) continue;
    writeFileSync(full, text);
    written.push(file);
  }
  return written;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const written = await writeMigrationLists();
  console.log(written.length > 0 ? `wrote ${written.join(', ')}` : 'the migration lists are up to date');
}
