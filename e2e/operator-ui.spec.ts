/**
 * Acceptance (SPEC §10, the operator's browser experience) on the real web app and worker:
 * - the New Schedule form creates a one-time and a cron schedule, shown with their values in the grid
 *   and on their pages; an invalid cron expression is refused at the field and creates nothing;
 * - the next-fires preview follows the timezone;
 * - edit, disable/enable, Run now, delete (with its confirmation), each seen in the pages and in the API;
 * - a history of 25 runs pages 10, 10, 5 under Executions, newest first, without duplicates;
 * - the grid's text, State and Enabled filters and its sort by the Schedule column (name);
 * - Pause all / Resume all say how many they change; Resume all enables only what a Pause all disabled,
 *   and a schedule page says who disabled it, when, why, and that Pause all did (SPEC §12.5).
 * Every test makes its own schedules (unique aliases) and deletes them; the pause-all test restores
 * every schedule's `enabled` as it found it.
 */
import { expect, test, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import {
  command,
  createApiSchedule,
  deleteApiSchedules,
  getApiSchedule,
  listAllSchedules,
  OPS_SCHEDULER,
  revisionOf,
  schedulerCommand,
  uniqueSuffix,
  type ApiRun,
  type ApiSchedule,
} from './api';
import { gridCell, gridHref, gridNames, gridRow, literal, nextWallTime, property, scheduleGrid, utcText, wallText, whenHydrated } from './ui';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const SCHEDULE_URL = new RegExp(`/schedules/(${UUID.source})$`);

// The viewer's zone is pinned, so "Your time" columns are deterministic.
test.use({ timezoneId: 'UTC' });

/** From the schedulers list to "Ops scheduler", then New Schedule; resolves once the form is hydrated. */
async function openNewScheduleForm(page: Page): Promise<void> {
  await page.goto('/schedulers');
  await page.getByRole('link', { name: 'Ops scheduler', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Ops scheduler' })).toBeVisible();
  await page.getByRole('button', { name: 'New Schedule' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New schedule' })).toBeVisible();
  await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
}

/** The schedule page's title: its name, then its State and Enabled badges. */
async function expectTitle(page: Page, label: string, state: 'active' | 'completed', enabled: 'Enabled' | 'Disabled'): Promise<void> {
  const title = page.getByRole('heading', { level: 1 });
  await expect(title.locator('.badge')).toHaveText([state, enabled]);
  await expect(title).toHaveText(literal(label));
}

/** The id in the schedule page's URL. */
function scheduleIdOf(page: Page): string {
  const m = SCHEDULE_URL.exec(new URL(page.url()).pathname);
  expect(m, `a schedule page URL: ${page.url()}`).not.toBeNull();
  return m![1];
}

test('New Schedule: a cron and a one-time schedule are created and shown with their values in the grid and on their pages', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const s = uniqueSuffix();
  const made: string[] = [];
  try {
    // 1. A weekday cron schedule in Europe/Berlin.
    const cronAlias = `ui-cron-${s}`;
    const cronDescription = `UI cron ${s}`;
    await openNewScheduleForm(page);
    await page.getByLabel('Alias').fill(cronAlias);
    await page.getByLabel('Description').fill(cronDescription);
    await page.getByRole('radio', { name: /Recurring \(cron\)/ }).check();
    await page.getByLabel('Cron expression').fill('30 14 ? * MON-FRI *');
    await page.getByLabel('Timezone').fill('Europe/Berlin');
    await expect(page.locator('.preview-description')).toHaveText('At 02:30 PM, Monday through Friday');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page).toHaveURL(SCHEDULE_URL);
    const cronId = scheduleIdOf(page);
    made.push(cronId);

    const cronNext = nextWallTime('Europe/Berlin', 14, 30, [1, 2, 3, 4, 5]);
    const cron = await getApiSchedule(request, rev, cronId);
    expect(cron).toMatchObject({ alias: cronAlias, description: cronDescription, repeat: 'recurring_cron', cron_expression: '30 14 ? * MON-FRI *', timezone: 'Europe/Berlin', enabled: true, state: 'active' });
    expect(Date.parse(cron.next_fire_at!)).toBe(cronNext.toMillis());

    await expectTitle(page, cronAlias, 'active', 'Enabled');
    await expect(property(page, 'Description')).toHaveText(cronDescription);
    await expect(property(page, 'Repeat')).toHaveText('Recurring (recurring_cron)');
    await expect(property(page, 'Cron expression').locator('code')).toHaveText('30 14 ? * MON-FRI *');
    await expect(property(page, 'Cron expression')).toContainText('At 02:30 PM, Monday through Friday');
    await expect(property(page, 'Timezone')).toHaveText('Europe/Berlin');
    await expect(property(page, 'Enabled')).toHaveText('Yes');
    await expect(property(page, 'State')).toHaveText('active');
    await expect(property(page, 'Next fire').locator('time')).toHaveText(literal(wallText(cronNext)));
    await expect(property(page, 'Next fire')).toContainText(utcText(cronNext));
    await expect(property(page, 'Org')).toHaveText('acme-corp');
    await expect(property(page, 'Blob')).toHaveText('procedures');
    await expect(property(page, 'Session')).toHaveText('nightly-batch');
    await expect(property(page, 'Workflow definition')).toHaveText('triage');
    await expect(page.getByRole('table', { name: 'Executions' })).toHaveCount(0);
    await expect(page.getByText('No fires yet.')).toBeVisible();

    // 2. A one-time schedule tomorrow at 10:15 in Asia/Tokyo, from the grid's New Schedule button.
    const onceAlias = `ui-once-${s}`;
    const onceDescription = `UI one-time ${s}`;
    const due = DateTime.now().setZone('Asia/Tokyo').plus({ days: 1 }).set({ hour: 10, minute: 15, second: 0, millisecond: 0 });
    await openNewScheduleForm(page);
    await page.getByLabel('Alias').fill(onceAlias);
    await page.getByLabel('Description').fill(onceDescription);
    await page.getByRole('radio', { name: /One-time/ }).check();
    await page.getByLabel('Timezone').fill('Asia/Tokyo');
    await page.getByLabel('Invocation time').fill(due.toFormat("yyyy-MM-dd'T'HH:mm"));
    await expect(page.locator('.preview-description')).toHaveText(`Fires once at ${wallText(due)} GMT+9 (Asia/Tokyo)`);
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page).toHaveURL(SCHEDULE_URL);
    const onceId = scheduleIdOf(page);
    made.push(onceId);

    const once = await getApiSchedule(request, rev, onceId);
    expect(once).toMatchObject({ alias: onceAlias, description: onceDescription, repeat: 'one_time', invocation_time: due.toFormat("yyyy-MM-dd'T'HH:mm:ss"), timezone: 'Asia/Tokyo', enabled: true, state: 'active' });
    expect(Date.parse(once.next_fire_at!)).toBe(due.toMillis());
    await expect(property(page, 'Repeat')).toHaveText('One-time (one_time)');
    await expect(property(page, 'Invocation time')).toHaveText(`${wallText(due)}local time in Asia/Tokyo`);
    await expect(property(page, 'Timezone')).toHaveText('Asia/Tokyo');
    await expect(property(page, 'Next fire')).toContainText(utcText(due));

    // 3. Both rows in the grid, with their values.
    await page.goto(await gridHref(request, rev, cronId));
    const cronRow = gridRow(page, cronAlias);
    await expect(cronRow).toHaveCount(1);
    // The Schedule column shows the name, the description under it, and the short id.
    await expect(await gridCell(page, cronRow, 'Schedule')).toHaveText(`${cronAlias}${cronDescription}${cronId.slice(0, 8)}`);
    await expect(await gridCell(page, cronRow, 'Cadence')).toHaveText('30 14 ? * MON-FRI *At 02:30 PM, Monday through Friday');
    await expect(await gridCell(page, cronRow, 'Timezone')).toHaveText('Europe/Berlin');
    await expect(await gridCell(page, cronRow, 'State')).toHaveText('active');
    await expect(await gridCell(page, cronRow, 'Enabled')).toHaveText('Enabled');
    await expect(await gridCell(page, cronRow, 'Next fire')).toContainText(wallText(cronNext, false));
    await expect(await gridCell(page, cronRow, 'Target')).toHaveText('acme-corp/procedures@ default / nightly-batch');
    await expect(await gridCell(page, cronRow, 'Workflow')).toHaveText('triage');
    await expect(await gridCell(page, cronRow, 'Last run')).toHaveText('Never');

    if ((await gridHref(request, rev, onceId)) !== (await gridHref(request, rev, cronId))) await page.goto(await gridHref(request, rev, onceId));
    const onceRow = gridRow(page, onceAlias);
    await expect(onceRow).toHaveCount(1);
    await expect(await gridCell(page, onceRow, 'Schedule')).toHaveText(`${onceAlias}${onceDescription}${onceId.slice(0, 8)}`);
    await expect(await gridCell(page, onceRow, 'Cadence')).toHaveText(`${wallText(due)}One-time, local time`);
    await expect(await gridCell(page, onceRow, 'Timezone')).toHaveText('Asia/Tokyo');
    await expect(await gridCell(page, onceRow, 'Next fire')).toContainText(wallText(due, false));
  } finally {
    await deleteApiSchedules(request, rev, made);
  }
});

test('an invalid cron expression is refused at the Cron expression field, naming the cron field, and nothing is created', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `ui-badcron-${uniqueSuffix()}`;
  const before = (await listAllSchedules(request, rev)).length;

  await openNewScheduleForm(page);
  await page.getByLabel('Alias').fill(alias);
  const cron = page.getByLabel('Cron expression');

  // A syntax error: shown live, at the input (its accessible description), naming the field and token.
  await cron.fill('61 9 * * ? *');
  await expect(cron).toHaveAttribute('aria-invalid', 'true');
  await expect(cron).toHaveAccessibleDescription(/minutes: `61` is outside 0–59/);
  await expect(page.getByText('minutes: `61` is outside 0–59')).toBeVisible();
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page.getByText('Check the highlighted fields.')).toBeVisible();
  await expect(page).toHaveURL(/\/new(\?form=[0-9a-f-]+)?$/);

  // Valid syntax that can never fire (February 30th): the server refuses it, shown at the same input.
  await cron.fill('0 0 30 2 ? *');
  await expect(page.getByText('No fire time is left: this schedule would never fire.')).toBeVisible();
  await page.getByRole('button', { name: 'Create schedule' }).click();
  // At the field its label names it, so the message drops the API's field name; the alert keeps the label.
  const never = `"0 0 30 2 ? *" never fires inside the schedule's window`;
  await expect(cron).toHaveAttribute('aria-invalid', 'true');
  await expect(cron).toHaveAccessibleDescription(literal(never));
  await expect(page.locator('.field', { has: cron }).locator('.field-error')).toHaveText(never);
  await expect(page.getByRole('alert').filter({ hasText: `Cron expression: ${never}` })).toBeVisible();
  await expect(cron).toBeFocused();
  await expect(page).toHaveURL(/\/new(\?form=[0-9a-f-]+)?$/);

  expect((await listAllSchedules(request, rev)).length).toBe(before);
  const lookup = await command(request, rev, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: alias });
  expect(lookup.status).toBe(404);
  expect(lookup.body.error.code).toBe('schedule_not_found');
});

