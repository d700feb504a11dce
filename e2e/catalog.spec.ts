/**
 * Acceptance 3 of issue 5 (SPEC §1, §8.1): in the catalog pages, close the target session; the next
 * fire of a schedule following it records `invocation_error` / `session_not_open`; reopen it in the
 * catalog pages and the next fire records `success` again. A dedicated session (`catalog-e2e`) keeps
 * other tests' sessions untouched; each fire is a one-time schedule due some seconds ahead (UTC). A target
 * is checked at save time, so the first schedule is saved while the session is still open.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { DateTime } from 'luxon';
import { command, revisionOf } from './api';

const SESSION = 'catalog-e2e';

/** A one-time schedule in `schedulerRev`, due `seconds` ahead (UTC), following procedures / `catalog-e2e` / triage. */
async function scheduleSoon(request: APIRequestContext, schedulerRev: string, seconds: number): Promise<string> {
  const res = await command(request, schedulerRev, {
    engine: 'scheduler_blobhub',
    command: 'create_schedule',
    description: `catalog e2e ${DateTime.utc().toISO()}`,
    repeat: 'one_time',
    invocation_time: DateTime.utc().plus({ seconds }).toFormat("yyyy-MM-dd'T'HH:mm:ss"),
    timezone: 'UTC',
    invocation_target: {
      target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: SESSION },
      workflow: { definition: 'triage' },
      input_data: [],
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body.schedule ?? res.body).id as string;
}

/** Navigate /catalog → procedures → its default revision, by clicking. */
async function openProceduresRevision(page: Page, proceduresRev: string): Promise<void> {
  await page.goto('/catalog');
  await page.getByRole('link', { name: 'procedures', exact: true }).click();
  await expect(page.getByRole('table', { name: 'Revisions' })).toBeVisible();
  await page.getByRole('link', { name: proceduresRev, exact: true }).click();
  await expect(page.getByRole('table', { name: 'Sessions' })).toBeVisible();
}

test('closing a session in the catalog makes the next fire record session_not_open; reopening brings success back', async ({ page, request }) => {
  test.setTimeout(180_000);
  const [proceduresRev, schedulerRev] = await Promise.all([revisionOf(request, 'procedures'), revisionOf(request, 'ops-scheduler')]);

  // The dedicated session, created through the API (idempotent across reruns on one database).
  const created = await command(request, proceduresRev, { engine: 'workflow_blobhub', command: 'create_session', alias: SESSION });
  expect([200, 409], JSON.stringify(created.body)).toContain(created.status);
  const reopened = await command(request, proceduresRev, { engine: 'workflow_blobhub', command: 'reopen_session', session_id: SESSION });
  expect(reopened.status, JSON.stringify(reopened.body)).toBe(200);

  const scheduleIds: string[] = [];
  try {
    // Saving a target checks that its session is open (SPEC §6.3), so the schedule whose fire must be
    // refused is saved first, due far enough ahead for the session to be closed in the UI before it fires.
    const refused = await scheduleSoon(request, schedulerRev, 25);
    scheduleIds.push(refused);
    const refusedDue = Date.now() + 24_000;

    // Close it by clicking in the catalog pages.
    await openProceduresRevision(page, proceduresRev);
    const row = page.getByRole('table', { name: 'Sessions' }).getByRole('row').filter({ hasText: SESSION });
    await expect(row.getByText('open', { exact: true })).toBeVisible();
    await row.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(row.getByText('closed', { exact: true })).toBeVisible();
    await expect(row.getByRole('button', { name: 'Reopen', exact: true })).toBeVisible();

    expect(Date.now(), 'the session was closed before the schedule was due').toBeLessThan(refusedDue);

    // The next fire is refused: invocation_error / session_not_open on the schedule's page.
    await page.goto(`/schedulers/${schedulerRev}/schedules/${refused}`);
    const refusedRuns = page.getByRole('table', { name: 'Executions' });
    await expect(refusedRuns.getByText('invocation_error', { exact: true })).toBeVisible({ timeout: 45_000 });
    await expect(refusedRuns.getByText('session_not_open')).toBeVisible();

    // Reopen it by clicking in the catalog pages.
    await openProceduresRevision(page, proceduresRev);
    const row2 = page.getByRole('table', { name: 'Sessions' }).getByRole('row').filter({ hasText: SESSION });
    await row2.getByRole('button', { name: 'Reopen', exact: true }).click();
    await expect(row2.getByText('open', { exact: true })).toBeVisible();
    await expect(row2.getByRole('button', { name: 'Close', exact: true })).toBeVisible();

    // The next fire succeeds again.
    const ok = await scheduleSoon(request, schedulerRev, 5);
    scheduleIds.push(ok);
    await page.goto(`/schedulers/${schedulerRev}/schedules/${ok}`);
    await expect(page.getByRole('table', { name: 'Executions' }).getByText('success', { exact: true })).toBeVisible({ timeout: 45_000 });

    // The catalog's Executions table shows the execution that fire created, linked to its schedule.
    await openProceduresRevision(page, proceduresRev);
    await expect(
      page.getByRole('table', { name: 'Executions' }).locator(`a[href="/schedulers/${schedulerRev}/schedules/${ok}"]`).first(),
    ).toBeVisible();
  } finally {
    for (const id of scheduleIds) {
      await command(request, schedulerRev, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: id });
    }
  }
});
