/**
 * Outcomes (SPEC §16) on the real web app and worker: a real webhook receiver on loopback
 * (E2E_PORT + 25, this spec's port, no other spec's) checks in at the URL each delivery carries in its
 * `scheduler-checkin-url` header — the first run `/start`, then done with a message after a second; the
 * second run `/3` (exit code 3) — and the schedule's history shows each outcome, its duration, the exit
 * code and the message; the grid's last-run column and its outcome filter agree. The schedule form
 * explains the overlap policy's choices only once a completion time is set. axe finds nothing serious
 * at the desktop width and at 390 px.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { createApiSchedule, deleteApiSchedules, E2E_PORT, OPS_SCHEDULER, revisionOf, schedulerCommand, uniqueSuffix } from './api';
import { expectNoSeriousViolations, gridRow } from './ui';

/** What the receiver does with its n-th delivery (0-based), given that delivery's check-in URL. */
type Script = (n: number, checkinUrl: string) => Promise<void>;

async function startReceiver(script: Script): Promise<{ url: string; close: () => Promise<void> }> {
  let n = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const url = String(req.headers['scheduler-checkin-url'] ?? '');
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('accepted');
      // The work runs after the webhook is answered, as a job started by it would.
      if (url) void script(n++, url).catch(() => undefined);
    });
  });
  await new Promise<void>((resolve) => server.listen(E2E_PORT + 25, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jobs/export`,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function axeAtBothWidths(page: Page, what: string): Promise<void> {
  await expectNoSeriousViolations(page, `${what} (desktop)`);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSeriousViolations(page, `${what} at 390 px`);
  expect(await page.evaluate(() => document.documentElement.scrollWidth), `${what} scrolls sideways at 390 px`).toBeLessThanOrEqual(390);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('the history shows the outcome, duration, exit code and message of a real receiver\'s check-ins; the grid filters by the last outcome', async ({ page, request }) => {
  const checkedIn: string[] = [];
  const post = async (url: string, body?: string) => {
    checkedIn.push(url);
    const res = await fetch(url, { method: 'POST', body });
    expect(res.status).toBe(200);
  };
  const receiver = await startReceiver(async (n, url) => {
    if (n === 0) {
      await post(`${url}/start`);
      await sleep(1500);
      await post(url, 'exported 42 rows');
    } else {
      await post(`${url}/3`, 'disk full');
    }
  });
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `outcome-${uniqueSuffix()}`;
  const made: string[] = [];
  try {
    const schedule = await createApiSchedule(request, rev, {
      alias,
      repeat: 'recurring_cron',
      cron_expression: '0 3 1 1 ? *',
      invocation_target_type: 'http',
      invocation_target: { url: receiver.url, method: 'POST', body: { job: 'export' } },
      completion: { expect_within_seconds: 600 },
    });
    made.push(schedule.id);
    const runs = async () => (await schedulerCommand(request, rev, 'list_executions', { schedule_id: schedule.id })).executions as { outcome?: string }[];

    await schedulerCommand(request, rev, 'run_schedule', { schedule_id: schedule.id });
    await expect.poll(async () => (await runs()).map((r) => r.outcome), { timeout: 20_000 }).toEqual(['succeeded']);
    await schedulerCommand(request, rev, 'run_schedule', { schedule_id: schedule.id });
    await expect.poll(async () => (await runs()).map((r) => r.outcome), { timeout: 20_000 }).toEqual(['failed', 'succeeded']);
    expect(checkedIn.map((u) => u.replace(/^.*\/api\/v1\/checkins\/[^/]+/, ''))).toEqual(['/start', '', '/3']);

    await page.goto(`/schedulers/${rev}/schedules/${schedule.id}`);
    const outcomes = page.locator('[data-outcome]');
    await expect(outcomes).toHaveCount(2);
    // Newest first: failed with its exit code and message; then succeeded, ~1.5 s from /start to done.
    const failed = page.locator('[data-outcome="failed"]');
    await expect(failed).toContainText('failed');
    await expect(failed).toContainText('exit 3');
    await expect(failed).toContainText('disk full');
    const succeeded = page.locator('[data-outcome="succeeded"]');
    await expect(succeeded).toContainText('succeeded');
    await expect(succeeded).toContainText('exported 42 rows');
    const duration = Number(/(\d+\.\d) s/.exec((await succeeded.textContent()) ?? '')?.[1]);
    expect(duration).toBeGreaterThanOrEqual(1.5);
    expect(duration).toBeLessThan(10);
    await expect(page.getByTestId('in-progress')).toHaveCount(0);
    await axeAtBothWidths(page, 'a schedule page with outcomes');

    // The grid: the last run reads "failed", and the outcome filter finds it (and not under succeeded).
    await page.goto(`/schedulers/${rev}?q=${alias}&outcome=failed`);
    await expect(gridRow(page, alias)).toContainText('failed');
    await page.goto(`/schedulers/${rev}?q=${alias}&outcome=succeeded`);
    await expect(gridRow(page, alias)).toHaveCount(0);
    await page.goto(`/schedulers/${rev}?q=${alias}`);
    await page.getByLabel('Last outcome').selectOption('failed');
    await expect(page).toHaveURL(/outcome=failed/);
    await expect(gridRow(page, alias)).toBeVisible();
    await axeAtBothWidths(page, 'the grid filtered by outcome');
  } finally {
    await deleteApiSchedules(request, rev, made);
    await receiver.close();
  }
});

test('the form explains the overlap policy only once a completion time is set', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  await page.goto(`/schedulers/${rev}/new`);
  await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
  const note = page.getByText('Overlap policy: with no completion expected, a run is never in progress, so every occurrence fires.');
  const skip = page.getByRole('radio', { name: /^Skip/ });
  await expect(note).toBeVisible();
  await expect(skip).toHaveCount(0);
  await page.getByLabel(/^Expect completion within/).fill('300');
  await expect(note).toHaveCount(0);
  await expect(skip).toBeVisible();
  await expect(page.getByText('An occurrence due while a run is in progress is recorded as skipped and not delivered.')).toBeVisible();
  await expect(page.getByRole('radio', { name: /^Buffer one/ })).toBeVisible();
  await axeAtBothWidths(page, 'the schedule form with a completion time');
  await page.getByLabel(/^Expect completion within/).fill('');
  await expect(note).toBeVisible();
  await expect(skip).toHaveCount(0);
});