test('a target that does not resolve is refused in operator words, and the notice leaves once the target is edited', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const before = (await listAllSchedules(request, rev)).length;
  await openNewScheduleForm(page);
  await page.getByLabel('Cron expression').fill('0 9 * * ? *');
  await page.getByLabel('Target org').fill('acme-corp');
  await page.getByLabel('Target blob').fill('procedures');
  await page.getByLabel('Target revision').fill('default');
  await page.getByLabel('Session').fill('no-such-session');
  await page.getByLabel('Definition').fill('triage');
  await page.getByRole('button', { name: 'Create schedule' }).click();
  const notice = page.getByRole('alert').filter({ hasText: 'The schedule was not saved.' });
  await expect(notice).toHaveText(
    'The schedule was not saved. The target does not resolve to a writable draft revision, an open session in it, and a workflow definition you can read',
  );
  await expect(notice).toBeFocused();
  await expect(page.getByText('Check the target.')).toBeVisible();
  expect((await listAllSchedules(request, rev)).length).toBe(before);

  // Editing the target takes the notice about the old target away.
  await page.getByLabel('Session').fill('nightly-batch');
  await expect(notice).toHaveCount(0);
  await expect(page.getByText('Check the target.')).toHaveCount(0);
});

test('the next-fires preview follows the timezone: 09:00 daily in UTC, then in Asia/Kolkata (03:30 UTC)', async ({ page }) => {
  await openNewScheduleForm(page);
  await page.getByLabel('Cron expression').fill('0 9 * * ? *');
  await page.getByLabel('Timezone').fill('UTC');
  await expect(page.locator('.preview-description')).toHaveText('At 09:00 AM');

  const preview = page.getByRole('table', { name: 'Next 5 fire times' });
  const zoneColumn = preview.locator('tbody tr td:nth-child(2)');
  const viewerColumn = preview.locator('tbody tr td:nth-child(3)');
  const expected = (zone: string) => {
    const first = nextWallTime(zone, 9, 0);
    return Array.from({ length: 5 }, (_, i) => first.plus({ days: i }));
  };

  const inUtc = expected('UTC');
  await expect(preview.getByRole('columnheader', { name: 'In UTC' })).toBeVisible();
  await expect(zoneColumn).toHaveText(inUtc.map((d) => literal(`${wallText(d)} UTC`)));
  await expect(viewerColumn).toHaveText(inUtc.map((d) => literal(`${wallText(d)} UTC`)));

  await page.getByLabel('Timezone').fill('Asia/Kolkata');
  const inKolkata = expected('Asia/Kolkata');
  expect(inKolkata[0].toUTC().toFormat('HH:mm')).toBe('03:30');
  expect(inKolkata[0].toMillis()).not.toBe(inUtc[0].toMillis());
  await expect(preview.getByRole('columnheader', { name: 'In Asia/Kolkata' })).toBeVisible();
  // Same wall time 09:00 in the schedule's zone, a different instant: 03:30 in the viewer's UTC.
  await expect(zoneColumn).toHaveText(inKolkata.map((d) => literal(`${wallText(d)} GMT+5:30`)));
  await expect(viewerColumn).toHaveText(inKolkata.map((d) => literal(`${wallText(d.toUTC())} UTC`)));
  await expect(page.locator('.preview-description')).toHaveText('At 09:00 AM');
});

