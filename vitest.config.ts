import { defineConfig } from 'vitest/config';
import path from 'node:path';

// Three projects: `unit` (pure logic, no I/O), `integration` (real SQLite / PostgreSQL, real HTTP) and
// `container` (the image built and run with podman, the systemd units: run once, after the others).
export default defineConfig({
  // tsconfig keeps JSX for Next.js ("preserve"); tests that load a component module (a target type's
  // UI registry entry holds pure parts and presentational components side by side) compile it here.
  oxc: { jsx: { runtime: 'automatic' } },
  resolve: { alias: { '@': path.resolve(import.meta.dirname), 'server-only': path.resolve(import.meta.dirname, 'lib/testing/server-only-stub.ts') } },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['lib/cron/**/*.test.ts', 'lib/**/__tests__/**/*.unit.test.ts', 'cli/**/*.unit.test.ts', 'components/**/__tests__/**/*.unit.test.ts', 'scripts/**/__tests__/**/*.unit.test.ts'],
          // An integration file under lib/cron (the cold-call timing test) runs in the integration
          // project only, one file at a time: not also here, beside other files on the same cores.
          exclude: ['node_modules/**', '**/*.int.test.ts'],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['**/__tests__/**/*.int.test.ts'],
          exclude: ['node_modules/**'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: { name: 'container', include: ['**/__tests__/**/*.container.test.ts'], exclude: ['node_modules/**'], environment: 'node', testTimeout: 900_000, hookTimeout: 1_800_000, fileParallelism: false },
      },
    ],
  },
});
