/**
 * Runs once before the tests, after the web servers are up (Playwright starts `webServer` first):
 * 1. writes the two-org access fixtures into the e2e database (e2e/setup/access-fixtures.ts: there is no
 *    public API to create an org) and their ids, passwords and keys to ACCESS_FIXTURES;
 * 2. logs in as the seeded operator through `POST /auth/login` and saves the browser state to
 *    STORAGE_STATE, which every test uses by default (playwright.config.ts `use.storageState`).
 */
import { request } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ACCESS_FIXTURES, DEMO_EMAIL, E2E_DEMO_PASSWORD, E2E_PORT, STORAGE_STATE } from './api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export default async function globalSetup(): Promise<void> {
  execFileSync(process.execPath, ['--import', 'tsx', 'e2e/setup/access-fixtures.ts', ACCESS_FIXTURES], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: 'file:./data/e2e.db' },
    stdio: 'inherit',
    timeout: 120_000,
  });

  const ctx = await request.newContext({ baseURL: `http://127.0.0.1:${E2E_PORT}` });
  try {
    const res = await ctx.post('/auth/login', { data: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD } });
    if (res.status() !== 200) throw new Error(`global setup: operator login answered ${res.status()}: ${await res.text()}`);
    await ctx.storageState({ path: path.join(ROOT, STORAGE_STATE) });
  } finally {
    await ctx.dispose();
  }
}
