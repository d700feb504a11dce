/**
 * SPEC §15 in the browser, on the real web app and worker:
 * - two tabs edit one schedule: the second save shows what changed and saves nothing until the
 *   operator chooses Overwrite (their changes saved) or Reload (the saved values shown);
 * - a create whose answer was lost, then a Reload (or a Back to the form) and the same save again,
 *   leaves one schedule (the form's client_token);
 * - the schedule page's Activity panel names who did what.
 */
import { expect, test, type Page } from '@playwright/test';
import { createApiSchedule, deleteApiSchedules, getApiSchedule, listAllSchedules, OPS_SCHEDULER, revisionOf, uniqueSuffix } from './api';

async function openEdit(page: Page, rev: string, id: string): Promise<void> {
  await page.goto(`/schedulers/${rev}/schedules/${id}/edit`);
  await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
}

test('two tabs edit one schedule: the second save shows the conflict, then Overwrite saves it or Reload shows the other tab\'s values', async ({ page, context, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `two-tabs-${uniqueSuffix()}`;
  const made = await createApiSchedule(request, rev, { alias, description: 'as created', repeat: 'recurring_cron', cron_expression: '0 6 * * ? *', timezone: 'UTC' });
  const tabB = await context.newPage();
  try {
    expect(made.version).toBe(1);
    await openEdit(page, rev, made.id);
    await openEdit(tabB, rev, made.id);

    await page.getByLabel('Description').fill('from tab A');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/schedules/${made.id}$`));

    await tabB.getByLabel('Description').fill('from tab B');
    await tabB.getByRole('button', { name: 'Save changes' }).click();
    const conflict = tabB.getByTestId('version-conflict');
    await expect(conflict).toContainText('This schedule was changed by someone else while you edited it.');
    await expect(conflict).toContainText('It is now at version 2');
    const row = conflict.locator('tr[data-field="description"]');
    await expect(row.locator('.conflict-saved')).toHaveText('from tab A');
    await expect(row.locator('.conflict-yours')).toHaveText('from tab B');
    await expect(tabB).toHaveURL(/\/edit$/);
    // Nothing saved until the operator chooses.
    expect(await getApiSchedule(request, rev, made.id)).toMatchObject({ description: 'from tab A', version: 2 });

    await conflict.getByRole('button', { name: 'Overwrite with my changes' }).click();
    await expect(tabB).toHaveURL(new RegExp(`/schedules/${made.id}$`));
    expect(await getApiSchedule(request, rev, made.id)).toMatchObject({ description: 'from tab B', version: 3 });

    // Again, and this time the second tab reloads: the first tab's values are in its form.
    await openEdit(page, rev, made.id);
    await openEdit(tabB, rev, made.id);
    await page.getByLabel('Cron expression').fill('30 7 * * ? *');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/schedules/${made.id}$`));
    await tabB.getByLabel('Description').fill('lost edit');
    await tabB.getByRole('button', { name: 'Save changes' }).click();
    await expect(tabB.getByTestId('version-conflict').locator('tr[data-field="cron_expression"] .conflict-saved')).toHaveText('30 7 * * ? *');
    expect(await getApiSchedule(request, rev, made.id)).toMatchObject({ description: 'from tab B', cron_expression: '30 7 * * ? *', version: 4 });
    await tabB.getByRole('button', { name: 'Reload (discard my changes)' }).click();
    await expect(tabB.getByTestId('version-conflict')).toHaveCount(0);
    await expect(tabB.getByLabel('Cron expression')).toHaveValue('30 7 * * ? *');
    await expect(tabB.getByLabel('Description')).toHaveValue('from tab B');
    expect(await getApiSchedule(request, rev, made.id)).toMatchObject({ description: 'from tab B', version: 4 });

    // The schedule page's Activity panel: the three edits and the create, newest first.
    await page.goto(`/schedulers/${rev}/schedules/${made.id}`);
    const activity = page.getByTestId('activity');
    await expect(activity.locator('tbody tr')).toHaveCount(4);
    await expect(activity.locator('tbody tr').first()).toContainText('Edited: cron_expression');
    await expect(activity.locator('tbody tr').last()).toContainText('Created');
  } finally {
    await tabB.close();
    await deleteApiSchedules(request, rev, [made.id]);
  }
});

test('a create whose answer is lost, then Reload and Back, leaves one schedule', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const description = `lost answer ${uniqueSuffix()}`;
  const mine = async () => (await listAllSchedules(request, rev)).filter((s) => s.description === description);
  await page.goto(`/schedulers/${rev}/new`);
  await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
  // The form's token is in its URL, so the history entry (Reload, Back) keeps it.
  await expect(page).toHaveURL(/\/new\?form=[0-9a-f-]{36}$/);
  const formUrl = page.url();
  const fill = async () => {
    await page.getByLabel('Description').fill(description);
    await page.getByLabel('Cron expression').fill('15 4 * * ? *');
  };

  // The save reaches the server and is made, but its answer never reaches the browser.
  const formPath = (url: URL) => url.pathname.endsWith('/new');
  await page.route(
    formPath,
    async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      await route.fetch();
      await route.abort('connectionreset');
    },
  );
  await fill();
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page.locator('.alert-error')).toContainText('No answer came from the server. The save may or may not have been made.');
  await expect.poll(async () => (await mine()).length).toBe(1);
  await page.unroute(formPath);

  try {
    // Reload: the same token; the same values answer the schedule already made.
    await page.reload();
    await expect(page).toHaveURL(formUrl);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await fill();
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const [made] = await mine();
    await expect(page).toHaveURL(new RegExp(`/schedules/${made.id}$`));
    expect(await mine()).toHaveLength(1);

    // Back to the form, and the same save once more: still that one schedule.
    await page.goBack();
    await expect(page).toHaveURL(formUrl);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await fill();
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page).toHaveURL(new RegExp(`/schedules/${made.id}$`));
    expect(await mine()).toHaveLength(1);
    await expect(page.getByTestId('activity').locator('tbody tr')).toHaveCount(1);
  } finally {
    await deleteApiSchedules(request, rev, (await mine()).map((s) => s.id));
  }
});