test('Edit: a new description and cron expression show on the schedule page, the rest unchanged', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const s = uniqueSuffix();
  const alias = `ui-edit-${s}`;
  const made = await createApiSchedule(request, rev, { alias, description: `before edit ${s}`, repeat: 'recurring_cron', cron_expression: '0 6 * * ? *', timezone: 'America/New_York' });
  try {
    await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
    await expect(property(page, 'Cron expression').locator('code')).toHaveText('0 6 * * ? *');
    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Edit ${alias}` })).toBeVisible();
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByLabel('Cron expression')).toHaveValue('0 6 * * ? *');

    const description = `after edit ${s}`;
    await page.getByLabel('Description').fill(description);
    await page.getByLabel('Cron expression').fill('45 18 ? * SAT *');
    await expect(page.locator('.preview-description')).toHaveText('At 06:45 PM, only on Saturday');
    await page.getByRole('button', { name: 'Save changes' }).click();

    await expect(page).toHaveURL(new RegExp(`/schedules/${made.id}$`));
    const next = nextWallTime('America/New_York', 18, 45, [6]);
    await expect(property(page, 'Description')).toHaveText(description);
    await expect(page.locator('.page-intro')).toHaveText(description);
    await expect(property(page, 'Cron expression').locator('code')).toHaveText('45 18 ? * SAT *');
    await expect(property(page, 'Cron expression')).toContainText('At 06:45 PM, only on Saturday');
    await expect(property(page, 'Timezone')).toHaveText('America/New_York');
    await expect(property(page, 'Next fire').locator('time')).toHaveText(literal(wallText(next)));

    const after = await getApiSchedule(request, rev, made.id);
    expect(after).toMatchObject({ alias, description, cron_expression: '45 18 ? * SAT *', timezone: 'America/New_York', enabled: true, repeat: 'recurring_cron' });
    expect(Date.parse(after.next_fire_at!)).toBe(next.toMillis());
    expect(Date.parse(after.updated_at)).toBeGreaterThan(Date.parse(made.updated_at));
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test('the grid refreshing itself (every 10 s) keeps an open row menu open and its focus; a row delete leaves focus on the outcome', async ({ page, request }) => {
  test.setTimeout(90_000);
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `ui-refresh-${uniqueSuffix()}`;
  const made = await createApiSchedule(request, rev, { alias, repeat: 'recurring_cron', cron_expression: '0 4 1 1 ? *' });
  try {
    await page.goto(await gridHref(request, rev, made.id));
    const row = gridRow(page, alias);
    const menuButton = row.getByRole('button', { name: `Actions for ${alias}` });
    await whenHydrated(menuButton);
    await menuButton.click();
    const menu = page.getByRole('group', { name: `Actions for ${alias}` });
    await expect(menu.getByRole('link', { name: 'Open' })).toBeFocused();
    // The page refreshes from the server (an RSC request every 10 s) without a reload. Once a second
    // refresh has answered, the first one has certainly been applied to the page.
    const isRefresh = (r: { url(): string; request(): { headers(): Record<string, string> } }) =>
      r.request().headers()['rsc'] === '1' && new URL(r.url()).pathname === `/schedulers/${rev}`;
    await page.waitForResponse(isRefresh, { timeout: 30_000 });
    await page.waitForResponse(isRefresh, { timeout: 30_000 });
    await expect(menu).toBeVisible();
    await expect(menu.getByRole('link', { name: 'Open' })).toBeFocused();

    // Delete from the menu: the row goes, and focus lands on the outcome, not on the page.
    await menu.getByRole('button', { name: 'Delete' }).click();
    await page.getByRole('dialog', { name: `Delete schedule ${alias}?` }).getByRole('button', { name: 'Delete' }).click();
    const outcome = page.getByText(`${alias} was deleted.`);
    await expect(outcome).toBeFocused();
    await expect(row).toHaveCount(0);
    await expect(outcome).toBeFocused();
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test('Disable and Enable, from the grid row actions and from the schedule page, change the Enabled badge and the API', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `ui-toggle-${uniqueSuffix()}`;
  const made = await createApiSchedule(request, rev, { alias, repeat: 'recurring_cron', cron_expression: '0 12 * * ? *' });
  const next = nextWallTime('UTC', 12, 0);
  try {
    // Disable from the grid's row menu.
    await page.goto(await gridHref(request, rev, made.id));
    const row = gridRow(page, alias);
    await expect(await gridCell(page, row, 'Enabled')).toHaveText('Enabled');
    await whenHydrated(row.getByRole('button', { name: `Actions for ${alias}` }));
    await row.getByRole('button', { name: `Actions for ${alias}` }).click();
    await page.getByRole('group', { name: `Actions for ${alias}` }).getByRole('button', { name: 'Disable' }).click();
    await expect(page.getByText(`${alias} is disabled.`)).toBeVisible();
    await expect(await gridCell(page, row, 'Enabled')).toHaveText('Disabled');
    await expect(await gridCell(page, row, 'Next fire')).toHaveText('—');
    expect(await getApiSchedule(request, rev, made.id)).toMatchObject({ enabled: false, next_fire_at: null });

    // Enable from the schedule page.
    await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
    await expectTitle(page, alias, 'active', 'Disabled');
    await expect(property(page, 'Next fire')).toHaveText('None while disabled');
    await whenHydrated(page.getByRole('button', { name: 'Enable', exact: true }));
    await page.getByRole('button', { name: 'Enable', exact: true }).click();
    await expect(page.getByRole('status')).toHaveText(`${alias} is enabled.`);
    await expectTitle(page, alias, 'active', 'Enabled');
    await expect(property(page, 'Enabled')).toHaveText('Yes');
    const enabled = await getApiSchedule(request, rev, made.id);
    expect(enabled.enabled).toBe(true);
    expect(Date.parse(enabled.next_fire_at!)).toBe(next.toMillis());

    // Disable from the page, enable again from the grid.
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await expectTitle(page, alias, 'active', 'Disabled');
    expect((await getApiSchedule(request, rev, made.id)).enabled).toBe(false);
    await page.goto(await gridHref(request, rev, made.id));
    await whenHydrated(row.getByRole('button', { name: `Actions for ${alias}` }));
    await row.getByRole('button', { name: `Actions for ${alias}` }).click();
    await page.getByRole('group', { name: `Actions for ${alias}` }).getByRole('button', { name: 'Enable' }).click();
    await expect(await gridCell(page, row, 'Enabled')).toHaveText('Enabled');
    await expect(await gridCell(page, row, 'Next fire')).toContainText(wallText(next, false));
    expect((await getApiSchedule(request, rev, made.id)).enabled).toBe(true);
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test('Run now fires at once: a run with trigger manual appears under Executions, links to its execution, and the next occurrence is untouched', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `ui-runnow-${uniqueSuffix()}`;
  const made = await createApiSchedule(request, rev, { alias, repeat: 'recurring_cron', cron_expression: '0 3 1 1 ? *' });
  try {
    await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
    await expect(page.getByText('No fires yet.')).toBeVisible();
    await whenHydrated(page.getByRole('button', { name: 'Run now' }));
    await page.getByRole('button', { name: 'Run now' }).click();
    await expect(page.getByRole('status')).toHaveText(`Run now on ${alias} recorded a run: success`);

    const executions = page.getByRole('table', { name: 'Executions' });
    const rows = executions.locator('tbody tr');
    await expect(rows).toHaveCount(1);
    const headers = await executions.locator('thead th').allInnerTexts();
    const cell = (name: string) => rows.first().locator('td').nth(headers.indexOf(name));
    await expect(cell('Status')).toHaveText('success');
    await expect(cell('Trigger')).toHaveText('manual');
    await expect(cell('Execution / error')).toHaveText(new RegExp(`^${UUID.source}$`));

    const { executions: runs } = (await schedulerCommand(request, rev, 'list_executions', { schedule_id: made.id })) as { executions: ApiRun[] };
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'manual', status: 'success' });
    const success = runs[0].result as Extract<ApiRun['result'], { execution_id: string }>;
    await expect(rows.first()).toHaveAttribute('data-run-id', runs[0].id);
    await expect(cell('Execution / error')).toHaveText(success.execution_id);
    // A manual fire is keyed apart: the schedule's own next occurrence stays where it was.
    expect((await getApiSchedule(request, rev, made.id)).next_fire_at).toBe(made.next_fire_at);

    // The execution id links to the workflow execution the run created, which links back.
    await cell('Execution / error').getByRole('link').click();
    await expect(page).toHaveURL(`/catalog/revisions/${success.revision_id}/executions/${success.execution_id}`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Execution ${success.execution_id}`);
    await expect(property(page, 'Session')).toContainText('nightly-batch');
    await expect(property(page, 'Fired by')).toContainText(`schedule ${alias}`);
    await expect(property(page, 'Fired by')).toContainText(`run ${runs[0].id}`);
    await page.getByRole('link', { name: `schedule ${alias}` }).click();
    await expect(page).toHaveURL(`/schedulers/${rev}/schedules/${made.id}`);
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test('Delete asks first; confirmed, the schedule leaves the grid and get_schedule answers 404 schedule_not_found', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const s = uniqueSuffix();
  const fromPage = await createApiSchedule(request, rev, { alias: `ui-del-page-${s}`, repeat: 'recurring_cron', cron_expression: '0 4 * * ? *' });
  const fromGrid = await createApiSchedule(request, rev, { alias: `ui-del-grid-${s}`, repeat: 'recurring_cron', cron_expression: '0 5 * * ? *' });
  const gone = async (id: string) => {
    const res = await command(request, rev, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: id });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('schedule_not_found');
  };
  try {
    // From the schedule page: Cancel keeps it, Delete removes it and returns to the grid.
    await page.goto(`/schedulers/${rev}/schedules/${fromPage.id}`);
    await whenHydrated(page.getByRole('button', { name: 'Delete' }));
    await page.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete schedule ${fromPage.alias}?` });
    await expect(dialog).toBeVisible();
    await expect(dialog).toContainText('its run history is deleted with it');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    expect((await getApiSchedule(request, rev, fromPage.id)).id).toBe(fromPage.id);

    await page.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(new RegExp(`/schedulers/${rev}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Ops scheduler' })).toBeVisible();
    await expect(gridRow(page, fromPage.alias!)).toHaveCount(0);
    await gone(fromPage.id);

    // From the grid's row menu.
    await page.goto(await gridHref(request, rev, fromGrid.id));
    const row = gridRow(page, fromGrid.alias!);
    await expect(row).toHaveCount(1);
    await whenHydrated(row.getByRole('button', { name: `Actions for ${fromGrid.alias}` }));
    await row.getByRole('button', { name: `Actions for ${fromGrid.alias}` }).click();
    await page.getByRole('group', { name: `Actions for ${fromGrid.alias}` }).getByRole('button', { name: 'Delete' }).click();
    const gridDialog = page.getByRole('dialog', { name: `Delete schedule ${fromGrid.alias}?` });
    await gridDialog.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText(`${fromGrid.alias} was deleted.`)).toBeVisible();
    await expect(row).toHaveCount(0);
    await gone(fromGrid.id);
  } finally {
    await deleteApiSchedules(request, rev, [fromPage.id, fromGrid.id]);
  }
});

