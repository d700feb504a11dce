/**
 * Backfill (SPEC §18.1) from the schedule page on the real web app and worker: a webhook schedule in
 * Europe/Berlin to a real receiver on loopback (E2E_PORT + 23, this spec's port; each delivery answered
 * after 300 ms). **Backfill…** takes a range in the schedule's zone, shows the dry run's count and
 * first instants before confirming, then the progress bar and counts update until the backfill
 * completes; history rows of the backfill say so and link to it. A second, slower backfill is
 * cancelled from the page and stops; **Resume with catch-up** enables the (disabled) schedule and
 * starts a backfill of what it missed. axe finds nothing serious with the form open, nor at 390 px.
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { toLocalTime } from '../lib/cron';
import { createApiSchedule, deleteApiSchedules, E2E_PORT, getApiSchedule, OPS_SCHEDULER, revisionOf, schedulerCommand, uniqueSuffix } from './api';
import { expectNoSeriousViolations, whenHydrated } from './ui';

const ZONE = 'Europe/Berlin';
const MINUTE = 60_000;

test('Backfill… from the schedule page: dry-run count and instants, progress to completion, history links; cancel stops a running one', async ({ page, request }) => {
  const received: string[] = [];
  let delayMs = 300;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push(body);
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('ok');
      }, delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(E2E_PORT + 23, '127.0.0.1', resolve));
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `backfill-${uniqueSuffix()}`;
  const made: string[] = [];
  try {
    // Every minute, disabled: its own occurrences stay out of the receiver's count; a backfill fires
    // whatever the schedule's enabled state (docs/decisions.md 294).
    const schedule = await createApiSchedule(request, rev, {
      alias,
      repeat: 'recurring_cron',
      cron_expression: '* * * * ? *',
      timezone: ZONE,
      enabled: false,
      invocation_target_type: 'http',
      invocation_target: { url: `http://127.0.0.1:${E2E_PORT + 23}/hook`, method: 'POST', body: { at: '<aws.scheduler.scheduled-time>' } },
    });
    made.push(schedule.id);

    await page.goto(`/schedulers/${rev}/schedules/${schedule.id}`);
    const panel = page.getByTestId('backfills');
    const open = panel.getByRole('button', { name: 'Backfill…' });
    await whenHydrated(open);
    await open.click();
    // 20 minutely occurrences, as wall times in the schedule's zone.
    const to = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - 5 * MINUTE);
    const from = new Date(to.getTime() - 20 * MINUTE);
    await panel.getByLabel('From (after)').fill(toLocalTime(from, ZONE).slice(0, 16));
    await panel.getByLabel('To (up to)').fill(toLocalTime(to, ZONE).slice(0, 16));
    await panel.getByLabel('At most in flight').fill('2');
    // From the keyboard: Enter on Preview, then focus is on Start (Preview is disabled meanwhile).
    await panel.getByRole('button', { name: 'Preview' }).focus();
    await page.keyboard.press('Enter');
    const preview = panel.getByTestId('backfill-preview');
    await expect(preview.getByTestId('backfill-count')).toHaveText('20');
    await expect(panel.getByRole('button', { name: 'Start backfill of 20' })).toBeFocused();
    await expect(preview.getByRole('listitem')).toHaveCount(20);
    // Instants in the schedule's zone: the first is one minute after From.
    await expect(preview.getByRole('listitem').first()).toContainText(toLocalTime(new Date(from.getTime() + MINUTE), ZONE).slice(11, 16));
    await expectNoSeriousViolations(page, 'the schedule page with Backfill… open');
    if (process.env.BACKFILL_SHOTS) await page.screenshot({ path: `${process.env.BACKFILL_SHOTS}/preview.png`, fullPage: true });
    expect(received).toHaveLength(0);

    await panel.getByRole('button', { name: 'Start backfill of 20' }).click();
    const item = panel.getByTestId('backfill').first();
    await expect(item).toBeVisible();
    // Progress updates by itself, then completes.
    await expect(item.getByTestId('backfill-progress')).not.toHaveText(/^0 of 20 done/, { timeout: 30_000 });
    await expect(item).toHaveAttribute('data-state', 'completed', { timeout: 60_000 });
    await expect(item.getByTestId('backfill-progress')).toContainText('20 of 20 done');
    await expect(item.locator('progress')).toHaveAttribute('value', '20');
    if (process.env.BACKFILL_SHOTS) await page.screenshot({ path: `${process.env.BACKFILL_SHOTS}/completed.png`, fullPage: true });
    // The section fits a phone's width, and axe finds nothing serious there.
    await page.setViewportSize({ width: 390, height: 844 });
    await expectNoSeriousViolations(page, 'the schedule page with a backfill, at 390 px');
    expect(await page.evaluate(() => document.documentElement.scrollWidth), 'the schedule page scrolls sideways at 390 px').toBeLessThanOrEqual(390);
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(received).toHaveLength(20);
    // Each delivery carried its own past instant.
    expect(new Set(received.map((b) => (JSON.parse(b) as { at: string }).at)).size).toBe(20);

    // The history's rows of the backfill say so and link to it.
    const backfillId = (await item.getAttribute('id'))!.replace('backfill-', '');
    const link = page.getByTestId('run-backfill-link').first();
    await expect(link).toBeVisible();
    await expect(link).toHaveAttribute('href', `/schedulers/${rev}/schedules/${schedule.id}/backfills/${backfillId}`);

    // A slower one, cancelled from the page.
    delayMs = 1500;
    await open.click();
    await panel.getByLabel('From (after)').fill(toLocalTime(new Date(to.getTime() - 200 * MINUTE), ZONE).slice(0, 16));
    await panel.getByLabel('To (up to)').fill(toLocalTime(new Date(to.getTime() - 100 * MINUTE), ZONE).slice(0, 16));
    await panel.getByLabel('At most in flight').fill('1');
    await panel.getByRole('button', { name: 'Preview' }).click();
    await expect(panel.getByTestId('backfill-count')).toHaveText('100');
    await panel.getByRole('button', { name: 'Start backfill of 100' }).click();
    const running = panel.locator('[data-testid="backfill"][data-state="running"]');
    await expect(running).toHaveCount(1);
    await expect.poll(() => received.length, { timeout: 30_000 }).toBeGreaterThan(20);
    await running.getByRole('button', { name: 'Cancel backfill' }).click();
    const cancelled = panel.locator('[data-testid="backfill"][data-state="cancelled"]');
    await expect(cancelled).toHaveCount(1);
    if (process.env.BACKFILL_SHOTS) await page.screenshot({ path: `${process.env.BACKFILL_SHOTS}/cancelled.png`, fullPage: true });
    const at = received.length;
    await page.waitForTimeout(4000);
    // Nothing more starts (at most the one in flight when it was cancelled ends).
    expect(received.length).toBeLessThanOrEqual(at + 1);
    const b = (await schedulerCommand(request, rev, 'list_backfills', { schedule_id: schedule.id })).backfills as { state: string; fired: number; total: number }[];
    expect(b.map((x) => x.state)).toEqual(['cancelled', 'completed']);
    expect(b[0].fired).toBeLessThan(100);

    // Resume with catch-up (SPEC §18.2): enables the schedule and backfills what it missed while paused.
    // It has missed one once a minute has begun since it was paused (at creation): wait for that
    // instant if the steps above were quicker, so the dry run has something to count.
    const firstMissed = Math.floor(Date.parse(schedule.paused!.at) / MINUTE) * MINUTE + MINUTE;
    await page.waitForTimeout(Math.max(0, firstMissed + 1000 - Date.now()));
    const resume = page.getByRole('button', { name: 'Resume with catch-up…' });
    await whenHydrated(resume);
    await resume.focus();
    await page.keyboard.press('Enter');
    // The dry run first: how many occurrences would be redone; nothing is enabled before Confirm.
    await expect(page.getByRole('status').filter({ hasText: /^This enables the schedule and backfills \d+ missed occurrences?, from / })).toBeVisible();
    expect((await getApiSchedule(request, rev, schedule.id)).enabled).toBe(false);
    await expect(page.getByRole('button', { name: 'Confirm resume' })).toBeFocused();
    await page.getByRole('button', { name: 'Confirm resume' }).click();
    await expect(page.getByRole('status').filter({ hasText: /^Enabled; backfilling \d+ missed occurrences?\.$/ })).toBeVisible();
    await expect.poll(async () => (await getApiSchedule(request, rev, schedule.id)).enabled).toBe(true);
    const after = (await schedulerCommand(request, rev, 'list_backfills', { schedule_id: schedule.id })).backfills as { reprocess: string }[];
    expect(after).toHaveLength(3);
    expect(after[0].reprocess).toBe('missing');
    await expect(resume).toHaveCount(0);
  } finally {
    await deleteApiSchedules(request, rev, made);
    await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
  }
});

test('every backfill has a view: the schedule page lists the latest 5 and "Show all backfills"; a history row of an older one opens it; an empty list says so', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `backfill-views-${uniqueSuffix()}`;
  const made: string[] = [];
  try {
    // Disabled, every minute, to a workflow target (recorded in the fire's transaction): six
    // backfills of one occurrence each, oldest first.
    const schedule = await createApiSchedule(request, rev, { alias, repeat: 'recurring_cron', cron_expression: '* * * * ? *', enabled: false });
    made.push(schedule.id);
    const to = Math.floor(Date.now() / MINUTE) * MINUTE - 10 * MINUTE;
    const ids: string[] = [];
    for (let k = 6; k >= 1; k--) {
      const at = to - k * MINUTE;
      const r = await schedulerCommand(request, rev, 'backfill_schedule', { schedule_id: schedule.id, from: new Date(at - MINUTE).toISOString(), to: new Date(at).toISOString() });
      ids.push((r.backfill as { id: string }).id);
    }
    const oldest = ids[0];
    await expect.poll(async () => ((await schedulerCommand(request, rev, 'get_backfill', { backfill_id: oldest })).backfill as { state: string }).state, { timeout: 30_000 }).toBe('completed');

    const schedulePath = `/schedulers/${rev}/schedules/${schedule.id}`;
    await page.goto(schedulePath);
    const panel = page.getByTestId('backfills');
    await expect(panel.getByTestId('backfill')).toHaveCount(5);
    await expect(panel.locator(`#backfill-${oldest}`)).toHaveCount(0);
    // The oldest backfill's run in the history links to its own view.
    const link = page.locator(`[data-testid="run-backfill-link"][title="${oldest}"]`);
    await expect(link).toHaveAttribute('href', `${schedulePath}/backfills/${oldest}`);
    await link.click();
    await expect(page).toHaveURL(`${schedulePath}/backfills/${oldest}`);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(`Backfill ${oldest.slice(0, 8)}`);
    await expect(page.getByTestId('backfill')).toHaveAttribute('data-state', 'completed');
    await expect(page.getByTestId('backfill-progress')).toContainText('1 of 1 done');
    await expectNoSeriousViolations(page, 'a backfill page');

    // "Show all backfills": every one, newest first, each linking to its view.
    await page.goto(schedulePath);
    await page.getByTestId('backfills-show-all').click();
    await expect(page).toHaveURL(`${schedulePath}/backfills`);
    await expect(page.getByTestId('backfill')).toHaveCount(6);
    await expect(page.getByTestId('backfill-link').last()).toHaveAttribute('href', `${schedulePath}/backfills/${oldest}`);
    await expectNoSeriousViolations(page, 'the backfills page');

    // A schedule with none: the list says so; an unknown backfill is a 404.
    const empty = await createApiSchedule(request, rev, { alias: `${alias}-none`, repeat: 'recurring_cron', cron_expression: '* * * * ? *', enabled: false });
    made.push(empty.id);
    await page.goto(`/schedulers/${rev}/schedules/${empty.id}/backfills`);
    await expect(page.getByText('No backfills yet.')).toBeVisible();
    const missing = await page.goto(`/schedulers/${rev}/schedules/${empty.id}/backfills/${oldest}`);
    expect(missing?.status()).toBe(404);
  } finally {
    await deleteApiSchedules(request, rev, made);
  }
});
