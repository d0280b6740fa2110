import { availableParallelism } from 'node:os';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

// unit: pure logic, no database (runs in `npm run check`).
// integration: the real fetch handler or HTTP server on a real database (PGlite by default,
// PostgreSQL when DATABASE_URL is set), one fresh database per test file.
const LOAD_TESTS = [
  'test/pipelines-load.int.test.ts',
  'test/webhooks-fairness.int.test.ts',
  'test/instances.int.test.ts',
  'test/chaos.int.test.ts',
  'test/backpressure-load.int.test.ts',
  'test/replica.int.test.ts',
  'test/rolling-deploy.int.test.ts',
  'test/pg-restart.int.test.ts',
];

/** VITEST_INTEGRATION_WORKERS overrides (1 runs the integration files one by one). */
const INTEGRATION_WORKERS = Number(process.env.VITEST_INTEGRATION_WORKERS ?? Math.max(2, availableParallelism() - 1));

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts', 'components/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['server/**/*.int.test.ts', 'test/**/*.int.test.ts'],
          // Most of a file's time is spent waiting (the database, HTTP, timers): two files at once on a
          // 2-core machine (Vitest's default there is one, cores - 1).
          maxWorkers: INTEGRATION_WORKERS,
          // Groups run one after another (projects with different worker counts need their own): unit,
          // integration, e2e, then load.
          sequence: { groupOrder: 1 },
          exclude: [...LOAD_TESTS, 'node_modules/**'],
          globalSetup: ['test/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        extends: true,
        // Latency and memory bounds under load (issue 19): integration tests that run after every other
        // project has finished, so the machine's other tests do not take their time.
        test: {
          name: 'load',
          include: LOAD_TESTS,
          // Each starts processes and measures under load: one at a time.
          fileParallelism: false,
          globalSetup: ['test/global-setup.ts'],
          sequence: { groupOrder: 3 },
          testTimeout: 120_000,
          hookTimeout: 120_000,
        },
      },
      {
        extends: true,
        // The production entry (server.ts) over real HTTP; builds the app first when needed.
        // Every answer the e2e suites fetch from /api is checked against the OpenAPI document.
        test: {
          name: 'e2e',
          sequence: { groupOrder: 2 },
          include: ['e2e/**/*.e2e.test.ts'],
          setupFiles: ['e2e/contract-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
