/**
 * Operator safety in the browser (issue "Operator safety"), on the real web app and worker:
 * - acceptance 4: Commit, Set as default, delete session and delete blob name the schedules they
 *   affect, and change nothing until confirmed;
 * - New scheduler, its empty grid (no card in a card), Delete scheduler;
 * - a dirty schedule form asks before Cancel, an in-app link or a reload.
 * Each test works in blobs and schedulers of its own (unique aliases) and deletes them.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { command, headers, schedulerCommand, uniqueSuffix } from './api';

/** `POST /api/v1/orgs/acme-corp/blobs`: a new blob; its default revision id and blob id. */
async function createBlob(request: APIRequestContext, type: 'workflow' | 'scheduler', alias: string): Promise<{ blobId: string; revisionId: string }> {
  const res = await request.post('/api/v1/orgs/acme-corp/blobs', { headers, data: { type, alias, name: alias } });
  expect(res.status(), await res.text()).toBe(200);
  const body = await res.json();
  return { blobId: body.id, revisionId: body.default_revision_id };
}

async function blob(request: APIRequestContext, alias: string): Promise<{ status: number; body: { default_revision_id: string; revisions: { id: string; state: string }[] } }> {
  const res = await request.get(`/api/v1/orgs/acme-corp/blobs/${alias}`, { headers });
  return { status: res.status(), body: await res.json() };
}

async function workflowCommand(request: APIRequestContext, revisionId: string, name: string, fields: Record<string, unknown> = {}) {
  const r = await command(request, revisionId, { engine: 'workflow_blobhub', command: name, ...fields });
  expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(200);
  return r.body;
}

/** A workflow blob with session `nightly-batch` and definition `triage` in its draft default revision. */
async function workflowBlob(request: APIRequestContext, alias: string) {
  const made = await createBlob(request, 'workflow', alias);
  await workflowCommand(request, made.revisionId, 'create_session', { alias: 'nightly-batch' });
  await workflowCommand(request, made.revisionId, 'create_definition', { alias: 'triage', name: 'Triage' });
  return made;
}

