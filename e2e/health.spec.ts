/**
 * Honest health (issue "Operator safety", acceptance 3) with real processes: a web app started alone
 * (`scripts/start.ts --web-only`, its own SQLite file and port E2E_PORT + 3) answers `/api/health`
 * with 503 `degraded` and shows the "no worker" banner on every page, and marks a due next fire as
 * overdue; starting a worker (`worker/main.ts`) turns health `ok`, clears the banner and fires the
 * overdue occurrence; a SIGKILLed worker (no goodbye) turns health `degraded` again within 30 s and the
 * banner says since when, in the viewer's zone; a new worker clears it again. And `npm start`
 * (scripts/start.ts with its worker) keeps the web app up when its worker is killed, restarts the
 * worker with back-off and says so; the new worker fires; SIGTERM stops both.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DateTime } from 'luxon';
import { DEMO_EMAIL, E2E_API_KEY, E2E_DEMO_PASSWORD, E2E_PORT, FOLLOWING_TARGET } from './api';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const PORT = E2E_PORT + 3;
const BASE = `http://127.0.0.1:${PORT}`;
const DB_FILE = 'data/e2e-health.db';
const ENV = {
  ...process.env,
  PORT: String(PORT),
  DATABASE_URL: `file:./${DB_FILE}`,
  SCHEDULER_BOOTSTRAP_API_KEY: E2E_API_KEY,
  SCHEDULER_DEMO_PASSWORD: E2E_DEMO_PASSWORD,
  WORKER_POLL_INTERVAL_MS: '500',
};
const ZONE = 'America/New_York';

test.use({ timezoneId: ZONE, storageState: { cookies: [], origins: [] } });

/** A process in its own group (so its children are stopped with it), its output kept for failures. */
function startProcess(argv: string[]): { child: ChildProcess; output: () => string } {
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', ...argv], { cwd: ROOT, env: ENV, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return { child, output: () => out.slice(-4000) };
}

async function stopProcess(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGTERM'): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  try {
    process.kill(-child.pid!, signal);
  } catch {
    return;
  }
  await exited;
}

async function health(api: APIRequestContext): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await api.get(`${BASE}/api/health`);
  return { status: res.status(), body: await res.json() };
}

/**
 * Poll /api/health until it answers `status` (within `withinMs`); returns the body. A web app that
 * is not listening yet (connection refused) is polled again.
 */
async function healthBecomes(api: APIRequestContext, status: 200 | 503, withinMs: number): Promise<Record<string, unknown>> {
  let last: { status: number; body: Record<string, unknown> } | null = null;
  const answer = async (): Promise<number | string> => {
    try {
      return (last = await health(api)).status;
    } catch (e) {
      if (/ECONNREFUSED/.test(String(e))) return 'not listening';
      throw e;
    }
  };
  await expect.poll(answer, { timeout: withinMs, intervals: [250], message: `/api/health answers ${status}` }).toBe(status);
  return last!.body;
}

const banner = (page: Page) => page.locator('.worker-banner');

/** A scheduler command of this web app (`BASE`) on scheduler revision `rev`; answers the response. */
function schedulerApi(request: APIRequestContext, rev: string, body: Record<string, unknown>) {
  return request.post(`${BASE}/api/v1/revisions/${rev}/data`, { headers: { 'x-api-key': E2E_API_KEY }, data: { engine: 'scheduler_blobhub', ...body } });
}

/** A one-time schedule `alias` of ops-scheduler due in 3 s, through this web app's API. */
async function createDueSchedule(request: APIRequestContext, alias: string): Promise<{ rev: string; scheduleId: string }> {
  const rev = (await (await request.get(`${BASE}/api/v1/orgs/acme-corp/blobs/ops-scheduler`, { headers: { 'x-api-key': E2E_API_KEY } })).json()).default_revision_id as string;
  const created = await schedulerApi(request, rev, {
    command: 'create_schedule',
    alias,
    repeat: 'one_time',
    invocation_time: DateTime.utc().plus({ seconds: 3 }).toFormat("yyyy-MM-dd'T'HH:mm:ss"),
    timezone: 'UTC',
    invocation_target: FOLLOWING_TARGET,
  });
  expect(created.status(), await created.text()).toBe(200);
  return { rev, scheduleId: (await created.json()).schedule.id as string };
}

