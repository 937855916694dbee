import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createScratchDatabase, postgresAnswers, type ScratchDatabase } from '../../src/server/db/pg-scratch';
import { registerUser } from '../helpers/http';
import { largeListJson, type LargeList } from '../helpers/large-lists';
import { peakRssMb, spawnServer, type ServerProcess } from '../helpers/process';
import { pgAdminUrl } from '../helpers/server';
import { rawRequest } from '../helpers/stall-watch';

/**
 * Every list of the restored document, not only the transactions, is kept compactly or refused at a limit before the
 * rest is read: a document whose tens of megabytes are in one other list (transfers, rates, the plan's lists, offered
 * pairs, a schedule's occurrences, a list this version refuses, accounts, a budget's line items, one long text), sent to the real
 * server in its own process, raises its peak resident memory (VmHWM, see restore-memory.test.ts) by less than the
 * document weighs, while every health check meanwhile answers 200. On SQLite, and on PostgreSQL as the server's own
 * role. Each document gets a fresh server, so each peak is its own restore's.
 */
const DOCUMENT_BYTES = 80_000_000;

/**
 * What the server answers each document (see tests/helpers/large-lists.ts). Short transactions are left out: their
 * facts are still an object a row, which takes more than the document weighs (bench/RESULTS.md).
 */
const ANSWERS: Record<Exclude<LargeList, 'shortTransactions'>, number[]> = {
  transfers: [400],
  rates: [201],
  plan: [201],
  transferCandidates: [201],
  occurrences: [201, 413],
  importProfiles: [400],
  accounts: [413],
  relatedCategories: [413],
  longText: [413],
};

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

/** Restores the document while asking /api/health back to back; answers the restore's, and the growth of the peak. */
async function restoreLarge(kind: LargeList, env: Record<string, string>) {
  const body = Buffer.from(largeListJson(kind, DOCUMENT_BYTES));
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'bt-restore-lists-'));
  // As `npm start` and the Docker image run it: a young generation of a few megabytes.
  server = spawnServer({ DATA_DIR: dataDir, NODE_OPTIONS: '--max-semi-space-size=2', ...env });
  const url = await server.url;
  const pid = server.child.pid ?? 0;
  const user = await registerUser(url);
  const before = peakRssMb(pid);
  let done = false;
  const restoring = rawRequest(url, 'POST', '/api/import', { token: user.accessToken, body }).finally(() => {
    done = true;
  });
  const health: number[] = [];
  while (!done) health.push((await rawRequest(url, 'GET', '/api/health', {})).status);
  const answer = await restoring;
  const growthMb = peakRssMb(pid) - before;
  console.log(`${kind}: ${answer.status}, peak RSS ${before.toFixed(0)} MB + ${growthMb.toFixed(0)} MB`);
  expect(readdirSync(dataDir).filter((name) => name.endsWith('.spool'))).toEqual([]);
  return { answer, growthMb, documentMb: body.byteLength / 1024 / 1024, health };
}

async function expectBounded(kind: keyof typeof ANSWERS, env: Record<string, string>): Promise<void> {
  const { answer, growthMb, documentMb, health } = await restoreLarge(kind, env);
  expect(ANSWERS[kind], JSON.stringify(answer.body).slice(0, 300)).toContain(answer.status);
  if (answer.status === 413) expect(answer.body.error).toMatch(/too large|more than/);
  expect(health.filter((status) => status !== 200)).toEqual([]);
  expect(
    growthMb,
    `peak RSS grew by ${growthMb.toFixed(0)} MB for a ${documentMb.toFixed(0)} MB document`,
  ).toBeLessThan(documentMb);
}

describe(`restoring a document of ${DOCUMENT_BYTES / 1e6} MB in one list`, () => {
  for (const kind of Object.keys(ANSWERS) as (keyof typeof ANSWERS)[])
    it(`of ${kind} on SQLite raises the peak resident memory by less than the document weighs`, async () => {
      await expectBounded(kind, {});
    }, 300_000);

  for (const kind of ['transfers', 'rates', 'plan'] as const)
    it.runIf(pgAvailable)(
      `of ${kind} on PostgreSQL raises the peak resident memory by less than the document weighs`,
      async () => {
        scratch = await createScratchDatabase('bt_restore_lists', pgAdminUrl);
        await expectBounded(kind, { DATABASE_URL: scratch.url });
      },
      300_000,
    );
});