const following = (blobAlias: string) => ({
  target: { org: 'acme-corp', blob: blobAlias, revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [],
});

async function createSchedule(request: APIRequestContext, schedulerRev: string, alias: string, invocationTarget: unknown) {
  const body = await schedulerCommand(request, schedulerRev, 'create_schedule', { alias, repeat: 'recurring_cron', cron_expression: '0 3 * * ? *', timezone: 'UTC', invocation_target: invocationTarget });
  return (body.schedule as { id: string }).id;
}

/** Delete a scheduler in its page (its Delete confirmation names what goes with it). */
async function deleteSchedulerInUi(page: Page, schedulerRev: string, name: string, says: string): Promise<void> {
  await page.goto(`/schedulers/${schedulerRev}`);
  await page.getByRole('button', { name: 'Delete scheduler' }).click();
  const dialog = page.getByRole('dialog', { name: `Delete scheduler ${name}?` });
  await expect(dialog).toContainText(says);
  await dialog.getByRole('button', { name: 'Delete scheduler' }).click();
  await expect(page).toHaveURL(/\/schedulers$/);
  await expect(page.getByRole('link', { name, exact: true })).toHaveCount(0);
}

test('Commit, Set as default, delete session and delete blob name the affected schedules and change nothing until confirmed', async ({ page, request }) => {
  const s = uniqueSuffix();
  const wfAlias = `safety-wf-${s}`;
  const schedAlias = `safety-sched-${s}`;
  const wf = await workflowBlob(request, wfAlias);
  const sched = await createBlob(request, 'scheduler', schedAlias);
  const a = `follow-a-${s}`;
  const b = `follow-b-${s}`;
  const pinned = `pinned-${s}`;
  await createSchedule(request, sched.revisionId, a, following(wfAlias));
  await createSchedule(request, sched.revisionId, b, following(wfAlias));
  await createSchedule(request, sched.revisionId, pinned, { ...following(wfAlias), target: { ...following(wfAlias).target, revision: wf.revisionId } });

  // 1. Commit the default revision: both following schedules and the pinned one are named.
  await page.goto(`/catalog/${wf.blobId}`);
  const rev0Row = page.getByRole('table', { name: 'Revisions' }).getByRole('row').filter({ hasText: wf.revisionId });
  await rev0Row.getByRole('button', { name: 'Commit' }).click();
  const commit = page.getByRole('dialog', { name: `Commit revision ${wf.revisionId}?` });
  await expect(commit).toContainText('2 schedules follow this revision: they will fail with default_revision_committed until a draft is the default.');
  await expect(commit).toContainText('1 schedule is pinned to this revision: it will fail with invocation_failed');
  for (const alias of [a, b, pinned]) await expect(commit.getByRole('link', { name: alias })).toBeVisible();
  // Cancel changes nothing.
  await commit.getByRole('button', { name: 'Cancel' }).click();
  await expect(commit).toBeHidden();
  expect((await blob(request, wfAlias)).body.revisions.find((r) => r.id === wf.revisionId)?.state).toBe('draft');
  // Confirmed, it commits.
  await rev0Row.getByRole('button', { name: 'Commit' }).click();
  await commit.getByRole('button', { name: 'Commit' }).click();
  await expect(rev0Row.getByText('committed', { exact: true })).toBeVisible();
  expect((await blob(request, wfAlias)).body.revisions.find((r) => r.id === wf.revisionId)?.state).toBe('committed');

  // 2. Branch, then Set as default: the following schedules will fire into the new draft.
  await rev0Row.getByRole('button', { name: 'Branch' }).click();
  await expect(page.getByRole('table', { name: 'Revisions' }).getByRole('row')).toHaveCount(3);
  const rev1 = (await blob(request, wfAlias)).body.revisions.find((r) => r.state === 'draft')!.id;
  const rev1Row = page.getByRole('table', { name: 'Revisions' }).getByRole('row').filter({ hasText: rev1 });
  await rev1Row.getByRole('button', { name: 'Set as default' }).click();
  const setDefault = page.getByRole('dialog', { name: `Make revision ${rev1} the default?` });
  await expect(setDefault).toContainText('2 schedules follow this blob’s default revision: from their next fire on, they run in this revision.');
  await expect(setDefault.getByRole('link', { name: a })).toBeVisible();
  await expect(setDefault.getByRole('link', { name: pinned })).toHaveCount(0);
  await setDefault.getByRole('button', { name: 'Cancel' }).click();
  expect((await blob(request, wfAlias)).body.default_revision_id).toBe(wf.revisionId);
  await rev1Row.getByRole('button', { name: 'Set as default' }).click();
  await setDefault.getByRole('button', { name: 'Set as default' }).click();
  await expect(rev1Row.getByText('default', { exact: true })).toBeVisible();
  expect((await blob(request, wfAlias)).body.default_revision_id).toBe(rev1);

  // 3. Delete the session the following schedules name (in the new default): they are named.
  await page.goto(`/catalog/revisions/${rev1}`);
  const sessionRow = page.getByRole('table', { name: 'Sessions' }).getByRole('row').filter({ hasText: 'nightly-batch' });
  await sessionRow.getByRole('button', { name: 'Delete' }).click();
  const delSession = page.getByRole('dialog', { name: 'Delete session nightly-batch?' });
  await expect(delSession).toContainText('2 schedules follow this session’s alias in the default revision: they will fail with session_not_found');
  await expect(delSession.getByRole('link', { name: b })).toBeVisible();
  await delSession.getByRole('button', { name: 'Cancel' }).click();
  await expect(sessionRow).toBeVisible();

  // 4. Delete the blob: every schedule aiming at it is named, by how it will fail.
  await page.goto(`/catalog/${wf.blobId}`);
  await page.getByRole('button', { name: 'Delete blob' }).click();
  const delBlob = page.getByRole('dialog', { name: `Delete workflow blob ${wfAlias}?` });
  await expect(delBlob).toContainText('2 schedules follow this blob’s default revision: they will fail with target_not_found.');
  await expect(delBlob).toContainText('1 schedule is pinned to a revision of this blob: it will fail with session_not_found.');
  await delBlob.getByRole('button', { name: 'Delete blob' }).click();
  await expect(page).toHaveURL(/\/catalog$/);
  expect((await blob(request, wfAlias)).status).toBe(404);

  // The scheduler goes too, with its three schedules (it says so first).
  await deleteSchedulerInUi(page, sched.revisionId, schedAlias, 'Its 3 schedules and their 0 run records are deleted with it');
  expect((await blob(request, schedAlias)).status).toBe(404);
});

test('New scheduler: created in the web app, its empty grid is not a card in a card, Delete scheduler removes it', async ({ page, request }) => {
  const alias = `ui-sched-${uniqueSuffix()}`;
  await page.goto('/schedulers');
  const form = page.getByRole('form', { name: 'New scheduler' });
  await form.getByLabel('Organization').selectOption({ label: 'Acme Corp (acme-corp)' });
  await form.getByLabel('Alias').fill(alias);
  await form.getByLabel('Name').fill(`UI ${alias}`);
  await form.getByRole('button', { name: 'Create scheduler' }).click();
  await expect(page.getByRole('heading', { level: 1, name: `UI ${alias}` })).toBeVisible();
  const rev = (await blob(request, alias)).body.default_revision_id;
  await expect(page).toHaveURL(new RegExp(`/schedulers/${rev}$`));
  // The empty state sits flush in the Schedules card: no second shadow (card in a card).
  const empty = page.locator('.empty-state', { hasText: 'No schedules yet' });
  await expect(empty).toBeVisible();
  expect(await empty.evaluate((el) => getComputedStyle(el).boxShadow)).toBe('none');
  // A taken alias is refused in place.
  await page.goto('/schedulers');
  await form.getByLabel('Alias').fill(alias);
  await form.getByRole('button', { name: 'Create scheduler' }).click();
  await expect(form.getByRole('alert')).toContainText('alias_taken');
  await deleteSchedulerInUi(page, rev, `UI ${alias}`, 'It holds no schedules.');
});

test('a dirty schedule form asks before Cancel, a link or a reload; a clean one leaves at once', async ({ page, request }) => {
  const rev = (await blob(request, 'ops-scheduler')).body.default_revision_id;
  await page.goto(`/schedulers/${rev}/new`);
  await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
  const leave = page.getByRole('dialog', { name: 'Leave this page?' });

  // Clean: Cancel leaves without asking.
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(new RegExp(`/schedulers/${rev}$`));

  await page.goto(`/schedulers/${rev}/new`);
  await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
  await page.getByLabel('Alias').fill('never-saved-alias');
  // Cancel asks; Stay keeps the edit.
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(leave).toBeVisible();
  await expect(leave).toContainText('This new schedule is not saved: leaving discards what you entered.');
  await leave.getByRole('button', { name: 'Stay on this page' }).click();
  await expect(leave).toBeHidden();
  // Still the New Schedule form (its `?form=` token, SPEC §15, kept).
  await expect(page).toHaveURL(new RegExp(`/schedulers/${rev}/new(\\?form=[0-9a-f-]+)?$`));
  await expect(page.getByLabel('Alias')).toHaveValue('never-saved-alias');

  // Reload asks through the browser's own prompt (beforeunload); dismissing it keeps the page.
  const prompts: string[] = [];
  page.on('dialog', (d) => {
    prompts.push(d.type());
    void d.dismiss();
  });
  await page.reload({ timeout: 3000 }).catch(() => undefined);
  expect(prompts).toEqual(['beforeunload']);
  await expect(page.getByLabel('Alias')).toHaveValue('never-saved-alias');

  // An in-app link (the breadcrumb) asks too; Leave goes.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Schedulers' }).click();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Leave without saving' }).click();
  await expect(page).toHaveURL(/\/schedulers$/);
  expect(prompts).toEqual(['beforeunload']);
});