test('web alone: health 503 degraded and the banner on every page; a worker clears both; a killed worker brings them back within 30 s', async ({ page, request }) => {
  test.setTimeout(300_000);
  rmSync(path.join(ROOT, DB_FILE), { force: true });
  for (const ext of ['-wal', '-shm']) rmSync(path.join(ROOT, `${DB_FILE}${ext}`), { force: true });
  const web = startProcess(['scripts/start.ts', '--web-only', '--wait-for-build']);
  let worker: ChildProcess | undefined;
  try {
    await expect
      .poll(async () => (await request.get(`${BASE}/login`).catch(() => null))?.status() ?? 0, { timeout: 180_000, intervals: [500], message: `web app up: ${web.output()}` })
      .toBe(200);

    // 1. No worker has ever run: degraded at once (well within 30 s), with the reason.
    const first = await healthBecomes(request, 503, 30_000);
    expect(first).toMatchObject({ status: 'degraded', database: 'reachable', workers_alive: 0, worker_last_seen_at: null });
    expect(first.reason).toMatch(/^no worker has ever reported a heartbeat/);

    // A one-time schedule due in 3 s, which nothing fires yet.
    const { rev, scheduleId } = await createDueSchedule(request, 'health-e2e-due');

    // The banner on every page of a signed-in operator; the due next fire is marked overdue.
    const login = await page.request.post(`${BASE}/auth/login`, { data: { email: DEMO_EMAIL, password: E2E_DEMO_PASSWORD } });
    expect(login.status()).toBe(200);
    for (const p of ['/schedulers', '/catalog', '/account']) {
      await page.goto(`${BASE}${p}`);
      await expect(banner(page), p).toContainText('No worker has run yet.');
      await expect(banner(page), p).toContainText('Schedules are not firing');
    }
    await page.waitForTimeout(Math.max(0, 3500));
    await page.goto(`${BASE}/schedulers/${rev}`);
    const row = page.getByRole('table', { name: 'Schedules' }).locator('tbody tr').filter({ hasText: 'health-e2e-due' });
    await expect(row.getByText('overdue: no worker')).toBeVisible();

    // 2. A worker starts: ok within 30 s, the banner is gone, and it fires the occurrence (inside the catch-up window).
    worker = startProcess(['worker/main.ts']).child;
    const ok = await healthBecomes(request, 200, 30_000);
    expect(ok).toMatchObject({ status: 'ok', database: 'reachable', workers_alive: 1 });
    expect(ok.reason).toBeUndefined();
    await page.goto(`${BASE}/schedulers/${rev}/schedules/${scheduleId}`);
    await expect(banner(page)).toHaveCount(0);
    await expect(page.getByRole('table', { name: 'Executions' }).getByText('success', { exact: true })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByText('overdue', { exact: false })).toHaveCount(0);

    // 3. The worker is killed (no graceful stop, its heartbeat row stays): degraded within 30 s.
    const killedAt = Date.now();
    await stopProcess(worker, 'SIGKILL');
    const stale = await healthBecomes(request, 503, 30_000);
    expect(Date.now() - killedAt).toBeLessThan(30_000);
    expect(stale).toMatchObject({ status: 'degraded', workers_alive: 0 });
    expect(stale.reason).toMatch(/^no worker is alive: one was last seen \d+ s ago/);
    // The banner says since when, in the viewer's zone (America/New_York), as every local time shows.
    const lastSeen = DateTime.fromISO(stale.worker_last_seen_at as string).setZone(ZONE);
    await page.goto(`${BASE}/schedulers`);
    await expect(banner(page)).toContainText(`No worker has fired since ${lastSeen.toFormat('yyyy-MM-dd HH:mm:ss')} ${lastSeen.offsetNameShort}.`);

    // 4. A new worker clears both again.
    worker = startProcess(['worker/main.ts']).child;
    await healthBecomes(request, 200, 30_000);
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Schedulers' })).toBeVisible();
    await expect(banner(page)).toHaveCount(0);
  } finally {
    await stopProcess(worker);
    await stopProcess(web.child);
  }
});

