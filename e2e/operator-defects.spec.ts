/**
 * The smaller defects of issue "Operator safety", each pinned in the browser on the real web app and
 * worker: a filter picked while typed text waits is kept; no hydration error on the schedule page; a
 * long unbroken description neither widens the grid nor hides the row menu; a run whose execution was
 * deleted with its session has no dead link; history on a phone is cards; one notice at a time; a
 * completed schedule is not shown as a green "Enabled"; account and org admin times in the viewer's zone.
 * Every test makes its own schedules (unique aliases) and deletes them.
 */
import { expect, test, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { command, createApiSchedule, deleteApiSchedules, getApiSchedule, headers, OPS_SCHEDULER, revisionOf, schedulerCommand, uniqueSuffix, type ApiRun } from './api';
import { gridHref, gridRow, whenHydrated } from './ui';

test('a State filter picked while typed search text waits for its pause is kept, with the text', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  await page.goto(`/schedulers/${rev}`);
  const find = page.getByLabel('Find schedules');
  await whenHydrated(find);
  // Type, then pick a State filter well within the 300 ms search pause.
  await find.pressSequentially('zz-no-such', { delay: 10 });
  await page.getByLabel('State', { exact: true }).selectOption('completed');
  // The URL settles with both, and stays so after the pause has passed.
  await expect(page).toHaveURL(/[?&]q=zz-no-such/);
  await expect(page).toHaveURL(/[?&]state=completed/);
  await page.waitForTimeout(800);
  await expect(page).toHaveURL(/[?&]state=completed/);
  await expect(page.getByLabel('State', { exact: true })).toHaveValue('completed');
  await expect(find).toHaveValue('zz-no-such');
});

