/**
 * Pages during a PostgreSQL outage, with the real production build (`scripts/start.ts --web-only`)
 * on PostgreSQL reached through a loopback proxy that goes silent (lib/testing/cutting-proxy.ts
 * `partition()`: connections stay open, nothing answers; docs/decisions.md 432), with bounds of 1 s
 * for a connection and 3 s for an answer:
 * - a signed-in operator's page fails within the bounds and says why: the error page asks
 *   `/api/health` and names the unreachable database (app/global-error.tsx);
 * - the login page, for a browser still holding its session cookie, shows the form with the
 *   condition named, not an error page;
 * - once the network heals, the same pages load again without a restart.
 * Needs PostgreSQL (TEST_POSTGRES_URL, default the local one CI starts); skipped, saying so, without it.
 */
import { expect, test } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startCuttingProxy, type CuttingProxy } from '../lib/testing/cutting-proxy';
import { DEMO_EMAIL, E2E_DEMO_PASSWORD, E2E_PORT } from './api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT = E2E_PORT + 7;
const BASE = `http://127.0.0.1:${PORT}`;
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgresql://scheduler:scheduler@127.0.0.1:5432/postgres';
const DB_NAME = `scheduler_e2e_outage_${process.pid}`;

test.use({ storageState: { cookies: [], origins: [] } });

/** Run `sql` on the PostgreSQL server as the admin URL's role; false when the server cannot be reached. */
async function admin(sql: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3_000 });
  try {
    await client.connect();
  } catch {
    return false;
  }
  try {
    await client.query(sql);
    return true;
  } finally {
    await client.end();
  }
}

let web: ChildProcess | undefined;
let output = '';
let proxy: CuttingProxy | undefined;
let available = false;

test.beforeAll(async () => {
  available = await admin(`CREATE DATABASE ${DB_NAME}`);
  if (!available) return;
  proxy = await startCuttingProxy(Number(new URL(ADMIN_URL).port || 5432));
  const url = new URL(ADMIN_URL);
  url.port = String(proxy.port);
  url.pathname = `/${DB_NAME}`;
  web = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--web-only', '--wait-for-build'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(PORT),
      DATABASE_URL: url.toString(),
      DATABASE_CONNECT_TIMEOUT_MS: '1000',
      DATABASE_QUERY_TIMEOUT_MS: '3000',
      SCHEDULER_DEMO_PASSWORD: E2E_DEMO_PASSWORD,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  web.stdout!.on('data', (d) => (output = (output + d).slice(-4000)));
  web.stderr!.on('data', (d) => (output = (output + d).slice(-4000)));
});

test.afterAll(async () => {
  if (web && web.exitCode === null && web.signalCode === null) {
    const exited = new Promise((r) => web!.once('exit', r));
    try {
      process.kill(-web.pid!, 'SIGTERM');
      await exited;
    } catch {
      // already gone
    }
  }
  await proxy?.stop();
  if (available) await admin(`DROP DATABASE IF EXISTS ${DB_NAME} WITH (FORCE)`);
});

test('a page during a PostgreSQL partition names the unreachable database; the login page shows the form; both load again once healed', async ({ page, request }) => {
  test.skip(!available, `no PostgreSQL at ${ADMIN_URL.replace(/\/\/[^@]*@/, '//')}: this test needs one`);
  test.setTimeout(240_000);
  await expect
    .poll(async () => (await request.get(`${BASE}/login`).catch(() => null))?.status() ?? 0, { timeout: 180_000, intervals: [500], message: `web app up: ${output}` })
    .toBe(200);

  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(E2E_DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(`${BASE}/schedulers`);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();

  proxy!.partition();
  const began = Date.now();
  await page.goto(`${BASE}/schedulers`);
  await expect(page.locator('.alert-error')).toContainText('Something went wrong while loading this page.');
  // The error page asked /api/health (bounded at 5 s) and names the cause.
  await expect(page.locator('.alert-error')).toContainText('The database cannot be reached, so this page cannot be shown.', { timeout: 15_000 });
  expect(Date.now() - began, 'the page and its health check answered within their bounds').toBeLessThan(20_000);

  // The session cookie is still there: the login page is the form with the condition, not an error page.
  const login = await page.goto(`${BASE}/login`);
  expect(login?.status()).toBe(200);
  await expect(page.locator('.alert-error')).toHaveText('The database cannot be reached, so nobody can log in right now. Try again once it is back.');
  await expect(page.getByLabel('Email')).toBeVisible();

  proxy!.heal();
  await expect
    .poll(async () => (await page.goto(`${BASE}/schedulers`))?.status(), { timeout: 30_000, intervals: [500], message: 'the page loads again after the heal' })
    .toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText('Something went wrong while loading this page.')).toHaveCount(0);
});
