import { defineConfig } from 'vitest/config';

/**
 * Layers of tests: unit (pure modules), integration (the real server on a
 * temporary SQLite file, called over HTTP), security (attacks performed against
 * a real server, asserting the refusal) and e2e (real Chromium clicking through
 * the built client). `npm test` runs them all.
 */
export default defineConfig({
  test: {
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
          name: 'security',
          include: ['tests/security/**/*.test.ts'],
          environment: 'node',
          // Some attacks assert that /api/health keeps answering within 200 ms: run them one file at
          // a time (and, in npm test, after the other projects) so other tests do not steal the CPU.
          fileParallelism: false,
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
          fileParallelism: false,
        },
      },
    ],
  },
});
