import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { DEFAULT_PG_ADMIN_URL, postgresAnswers } from './src/server/db/pg-scratch';

/**
 * Layers of tests: unit (pure modules), integration (the real server on a temporary SQLite
 * file, called over HTTP), integration-pg (the same integration files on a fresh PostgreSQL
 * database each server), security (attacks performed against a real server, asserting the
 * refusal) and e2e (real Chromium clicking through the built client). `npm test` runs them all.
 *
 * When no PostgreSQL answers at PG_ADMIN_URL and CI is unset, integration-pg holds no tests and
 * says so; with CI set it runs (and fails) anyway.
 */
const pgAdminUrl = process.env.PG_ADMIN_URL ?? DEFAULT_PG_ADMIN_URL;
const wantsPg = process.argv.some((arg) => arg.includes('integration-pg')) || !process.argv.includes('--project');
const pgAnswers = wantsPg ? await postgresAnswers(pgAdminUrl) : false;
const skipPg = wantsPg && !pgAnswers && !process.env.CI;
if (skipPg) console.log(`integration-pg: SKIPPED, no PostgreSQL answers at ${new URL(pgAdminUrl).host} (set PG_ADMIN_URL; with CI set it must run)`);

/** Integration files about SQLite alone (its file backups, upgrade fixtures and demo file). */
const SQLITE_ONLY = ['tests/integration/backup.test.ts', 'tests/integration/upgrade.test.ts', 'tests/integration/demo.test.ts'];

/**
 * Test files at once. Vitest's default is one fewer than the cores (one file at a time on two cores), but most
 * files spend their time waiting on a server, PostgreSQL or Chromium rather than on a core: one more file than
 * cores keeps both busy. VITEST_MAX_WORKERS (or --maxWorkers) overrides it.
 */
const maxWorkers = Number(process.env.VITEST_MAX_WORKERS) || availableParallelism() + 1;

export default defineConfig({
  test: {
    maxWorkers,
    // integration-pg holds no tests when PostgreSQL is skipped (see above).
    passWithNoTests: true,
    projects: [
      {
        test: {
          name: 'unit',
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'integration-pg',
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
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'e2e',
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
