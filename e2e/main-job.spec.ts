/**
 * Acceptance (the main job): through the New Schedule form, create a `one_time` schedule due about
 * 15 s ahead targeting procedures / nightly-batch / triage with a description; within 45 s the
 * schedule's page shows one run with status `success`, and the workflow execution that run created
 * carries the description (checked through the public API).
 */
import { expect, test } from '@playwright/test';
import { DateTime } from 'luxon';
import { E2E_API_KEY as API_KEY } from './api';
/** A zone with a 30-minute offset, set explicitly so the wall time is computed in the form's zone. */
const ZONE = 'Asia/Kolkata';

test('a one-time schedule made in the New Schedule form fires once, and its execution carries the description', async ({ page, request }) => {
  const description = `e2e one-time fire ${DateTime.utc().toFormat("yyyyMMdd'T'HHmmss")}`;
  const api = { 'X-API-Key': API_KEY };

  await page.goto('/');
  await expect(page).toHaveURL(/\/schedulers$/);
  await page.getByRole('link', { name: 'Ops scheduler' }).click();
  await page.getByRole('button', { name: 'New Schedule' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'New schedule' })).toBeVisible();

  // Fields are enabled once the form has hydrated; fill() waits for that.
  await page.getByLabel('Description').fill(description);
  await page.getByRole('radio', { name: /One-time/ }).check();
  await page.getByLabel('Timezone').fill(ZONE);
  await page.getByLabel('Target org').fill('acme-corp');
  await page.getByLabel('Target blob').fill('procedures');
  await page.getByLabel('Target revision').fill('default');
  await page.getByLabel('Session').fill('nightly-batch');
  await page.getByLabel('Definition').fill('triage');

  // Local wall time in ZONE for now + 15 s. A datetime-local input drops ":00" seconds, so give it
  // the form it keeps; the form sends YYYY-MM-DDTHH:mm:ss either way.
  const due = DateTime.now().setZone(ZONE).plus({ seconds: 15 }).startOf('second');
  await page.getByLabel('Invocation time').fill(due.toFormat(due.second === 0 ? "yyyy-MM-dd'T'HH:mm" : "yyyy-MM-dd'T'HH:mm:ss"));
  await expect(page.getByText(/Fires once at/)).toBeVisible();

  const created = Date.now();
  await page.getByRole('button', { name: 'Create schedule' }).click();
  await expect(page).toHaveURL(/\/schedules\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/, { timeout: 15_000 });
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByText(description).first()).toBeVisible();

  // The page refreshes itself every 5 s: the run appears without a reload.
  const executions = page.getByRole('table', { name: 'Executions' });
  await expect(executions.getByText('success', { exact: true })).toBeVisible({ timeout: Math.max(1_000, 45_000 - (Date.now() - created)) });
  await expect(executions.locator('tbody tr')).toHaveCount(1);
  const row = executions.locator('tbody tr').first();
  // Columns: Status, Scheduled for, Recorded, Lateness, Trigger, Attempt, Execution / error, Target as fired.
  await expect(row.getByRole('cell').nth(4)).toHaveText('schedule');
  await expect(row.getByRole('cell').nth(5)).toHaveText('attempt 1');
  const executionId = (await row.getByRole('cell').nth(6).innerText()).trim();
  expect(executionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);

  // The execution, read back through the workflow API of procedures' draft (default) revision.
  const blobRes = await request.get('/api/v1/orgs/acme-corp/blobs/procedures', { headers: api });
  expect(blobRes.status()).toBe(200);
  const blob = (await blobRes.json()) as { default_revision_id: string; revisions: { id: string; state: string; is_default: boolean }[] };
  const draft = blob.revisions.find((r) => r.is_default && r.state === 'draft') ?? blob.revisions.find((r) => r.id === blob.default_revision_id);
  expect(draft?.state).toBe('draft');

  const listRes = await request.post(`/api/v1/revisions/${draft!.id}/data`, {
    headers: api,
    data: { engine: 'workflow_blobhub', command: 'list_workflow_executions' },
  });
  expect(listRes.status()).toBe(200);
  const { executions: list } = (await listRes.json()) as { executions: { id: string; description?: string; schedule_id?: string }[] };
  const execution = list.find((e) => e.id === executionId);
  expect(execution, `execution ${executionId} in procedures' draft revision`).toBeDefined();
  expect(execution!.description).toBe(description);
});
