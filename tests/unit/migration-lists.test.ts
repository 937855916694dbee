import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationLists, writeMigrationLists } from '../../scripts/migration-lists';

describe('the lists of migrations', () => {
  it('are what `npm run db:migration-lists` writes from the migration files', async () => {
    for (const [file, text] of await migrationLists()) {
      expect(readFileSync(file, 'utf8'), `${file} is out of date: run npm run db:migration-lists`).toBe(text);
    }
  });

  it('take in a new migration file of either dialect, in timestamp order', async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'bt-migration-lists-'));
    try {
      cpSync('src/server/db', path.join(root, 'src/server/db'), { recursive: true });
      cpSync('.prettierrc.json', path.join(root, '.prettierrc.json'));
      const name = 'Migration20991231235959_add_notes';
      for (const folder of ['migrations', 'migrations-pg'])
        writeFileSync(path.join(root, 'src/server/db', folder, `${name}.ts`), `export class ${name} {}\n`);
      expect(await writeMigrationLists(root)).toHaveLength(3);
      const names = readFileSync(path.join(root, 'src/server/db/migration-names.ts'), 'utf8');
      expect(names.match(new RegExp(`'${name}'`, 'g'))).toHaveLength(2);
      for (const folder of ['migrations', 'migrations-pg']) {
        const index = readFileSync(path.join(root, 'src/server/db', folder, 'index.ts'), 'utf8');
        expect(index.trimEnd().split('\n').at(-2)).toBe(`  { name: '${name}', class: ${name} },`);
      }
      expect(await writeMigrationLists(root)).toEqual([]);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
