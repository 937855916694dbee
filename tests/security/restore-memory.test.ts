import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, postgresAnswers, type ScratchDatabase } from '../../src/server/db/pg-scratch';
import { registerUser } from '../helpers/http';
import { largeExportJson } from '../helpers/large-export';
import { peakRssMb, spawnServer, type ServerProcess } from '../helpers/process';
import { pgAdminUrl } from '../helpers/server';
import { rawRequest } from '../helpers/stall-watch';

/**
 * A restore may not hold the document it restores: a large one (long bank texts, tens of megabytes) sent to the real
 * server in its own process must raise the process's peak resident memory by far less than the document weighs,
 * on SQLite and on PostgreSQL (as the role the server runs as there, without superuser). The peak is the kernel's
 * high-water mark (VmHWM), so no moment of the restore escapes it. The bound is generous against what the
 * process's heap and the collector's slack come to, and below the size of the document: a restore that kept the
 * rows (or their texts) until the end exceeds it.
 */
const ROWS = 75_000;
const DESCRIPTION_LENGTH = 1000;
const GROWTH_BOUND_MB = 100;

const pgAvailable = await postgresAnswers(pgAdminUrl);
if (!pgAvailable) console.warn('PostgreSQL restore memory test skipped: no PostgreSQL server at PG_ADMIN_URL');

let server: ServerProcess | undefined;
let scratch: ScratchDatabase | undefined;
let dataDir: string | undefined;

afterEach(async () => {
  await server?.stop();
  await scratch?.drop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  server = scratch = dataDir = undefined;
});

async function restoreGrowth(env: Record<string, string>): Promise<{ status: number; growthMb: number }> {
  const body = Buffer.from(largeExportJson({ transactions: ROWS, descriptionLength: DESCRIPTION_LENGTH }));
  expect(body.byteLength).toBeGreaterThan(90_000_000);
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-restore-memory-'));
  server = spawnServer({ DATA_DIR: dataDir, ...env });
  const url = await server.url;
  const pid = server.child.pid ?? 0;
  const user = await registerUser(url);
  const before = peakRssMb(pid);
  const answer = await rawRequest(url, 'POST', '/api/import', { token: user.accessToken, body });
  const growthMb = peakRssMb(pid) - before;
  // The rows waited on disk between reading and writing; nothing of them is left behind.
  expect(readdirSync(dataDir).filter((name) => name.endsWith('.spool'))).toEqual([]);
  return { status: answer.status, growthMb };
}

describe(`restoring a document of ${ROWS} transactions with long texts`, () => {
  it('on SQLite raises the peak resident memory by less than the document weighs', async () => {
    const { status, growthMb } = await restoreGrowth({});
    expect(status).toBe(201);
    expect(growthMb).toBeLessThan(GROWTH_BOUND_MB);
  }, 300_000);

  it.runIf(pgAvailable)(
    'on PostgreSQL raises the peak resident memory by less than the document weighs',
    async () => {
      scratch = await createScratchDatabase('bt_restore_memory', pgAdminUrl);
      const { status, growthMb } = await restoreGrowth({ DATABASE_URL: scratch.url });
      expect(status).toBe(201);
      expect(growthMb).toBeLessThan(GROWTH_BOUND_MB);
    },
    300_000,
  );
});
