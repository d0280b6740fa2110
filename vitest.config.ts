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

export default defineConfig({
  resolve: { alias: { '@': path.resolve(import.meta.dirname) } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['server/**/*.test.ts', 'scripts/**/*.test.ts'],
          exclude: ['**/*.int.test.ts', 'node_modules/**'],
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['server/**/*.int.test.ts', 'test/**/*.int.test.ts'],
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
          globalSetup: ['test/global-setup.ts'],
          sequence: { groupOrder: 1 },
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
          include: ['e2e/**/*.e2e.test.ts'],
          setupFiles: ['e2e/contract-setup.ts'],
          testTimeout: 120_000,
          hookTimeout: 600_000,
        },
      },
    ],
  },
});
