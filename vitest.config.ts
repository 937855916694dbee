import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { DEFAULT_PG_ADMIN_URL, postgresAnswers } from './src/server/db/pg-scratch';

/**
 * Layers of tests: unit (pure modules, tests/unit), integration (the real server on a temporary SQLite
 * file, called over HTTP, tests/integration) and security (attacks performed against a real server, asserting the
 * refusal, tests/security), which run as one project, `node`; integration-pg (the same integration files on a fresh
 * PostgreSQL database each server) and e2e (real Chromium clicking through the built client). `npm test` runs them all.
 *
 * When no PostgreSQL answers at PG_ADMIN_URL and CI is unset, integration-pg holds no tests and
 * says so; with CI set it runs (and fails) anyway.
 */
const pgAdminUrl = process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL;
const wantsPg = process.argv.some((arg) => arg.includes('integration-pg')) || !process.argv.includes('--project');
const pgAnswers = wantsPg ? await postgresAnswers(pgAdminUrl) : false;
const skipPg = wantsPg && !pgAnswers && !process.env.CI;
if (skipPg)
  console.log(
    `integration-pg: SKIPPED, no PostgreSQL answers at ${new URL(pgAdminUrl).host} (set PG_ADMIN_URL; with CI set it must run)`,
  );

/** Integration files about SQLite alone (its file backups, upgrade fixtures and demo file). */
const SQLITE_ONLY = [
  'tests/integration/backup.test.ts',
  'tests/integration/upgrade.test.ts',
  'tests/integration/demo.test.ts',
];

/**
 * Test files at once. Vitest's default is one fewer than the cores (one file at a time on two cores), but most
 * files spend their time waiting on a server, PostgreSQL or Chromium rather than on a core: one more file than
 * cores keeps both busy. VITEST_MAX_WORKERS (or --maxWorkers) overrides it.
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS) || availableParallelism() + 1;
/**
 * Test files share their worker's module cache (isolate: false): each worker imports the server (Fastify,
 * MikroORM, tRPC, zod...) once instead of once per file, which was most of vitest's "import" time per file.
 * Every file still starts its own servers on fresh databases and restores what it changes (timers,
 * globals, env). VITEST_ISOLATE=1 runs each file in a fresh worker again, e.g. to rule out a leak between files.
 */
const isolate = process.env.VITEST_ISOLATE === '1';

/**
 * How long expect.poll waits for its condition, in every project. Vitest's default of 1 s is shorter than a loaded
 * 2-core machine takes to start a worker thread or to load a page: clean CI runs failed an e2e poll for a fresh
 * page's rule list and an integration poll for the import's background checkpoint (a worker thread), both of which
 * came a moment later. A condition that never holds still fails, after this long.
 */
const expect = { poll: { timeout: 15_000 } };

export default defineConfig({
  test: {
    maxWorkers,
    // integration-pg holds no tests when PostgreSQL is skipped (see above).
    passWithNoTests: true,
    projects: [
      {
        // Unit tests, the integration files on SQLite and the security attacks: one project, so each worker imports the
        // server's modules once for all three (as three projects, every worker of each imported them again). The timeouts are the security
        // tests' (a hung unit test fails after 2 minutes instead of 5 s; a passing one is unaffected).
        test: {
          name: 'node',
          isolate,
          expect,
          include: [
            'tests/unit/**/*.test.ts',
            'tests/unit/**/*.test.tsx',
            'tests/integration/**/*.test.ts',
            'tests/security/**/*.test.ts',
          ],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration-pg',
          isolate,
          expect,
          include: skipPg ? [] : ['tests/integration/**/*.test.ts'],
          exclude: SQLITE_ONLY,
          env: { TEST_DATABASE: 'postgresql' },
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
          isolate,
          expect,
          include: ['tests/e2e/**/*.test.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 60_000,
          // One Chromium for the whole run (launched here, each file connects and opens its own contexts); each file
          // starts its own server on port 0, so files run side by side.
          globalSetup: ['tests/e2e/browser-server.ts'],
        },
      },
    ],
  },
});