test('a history of 25 runs pages 10, 10, 5 under Executions, newest first, with no run twice, and steps back page by page', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `ui-history-${uniqueSuffix()}`;
  const made = await createApiSchedule(request, rev, { alias, repeat: 'recurring_cron', cron_expression: '0 2 1 1 ? *' });
  try {
    const runs: ApiRun[] = [];
    for (let i = 0; i < 25; i++) runs.push((await schedulerCommand(request, rev, 'run_schedule', { schedule_id: made.id })).execution as ApiRun);
    expect(new Set(runs.map((r) => r.id)).size).toBe(25);
    // Newest first: by created_at, then id, descending (the API's order, SPEC §3.1).
    const newestFirst = [...runs].sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1)).map((r) => r.id);

    await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
    const executions = page.getByRole('table', { name: 'Executions' });
    const rows = executions.locator('tbody tr');
    const older = page.getByRole('navigation', { name: 'Execution pages' }).getByRole('link', { name: 'Older →' });
    const seen: string[] = [];
    for (const [i, size] of [10, 10, 5].entries()) {
      await expect(rows).toHaveCount(size);
      const ids = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-run-id') ?? ''));
      expect(ids, `page ${i + 1}`).toEqual(newestFirst.slice(seen.length, seen.length + size));
      await expect(executions.locator('tbody tr td:nth-child(5)')).toHaveText(Array(size).fill('manual'));
      seen.push(...ids);
      if (i < 2) {
        await older.click();
        await expect(page).toHaveURL(new RegExp(`[?&]runs=${ids[ids.length - 1]}`));
      }
    }
    await expect(older).toHaveCount(0);
    expect(new Set(seen).size).toBe(25);
    expect(seen).toEqual(newestFirst);

    // Back one page at a time: page 3 → page 2 → page 1, the same rows as on the way out.
    const pager = page.getByRole('navigation', { name: 'Execution pages' });
    await expect(pager).toContainText('page 3');
    await pager.getByRole('link', { name: '← Newer' }).click();
    await expect(pager).toContainText('page 2');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-run-id')))).toEqual(newestFirst.slice(10, 20));
    await pager.getByRole('link', { name: '← Newer' }).click();
    await expect(pager).toContainText('page 1');
    expect(await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-run-id')))).toEqual(newestFirst.slice(0, 10));
    await expect(pager.getByRole('link', { name: '← Newer' })).toHaveCount(0);
  } finally {
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test('the grid: the text filter, the State and Enabled filters show exactly the matching rows; the Schedule column sorts them by name', async ({ page, request }) => {
  test.setTimeout(90_000);
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const s = uniqueSuffix();
  const token = `flt-${s}`;
  const alias = (name: string) => `${token}-${name}`;
  const made: ApiSchedule[] = [];
  try {
    // Created out of name order, so the sort by name has something to do.
    made.push(await createApiSchedule(request, rev, { alias: alias('charlie'), description: 'export ledgers', repeat: 'recurring_cron', cron_expression: '0 7 * * ? *' }));
    made.push(await createApiSchedule(request, rev, { alias: alias('alpha'), description: 'rotate keys', repeat: 'recurring_cron', cron_expression: '0 8 * * ? *', enabled: false }));
    made.push(await createApiSchedule(request, rev, { alias: alias('bravo'), description: `billing sweep ${s}`, repeat: 'recurring_cron', cron_expression: '0 9 * * ? *' }));
    // A one-time schedule due in 3 s: the worker fires it and it becomes completed.
    const soon = DateTime.utc().plus({ seconds: 3 }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
    made.push(await createApiSchedule(request, rev, { alias: alias('delta'), description: 'one shot', repeat: 'one_time', invocation_time: soon }));
    await expect.poll(async () => (await getApiSchedule(request, rev, made[3].id)).state, { timeout: 30_000 }).toBe('completed');

    await page.goto(await gridHref(request, rev, made[0].id));
    const find = page.getByLabel('Find schedules');
    await whenHydrated(find);
    const names = gridNames(page);
    const sortedNames = async () => (await names.allInnerTexts()).sort();

    // Text filter: by alias fragment, by a word of one description, by nothing that matches.
    await find.fill(token);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${token}`));
    await expect(names).toHaveCount(4);
    await expect.poll(sortedNames).toEqual([alias('alpha'), alias('bravo'), alias('charlie'), alias('delta')]);
    await find.fill(`billing sweep ${s}`);
    await expect(names).toHaveText([alias('bravo')]);
    await find.fill(`no-such-${s}`);
    await expect(names).toHaveCount(0);
    await expect(page.getByText(/^No schedules? /).first()).toBeVisible();

    // Enabled and State selects, together with the text filter.
    await find.fill(token);
    await expect(page).toHaveURL(new RegExp(`[?&]q=${token}`));
    await expect(names).toHaveCount(4);
    await page.getByLabel('Enabled').selectOption({ label: 'Disabled' });
    await expect(page).toHaveURL(/[?&]enabled=false/);
    await expect(names).toHaveText([alias('alpha')]);
    await page.getByLabel('Enabled').selectOption({ label: 'Any' });
    await expect(names).toHaveCount(4);
    await page.getByLabel('State').selectOption('completed');
    await expect(page).toHaveURL(/[?&]state=completed/);
    await expect(names).toHaveText([alias('delta')]);
    await expect(await gridCell(page, gridRow(page, alias('delta')), 'State')).toHaveText('completed');
    await page.getByLabel('State').selectOption('active');
    await expect(names).toHaveCount(3);
    await expect.poll(sortedNames).toEqual([alias('alpha'), alias('bravo'), alias('charlie')]);
    await page.getByLabel('State').selectOption({ label: 'Any' });
    await expect(names).toHaveCount(4);

    // Sorting by the Schedule column (its name): ascending, then descending.
    const nameHeader = scheduleGrid(page).getByRole('columnheader', { name: 'Schedule', exact: true });
    await nameHeader.getByRole('button').click();
    await expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
    await expect(names).toHaveText([alias('alpha'), alias('bravo'), alias('charlie'), alias('delta')]);
    await nameHeader.getByRole('button').click();
    await expect(nameHeader).toHaveAttribute('aria-sort', 'descending');
    await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
    await expect(names).toHaveText([alias('delta'), alias('charlie'), alias('bravo'), alias('alpha')]);

    // Without the text filter, the State filter shows exactly the scheduler's completed schedules.
    await find.fill('');
    await expect(page).not.toHaveURL(/[?&]q=/);
    await page.getByLabel('State').selectOption('completed');
    await expect(page).toHaveURL(/[?&]state=completed/);
    const completed = await listAllSchedules(request, rev, { state: 'completed' });
    if (completed.length <= 50) {
      await expect.poll(sortedNames).toEqual(completed.map((c) => c.alias ?? c.id).sort());
    }
    await expect(scheduleGrid(page).locator('tbody tr td').filter({ hasText: /^active$/ })).toHaveCount(0);
  } finally {
    await deleteApiSchedules(request, rev, made.map((m) => m.id));
  }
});

test('Pause all and Resume all say how many schedules they change; Resume all enables only what Pause all disabled (SPEC §12.5)', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const s = uniqueSuffix();
  const mine = [
    await createApiSchedule(request, rev, { alias: `ui-bulk-on-${s}`, repeat: 'recurring_cron', cron_expression: '0 10 * * ? *' }),
    await createApiSchedule(request, rev, { alias: `ui-bulk-off-${s}`, repeat: 'recurring_cron', cron_expression: '0 11 * * ? *', enabled: false, paused: { note: 'kept off by hand' } }),
  ];
  // Every active schedule as it was, to put each back as found whatever happens.
  const before = await listAllSchedules(request, rev, { state: 'active' });
  const plural = (n: number) => `${n} schedule${n === 1 ? '' : 's'}`;
  try {
    const enabledCount = before.filter((x) => x.enabled).length;
    // Resume all enables what a Pause all disabled: the ones this one pauses, and any paused so before.
    const resumable = enabledCount + before.filter((x) => !x.enabled && x.paused?.bulk).length;
    const othersOff = before.filter((x) => !x.enabled && !x.paused?.bulk).length;
    expect(enabledCount).toBeGreaterThanOrEqual(1);
    expect(othersOff).toBeGreaterThanOrEqual(1);

    await page.goto(`/schedulers/${rev}`);
    await whenHydrated(page.getByRole('button', { name: 'Pause all' }));
    await page.getByRole('button', { name: 'Pause all' }).click();
    const pause = page.getByRole('dialog', { name: `Pause ${plural(enabledCount)}?` });
    await expect(pause).toBeVisible();
    await expect(pause).toContainText(`${plural(enabledCount)} of this scheduler`);
    await pause.getByRole('button', { name: 'Pause all' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Paused' })).toHaveText(`Paused ${plural(enabledCount)}.`);
    const paused = await listAllSchedules(request, rev, { state: 'active' });
    expect(paused.filter((x) => x.enabled).map((x) => x.alias ?? x.id)).toEqual([]);
    expect(paused.length).toBe(before.length);
    const on = paused.find((x) => x.id === mine[0].id)!;
    expect(on.paused).toMatchObject({ by: { type: 'user' }, bulk: true });
    expect(paused.find((x) => x.id === mine[1].id)!.paused).toMatchObject({ by: { type: 'org' }, note: 'kept off by hand' });

    await expect(page.getByRole('button', { name: 'Pause all' })).toBeDisabled();

    // The schedule page says who disabled a schedule, when, and that Pause all did; or why, by its note.
    await page.goto(`/schedulers/${rev}/schedules/${mine[0].id}`);
    await expect(page.getByTestId('paused')).toContainText(/Disabled by Acme Operator \(operator@acme-corp\.example\) at \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC by Pause all\./);
    await page.goto(`/schedulers/${rev}/schedules/${mine[1].id}`);
    await expect(page.getByTestId('paused')).toContainText('Disabled by Acme Corp');
    await expect(page.getByTestId('paused')).toContainText('Note: kept off by hand');

    await page.goto(`/schedulers/${rev}`);
    await whenHydrated(page.getByRole('button', { name: 'Resume all' }));
    await page.getByRole('button', { name: 'Resume all' }).click();
    const resume = page.getByRole('dialog', { name: `Resume ${plural(resumable)}?` });
    await expect(resume).toBeVisible();
    await expect(resume).toContainText(`${plural(othersOff)} disabled otherwise (one by one, or by the scheduler after failed occurrences) ${othersOff === 1 ? 'stays' : 'stay'} disabled.`);
    await resume.getByRole('button', { name: 'Resume all' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Resumed' })).toHaveText(`Resumed ${plural(resumable)}.`);
    const resumed = await listAllSchedules(request, rev, { state: 'active' });
    // The one disabled by hand before stays disabled, with its note; the others are enabled again.
    expect(resumed.find((x) => x.id === mine[1].id)).toMatchObject({ enabled: false, paused: { note: 'kept off by hand' } });
    expect(resumed.filter((x) => !x.enabled).length).toBe(othersOff);
    expect(resumed.find((x) => x.id === mine[0].id)).toMatchObject({ enabled: true });
    expect(resumed.find((x) => x.id === mine[0].id)!.paused).toBeUndefined();
    await expect(page.getByRole('button', { name: 'Resume all' })).toBeDisabled();
  } finally {
    // Put back any schedule whose enabled the test changed (a failure may leave them paused); then remove ours.
    for (const x of before) {
      const now = await command(request, rev, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: x.id });
      if (now.status === 200 && now.body.schedule.state === 'active' && now.body.schedule.enabled !== x.enabled) {
        await schedulerCommand(request, rev, 'update_schedule', { schedule_id: x.id, enabled: x.enabled });
      }
    }
    await deleteApiSchedules(request, rev, mine.map((m) => m.id));
  }
});
