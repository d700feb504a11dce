import { defineConfig } from '@playwright/test';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { E2E_ACCESS_KEY_ID, E2E_API_KEY, E2E_DEMO_PASSWORD, E2E_PORT, E2E_SECRET_ACCESS_KEY, LIMITS_PORT, SERVER_LOG, STORAGE_STATE } from './e2e/api';

/**
 * End-to-end tests drive the real UI with the real worker: `npm start` (web + worker) on its own
 * SQLite file and port. Debian's Chromium is used; Playwright never downloads a browser here.
 */
const PORT = E2E_PORT;
const ROOT = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  testDir: './e2e',
  timeout: 120_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  // Logs in as the seeded operator once (pages need a session) and writes the two-org access fixtures.
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    // Every test starts logged in as the operator; a test that needs no session sets its own.
    storageState: path.join(ROOT, STORAGE_STATE),
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-quic', '--no-first-run'],
    },
  },
  projects: [{ name: 'chromium', use: { browserName: 'chromium' } }],
  webServer: [
    {
      // The server's output is also kept in SERVER_LOG, so tests can check that no secret is logged.
      command: `mkdir -p data && rm -f data/e2e.db data/e2e.db-wal data/e2e.db-shm ${SERVER_LOG} && npm start 2>&1 | tee ${SERVER_LOG}`,
      url: `http://127.0.0.1:${PORT}/api/health`,
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(PORT),
        DATABASE_URL: 'file:./data/e2e.db',
        SCHEDULER_BOOTSTRAP_API_KEY: E2E_API_KEY,
        SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID: E2E_ACCESS_KEY_ID,
        SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY: E2E_SECRET_ACCESS_KEY,
        SCHEDULER_DEMO_PASSWORD: E2E_DEMO_PASSWORD,
        WORKER_POLL_INTERVAL_MS: '500',
        // Webhooks to loopback receivers (SPEC §13.1): the tests' receivers listen on 127.0.0.1.
        SCHEDULER_HTTP_ALLOWED_HOSTS: '127.0.0.1',
      },
    },
    {
      // A second web app (no worker) with tight SPEC §9 limits, for the limit rules of the contract,
      // that believes X-Forwarded-* from 127.0.0.1 only (a trusted proxy), for the proxy rules.
      command: 'rm -f data/e2e-limits.db data/e2e-limits.db-wal data/e2e-limits.db-shm && npx tsx scripts/start.ts --web-only --wait-for-build',
      // No worker runs here, so /api/health answers 503 `degraded`: readiness is the login page.
      url: `http://127.0.0.1:${LIMITS_PORT}/login`,
      timeout: 900_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(LIMITS_PORT),
        DATABASE_URL: 'file:./data/e2e-limits.db',
        SCHEDULER_BOOTSTRAP_API_KEY: E2E_API_KEY,
        SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID: E2E_ACCESS_KEY_ID,
        SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY: E2E_SECRET_ACCESS_KEY,
        SCHEDULER_DEMO_PASSWORD: E2E_DEMO_PASSWORD,
        SCHEDULER_MIN_INTERVAL_SECONDS: '120',
        SCHEDULER_SCHEDULES_PER_REVISION: '3',
        // This server sits "behind a proxy" on 127.0.0.1 (e2e/security.spec.ts); the main one trusts none.
        SCHEDULER_TRUSTED_PROXIES: '127.0.0.1',
      },
    },
  ],
});
