import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseAnswers, openDatabase } from '../../src/server/db/database';
import { migrationNames } from '../../src/server/db/migration-names';
import { migrationsList } from '../../src/server/db/migrations';
import { migrationsList as pgMigrationsList } from '../../src/server/db/migrations-pg';
import type { DatabaseTarget } from '../../src/server/db/orm-options';
import { createScratchDatabase, type ScratchDatabase } from '../../src/server/db/pg-scratch';
import { pgAdminUrl, testDatabase } from '../helpers/server';

/**
 * Start-up reads which migrations a database has applied and loads the migration runner only
 * when one is missing. The names it compares with must be the committed migrations.
 */
describe('migrations at start-up', () => {
  it('knows the name of every committed migration of each dialect, in order', () => {
    expect(migrationNames.sqlite).toEqual(migrationsList.map((m) => m.name));
    expect(migrationNames.postgresql).toEqual(pgMigrationsList.map((m) => m.name));
  });

  let dir: string;
  let scratch: ScratchDatabase | null = null;
  let target: DatabaseTarget;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'bt-startup-'));
    if (testDatabase === 'postgresql') scratch = await createScratchDatabase('bt_test', pgAdminUrl);
    target = scratch
      ? { dialect: 'postgresql', url: scratch.url }
      : { dialect: 'sqlite', file: path.join(dir, 'db.sqlite') };
  });
  afterAll(async () => {
    await scratch?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const open = async () => {
    const applied: string[] = [];
    const orm = await openDatabase(target, (message) => applied.push(message.replace('applied migration ', '')));
    return { orm, applied };
  };

  it('applies every migration to a new database, none to a current one, and runs the runner again when one is missing', async () => {
    const names: readonly string[] = migrationNames[target.dialect];
    const first = await open();
    expect(first.applied).toEqual(names);
    await first.orm.close(true);

    const again = await open();
    expect(again.applied).toEqual([]);
    expect(await databaseAnswers(again.orm)).toBe(true);
    // A database made before the newest migration: its record goes, as if that release had not run it yet.
    const newest = names.at(-1)!;
    await again.orm.em.getConnection().execute('delete from mikro_orm_migrations where name = ?', [newest]);
    await again.orm.close(true);

    // The runner re-runs it on a schema that already has its changes: proof that it ran is either
    // its failure (a migration that creates something) or its report (one that may run twice, such
    // as a change of column type).
    const rerun = await open().catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    const outcome = rerun instanceof Error ? rerun.message : rerun.applied;
    if (!(rerun instanceof Error)) await rerun.orm.close(true);
    expect(outcome).toSatisfy((o: string | string[]) =>
      typeof o === 'string' ? /exists|duplicate/i.test(o) : o.length === 1 && o[0] === newest,
    );
  });
});
