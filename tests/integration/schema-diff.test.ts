import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MikroORM } from '@mikro-orm/better-sqlite';
import { openDatabase } from '../../src/server/db/database';

/**
 * The entities and the committed migrations describe the same schema: migrating an empty
 * database and asking the ORM what it would change to match the entities yields nothing.
 * An entity edit without its migration (or a refactor that changes a column) fails here.
 */
describe('entities and migrations agree (SQLite)', () => {
  let dir: string;
  let orm: MikroORM | undefined;

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-schema-'));
    orm = await openDatabase(path.join(dir, 'schema.sqlite'));
  });

  afterAll(async () => {
    await orm?.close(true);
    rmSync(dir, { recursive: true, force: true });
  });

  it('the schema diff after all migrations is empty', async () => {
    const diff = await orm!.schema.getUpdateSchemaSQL({ wrap: false });
    expect(diff.trim()).toBe('');
  });
});