/** The first match of `re` in `output()` after position `from`, within `withinMs`. */
async function outputLine(output: () => string, re: RegExp, from = 0, withinMs = 60_000): Promise<{ match: RegExpExecArray; end: number }> {
  let found: { match: RegExpExecArray; end: number } | null = null;
  await expect
    .poll(
      () => {
        const text = output();
        const m = new RegExp(re.source, 'm').exec(text.slice(from));
        found = m ? { match: m, end: from + m.index + m[0].length } : null;
        return found !== null;
      },
      { timeout: withinMs, intervals: [100], message: `a line ${re} in the output of npm start` },
    )
    .toBe(true);
  return found!;
}

test('npm start: a killed worker is restarted with back-off while the web app answers; the new worker fires; SIGTERM stops both', async ({ request }) => {
  test.setTimeout(240_000);
  const dbFile = 'data/e2e-supervise.db';
  for (const ext of ['', '-wal', '-shm']) rmSync(path.join(ROOT, `${dbFile}${ext}`), { force: true });
  let all = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts', '--wait-for-build'], {
    cwd: ROOT,
    env: { ...ENV, DATABASE_URL: `file:./${dbFile}` },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  child.stdout!.on('data', (d) => (all += d));
  child.stderr!.on('data', (d) => (all += d));
  const output = () => all;
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const web = Number((await outputLine(output, /^start: web app started \(pid (\d+)\)$/, 0, 180_000)).match[1]);
    let at = await outputLine(output, /^start: worker started \(pid (\d+)\)$/);
    const first = Number(at.match[1]);
    await healthBecomes(request, 200, 60_000);

    process.kill(first, 'SIGKILL');
    at = await outputLine(output, /^start: worker exited \(SIGKILL\) after \d+ s; the web app keeps running; restarting the worker in 1 s \(restart 1\)$/, at.end, 10_000);
    // The web app answers meanwhile.
    expect((await request.get(`${BASE}/login`)).status()).toBe(200);
    at = await outputLine(output, /^start: worker restarted \(pid (\d+)\)$/, at.end, 10_000);
    const second = Number(at.match[1]);
    expect(second).not.toBe(first);
    expect(() => process.kill(first, 0), 'the killed worker is gone').toThrow();
    expect([process.kill(second, 0), process.kill(web, 0)], 'the new worker and the web app run').toEqual([true, true]);

    // Only the new worker is alive to fire a one-time schedule due in 3 s.
    const { rev, scheduleId } = await createDueSchedule(request, 'fired-after-restart');
    await expect
      .poll(async () => ((await (await schedulerApi(request, rev, { command: 'list_executions', schedule_id: scheduleId })).json()).executions as { status: string }[]).map((r) => r.status), {
        timeout: 30_000,
        message: `the restarted worker fires: ${output().slice(-2000)}`,
      })
      .toEqual(['success']);
    expect((await health(request)).body).toMatchObject({ status: 'ok', database: 'reachable' });

    // SIGTERM to npm start alone: it stops the web app and the worker, and exits 0.
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of [web, second]) expect(() => process.kill(pid, 0), `process ${pid} stopped`).toThrow();
    expect(output()).not.toMatch(/restarting the worker in .*\(restart 2/);
  } finally {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
});