test('the schedule page hydrates without a React error, load after load (40 loads)', async ({ page, request }) => {
  test.setTimeout(180_000);
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const made = await createApiSchedule(request, rev, { alias: `hydrate-${uniqueSuffix()}`, repeat: 'recurring_cron', cron_expression: '0 8 * * ? *', enabled: false });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e).slice(0, 200)));
  try {
    for (let i = 0; i < 40; i++) {
      await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
      await expect(page.getByRole('heading', { level: 1 })).toContainText(made.alias!);
      // A hydration failure is reported a few hundred ms after the document loads.
      await page.waitForTimeout(400);
    }
    expect(errors, 'no hydration error (#418) on any load').toEqual([]);
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test('a 64-character alias and a 256-character description without spaces neither widen the grid nor hide the row menu (1280 and 1024 px)', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `wide-${uniqueSuffix()}-`.padEnd(64, 'w');
  const made = await createApiSchedule(request, rev, { alias, description: 'x'.repeat(256), repeat: 'recurring_cron', cron_expression: '0 4 * * ? *' });
  try {
    const href = await gridHref(request, rev, made.id);
    for (const width of [1280, 1024]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(href);
      const menu = page.getByRole('button', { name: `Actions for ${alias}` });
      await expect(menu).toBeVisible();
      const m = await menu.evaluate((button) => {
        const box = button.closest('.table-scroll')!;
        const b = button.getBoundingClientRect();
        const r = box.getBoundingClientRect();
        return { inBox: b.left >= r.left && b.right <= r.right, overflow: box.scrollWidth - box.clientWidth, pageOverflow: document.documentElement.scrollWidth - window.innerWidth };
      });
      expect(m.inBox, `${width} px: the row menu is inside the grid's visible box`).toBe(true);
      expect(m.pageOverflow, `${width} px: the page does not scroll sideways`).toBeLessThanOrEqual(0);
      if (width === 1280) expect(m.overflow, '1280 px: the grid fits without scrolling').toBeLessThanOrEqual(0);
      // The menu opens fully on screen.
      await menu.click();
      const group = page.getByRole('group', { name: `Actions for ${alias}` });
      await expect(group.getByRole('link', { name: 'Open' })).toBeVisible();
      const g = await group.boundingBox();
      expect(g!.x).toBeGreaterThanOrEqual(0);
      expect(g!.x + g!.width).toBeLessThanOrEqual(width);
      await page.keyboard.press('Escape');
    }
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test('a run whose execution was deleted with its session shows the execution without a dead link, and says why', async ({ page, request }) => {
  const s = uniqueSuffix();
  const [procedures, rev] = await Promise.all([revisionOf(request, 'procedures'), revisionOf(request, OPS_SCHEDULER)]);
  const session = `doomed-${s}`;
  const created = await command(request, procedures, { engine: 'workflow_blobhub', command: 'create_session', alias: session });
  expect(created.status, JSON.stringify(created.body)).toBe(200);
  const made = await createApiSchedule(request, rev, {
    alias: `gone-exec-${s}`,
    repeat: 'recurring_cron',
    cron_expression: '0 5 * * ? *',
    invocation_target: { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session }, workflow: { definition: 'triage' }, input_data: [] },
  });
  try {
    const run = (await schedulerCommand(request, rev, 'run_schedule', { schedule_id: made.id })).execution as ApiRun;
    expect(run.status).toBe('success');
    if (!('execution_id' in run.result)) throw new Error(`run_schedule recorded no execution: ${JSON.stringify(run.result)}`);
    const { execution_id: executionId, revision_id: executionRevision } = run.result;
    await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
    const history = page.getByRole('table', { name: 'Executions' });
    await expect(history.getByRole('link', { name: executionId })).toBeVisible();

    const deleted = await command(request, procedures, { engine: 'workflow_blobhub', command: 'delete_session', session_id: session });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect((await request.get(`/catalog/revisions/${executionRevision}/executions/${executionId}`)).status()).toBe(404);
    await page.reload();
    const row = history.locator(`tr[data-run-id="${run.id}"]`);
    await expect(row.getByText(executionId)).toBeVisible();
    await expect(row.getByRole('link', { name: executionId })).toHaveCount(0);
    await expect(row).toContainText('Execution deleted: its session was deleted.');
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test.describe('on a phone (390 px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('a schedule’s history is a list of labelled cards, not a sideways table', async ({ page, request }) => {
    const rev = await revisionOf(request, OPS_SCHEDULER);
    const made = await createApiSchedule(request, rev, { alias: `phone-runs-${uniqueSuffix()}`, repeat: 'recurring_cron', cron_expression: '0 6 * * ? *' });
    try {
      for (let i = 0; i < 2; i++) await schedulerCommand(request, rev, 'run_schedule', { schedule_id: made.id });
      await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
      const history = page.getByRole('table', { name: 'Executions' });
      await expect(history.locator('tbody tr')).toHaveCount(2);
      const layout = await history.evaluate((table) => {
        const box = table.closest('.table-scroll')!;
        const row = table.querySelector('tbody tr')!;
        const cell = row.querySelector('td')!;
        return { overflow: box.scrollWidth - box.clientWidth, row: getComputedStyle(row).display, label: getComputedStyle(cell, '::before').content, width: row.getBoundingClientRect().width };
      });
      expect(layout.overflow, 'no sideways scrolling').toBeLessThanOrEqual(0);
      expect(layout.row).toBe('block');
      expect(layout.label).toBe('"Status"');
      expect(layout.width).toBeLessThanOrEqual(390);
    } finally {
      await deleteApiSchedules(request, rev, [made.id]);
    }
  });
});

/** A scheduler of this test's own with `count` schedules (Pause all there touches nothing else). */
async function ownScheduler(request: Parameters<typeof revisionOf>[0], alias: string): Promise<string> {
  const res = await request.post('/api/v1/orgs/acme-corp/blobs', { headers, data: { type: 'scheduler', alias, name: alias } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).default_revision_id as string;
}

async function deleteOwnScheduler(page: Page, rev: string, name: string): Promise<void> {
  await page.goto(`/schedulers/${rev}`);
  await page.getByRole('button', { name: 'Delete scheduler' }).click();
  await page.getByRole('dialog', { name: `Delete scheduler ${name}?` }).getByRole('button', { name: 'Delete scheduler' }).click();
  await expect(page).toHaveURL(/\/schedulers$/);
}

test('one notice at a time: a newer outcome replaces the older one (row Run now, then Pause all)', async ({ page, request }) => {
  const name = `notice-sched-${uniqueSuffix()}`;
  const rev = await ownScheduler(request, name);
  const alias = `notice-${uniqueSuffix()}`;
  await createApiSchedule(request, rev, { alias, repeat: 'recurring_cron', cron_expression: '0 7 * * ? *' });
  try {
    await page.goto(`/schedulers/${rev}`);
    await page.getByRole('button', { name: `Actions for ${alias}` }).click();
    await page.getByRole('group', { name: `Actions for ${alias}` }).getByRole('button', { name: 'Run now' }).click();
    const runNotice = page.getByText(`Run now on ${alias} recorded a run`);
    await expect(runNotice).toBeVisible();
    await page.getByRole('button', { name: 'Pause all' }).click();
    await page.getByRole('dialog', { name: 'Pause 1 schedule?' }).getByRole('button', { name: 'Pause all' }).click();
    await expect(page.getByText('Paused 1 schedule.')).toBeVisible();
    await expect(runNotice).toHaveCount(0);
    // And the other way round: a row's outcome replaces Pause all's.
    await page.getByRole('button', { name: `Actions for ${alias}` }).click();
    await page.getByRole('group', { name: `Actions for ${alias}` }).getByRole('button', { name: 'Enable' }).click();
    await expect(page.getByText(`${alias} is enabled.`)).toBeVisible();
    await expect(page.getByText('Paused 1 schedule.')).toHaveCount(0);
  } finally {
    await deleteOwnScheduler(page, rev, name);
  }
});

test('a completed schedule is not shown as a green "Enabled", in the grid or on its page', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `done-${uniqueSuffix()}`;
  const soon = DateTime.utc().plus({ seconds: 2 }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
  const made = await createApiSchedule(request, rev, { alias, repeat: 'one_time', invocation_time: soon });
  try {
    await expect.poll(async () => (await getApiSchedule(request, rev, made.id)).state, { timeout: 30_000 }).toBe('completed');
    expect((await getApiSchedule(request, rev, made.id)).enabled).toBe(true);
    await page.goto(await gridHref(request, rev, made.id));
    const badge = gridRow(page, alias).locator('td.col-enabled .badge');
    await expect(badge).toHaveText('Enabled');
    await expect(badge).toHaveClass(/badge-muted/);
    await expect(badge).not.toHaveClass(/badge-ok/);
    await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
    const title = page.getByRole('heading', { level: 1 }).locator('.badge');
    await expect(title).toHaveText(['completed', 'Enabled']);
    await expect(title.nth(1)).toHaveClass(/badge-muted/);
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test.describe('in the viewer’s zone (America/New_York)', () => {
  test.use({ timezoneId: 'America/New_York' });

  test('the Account and Org admin pages show times in the viewer’s zone, like the rest, not UTC', async ({ page }) => {
    const zone = DateTime.now().setZone('America/New_York').offsetNameShort; // EST or EDT
    await page.goto('/account');
    const form = page.getByRole('form', { name: 'New personal key' });
    const name = `tz-${uniqueSuffix()}`;
    await form.getByLabel('Key name').fill(name);
    await form.getByRole('button', { name: 'Create key' }).click();
    await expect(form.getByTestId('shown-once')).toBeVisible();
    await page.reload();
    const created = page.getByRole('row').filter({ hasText: name }).locator('td').nth(3);
    await expect(created).toHaveText(new RegExp(`^\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d ${zone}$`));
    await page.goto('/orgs/acme-corp/admin');
    const since = page.getByRole('table', { name: 'Members' }).getByRole('row').nth(1).locator('td').nth(3);
    await expect(since).toHaveText(new RegExp(` ${zone}$`));
  });
});
