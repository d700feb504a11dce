/**
 * What the operator relies on, in the real web app with the real worker:
 * - SPEC §14: the org's default scheduler (EventBridge schedule group `default`) shows its Delete
 *   control disabled, with the reason beside it;
 * - SPEC §13.2: an ECS target is made and edited in the New Schedule / Edit form (task definition,
 *   count, launch type, awsvpc network), and a missing task definition is refused at its own field;
 * - the browser's Back on a dirty Edit form asks before discarding the changes (Stay keeps them);
 * - at 390 px the dead-letter, org admin, account, catalog revision and schedulers pages keep their
 *   actions on screen (no page scrolls sideways);
 * - the catalog revision page hydrates without a React error, load after load, its last chunk late.
 */
import { GetScheduleGroupCommand, SchedulerClient } from '@aws-sdk/client-scheduler';
import { expect, test, type Page } from '@playwright/test';
import {
  createApiSchedule,
  deleteApiSchedules,
  E2E_ACCESS_KEY_ID,
  E2E_PORT,
  E2E_SECRET_ACCESS_KEY,
  getApiSchedule,
  listAllDeadLetters,
  OPS_SCHEDULER,
  revisionOf,
  uniqueSuffix,
  wallTimeIn,
} from './api';
import { expectNoSeriousViolations, property } from './ui';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const SCHEDULE_URL = new RegExp(`/schedules/(${UUID.source})$`);
const formReady = (page: Page) => expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');

test('§14 the default scheduler: its Delete control is disabled and says why', async ({ page }) => {
  // The EventBridge API's first use makes the org's `default` group (a scheduler aliased "default").
  const sdk = new SchedulerClient({
    endpoint: `http://127.0.0.1:${E2E_PORT}`,
    region: 'us-east-1',
    credentials: { accessKeyId: E2E_ACCESS_KEY_ID, secretAccessKey: E2E_SECRET_ACCESS_KEY },
    maxAttempts: 1,
  });
  await sdk.send(new GetScheduleGroupCommand({ Name: 'default' }));
  const rev = await revisionOf(page.request, 'default');

  await page.goto(`/schedulers/${rev}`);
  const section = page.getByRole('region', { name: 'Delete this scheduler' });
  const button = section.getByRole('button', { name: 'Delete scheduler' });
  await expect(button).toBeDisabled();
  await expect(button).toHaveAccessibleDescription('This is the org’s default scheduler (EventBridge schedule group default): it is never deleted. Delete or disable its schedules instead.');
  await expectNoSeriousViolations(page, 'the default scheduler page');
  // Any other scheduler keeps its Delete.
  await page.goto(`/schedulers/${await revisionOf(page.request, OPS_SCHEDULER)}`);
  await expect(page.getByRole('region', { name: 'Delete this scheduler' }).getByRole('button', { name: 'Delete scheduler' })).toBeEnabled();
});

test('§13.2 New Schedule and Edit make an ECS target: task definition, count, launch type and network, each refused at its own field', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `ui-ecs-${uniqueSuffix()}`;
  const cluster = 'arn:aws:ecs:eu-west-1:123456789012:cluster/reports';
  const taskDefinition = 'arn:aws:ecs:eu-west-1:123456789012:task-definition/report:3';
  let made: string | null = null;
  try {
    await page.goto(`/schedulers/${rev}/new`);
    await formReady(page);
    await page.getByLabel('Alias').fill(alias);
    await page.getByRole('radio', { name: /^AWS service/ }).check();
    await page.getByLabel('Target ARN').fill(cluster);
    await page.getByLabel('Role ARN').fill('arn:aws:iam::123456789012:role/scheduler');
    // An ECS cluster takes no input: the field is replaced by RunTask's.
    await expect(page.getByLabel('Input optional', { exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: 'Create schedule' }).click();
    const taskDef = page.getByLabel('Task definition ARN');
    await expect(taskDef).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Task definition ARN is required.')).toBeVisible();

    await taskDef.fill(taskDefinition);
    await page.getByLabel('Task count').fill('2');
    await page.getByLabel('Launch type').selectOption('FARGATE');
    await page.getByLabel('Security groups').fill('sg-0c3');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    // Network settings without a subnet: refused at the subnets.
    await expect(page.getByText('Subnets is required.')).toBeVisible();
    await page.getByLabel('Subnets').fill('subnet-0a1, subnet-0b2');
    await page.getByLabel('Assign public IP').selectOption('ENABLED');
    await expectNoSeriousViolations(page, 'the New Schedule form with an ECS target');
    await page.getByRole('button', { name: 'Create schedule' }).click();

    await expect(page).toHaveURL(SCHEDULE_URL);
    made = SCHEDULE_URL.exec(new URL(page.url()).pathname)![1];
    const ecs = {
      task_definition_arn: taskDefinition,
      task_count: 2,
      launch_type: 'FARGATE',
      network_configuration: { awsvpc_configuration: { subnets: ['subnet-0a1', 'subnet-0b2'], security_groups: ['sg-0c3'], assign_public_ip: 'ENABLED' } },
    };
    expect((await getApiSchedule(request, rev, made)).invocation_target).toEqual({ arn: cluster, role_arn: 'arn:aws:iam::123456789012:role/scheduler', ecs_parameters: ecs });
    await expect(property(page, 'Task definition')).toContainText(`${taskDefinition}2 tasks a fire, FARGATE`);
    await expect(property(page, 'Network (awsvpc)')).toHaveText('subnets subnet-0a1, subnet-0b2security groups sg-0c3public IP assigned');

    // Edit shows every ECS field; a changed count keeps the others.
    await page.getByRole('link', { name: 'Edit' }).click();
    await formReady(page);
    await expect(page.getByLabel('Task definition ARN')).toHaveValue(taskDefinition);
    await expect(page.getByLabel('Launch type')).toHaveValue('FARGATE');
    await expect(page.getByLabel('Subnets')).toHaveValue('subnet-0a1\nsubnet-0b2');
    await page.getByLabel('Task count').fill('3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(SCHEDULE_URL);
    expect((await getApiSchedule(request, rev, made)).invocation_target).toEqual({ arn: cluster, role_arn: 'arn:aws:iam::123456789012:role/scheduler', ecs_parameters: { ...ecs, task_count: 3 } });
  } finally {
    if (made) await deleteApiSchedules(request, rev, [made]);
  }
});

test('Back on a dirty Edit form asks first: Stay keeps the changes, Leave goes back; a clean form goes back at once', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const schedule = await createApiSchedule(request, rev, { alias: `ui-back-${uniqueSuffix()}`, repeat: 'recurring_cron', cron_expression: '0 8 * * ? *', enabled: false, description: 'as saved' });
  const schedulePage = `/schedulers/${rev}/schedules/${schedule.id}`;
  const leave = page.getByRole('dialog', { name: 'Leave this page?' });
  try {
    // Clean: Back leaves at once.
    await page.goto(schedulePage);
    await page.getByRole('link', { name: 'Edit' }).click();
    await formReady(page);
    await page.goBack({ waitUntil: 'commit' });
    await expect(page).toHaveURL(new RegExp(`${schedulePage}$`));
    await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();

    // Dirty: Back asks; Stay keeps the edit, and the next Back asks again.
    await page.getByRole('link', { name: 'Edit' }).click();
    await formReady(page);
    await page.getByLabel('Description').fill('typed, not saved');
    await page.goBack({ waitUntil: 'commit' });
    await expect(leave).toBeVisible();
    await expect(leave).toContainText('Your changes to this schedule are not saved: leaving discards them.');
    await expect(page).toHaveURL(new RegExp(`${schedulePage}/edit$`));
    await leave.getByRole('button', { name: 'Stay on this page' }).click();
    await expect(leave).toBeHidden();
    await expect(page.getByLabel('Description')).toHaveValue('typed, not saved');

    await page.goBack({ waitUntil: 'commit' });
    await expect(leave).toBeVisible();
    await leave.getByRole('button', { name: 'Leave without saving' }).click();
    await expect(page).toHaveURL(new RegExp(`${schedulePage}$`));
    await expect(page.getByRole('link', { name: 'Edit' })).toBeVisible();
    expect((await getApiSchedule(request, rev, schedule.id)).description).toBe('as saved');

    // A save after the guard went up: Back from the saved schedule's page goes to its Edit form once, not twice.
    await page.getByRole('link', { name: 'Edit' }).click();
    await formReady(page);
    await page.getByLabel('Description').fill('saved now');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`${schedulePage}$`));
    await expect(property(page, 'Description')).toHaveText('saved now');
    await page.goBack({ waitUntil: 'commit' });
    await expect(page).toHaveURL(new RegExp(`${schedulePage}/edit$`));
    await page.goBack({ waitUntil: 'commit' });
    await expect(page).toHaveURL(new RegExp(`${schedulePage}$`));
  } finally {
    await deleteApiSchedules(request, rev, [schedule.id]);
  }
});

test('at 390 px the dead-letter, org admin, account, catalog revision and schedulers pages keep every row action on screen', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  // A dead letter: a webhook to a port nothing listens on, one attempt.
  const doomed = await createApiSchedule(request, rev, {
    alias: `ui-narrow-${uniqueSuffix()}`,
    repeat: 'one_time',
    invocation_time: wallTimeIn(2),
    invocation_target_type: 'http',
    invocation_target: { url: `http://127.0.0.1:${E2E_PORT + 9}/nothing-here`, timeout_seconds: 2 },
    retry_policy: { maximum_retry_attempts: 0, maximum_event_age_seconds: 60 },
  });
  try {
    await expect.poll(async () => (await listAllDeadLetters(request, rev)).some((l) => l.schedule_id === doomed.id), { timeout: 30_000 }).toBe(true);
    await page.setViewportSize({ width: 390, height: 844 });
    // A personal API key, so the account page lists one with its Revoke.
    await page.goto('/account');
    await page.getByLabel('Key name', { exact: true }).fill(`narrow-${uniqueSuffix()}`);
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect(page.getByRole('table', { name: 'Personal API keys' }).getByRole('button', { name: 'Revoke' }).first()).toBeVisible();

    const procedures = await revisionOf(request, 'procedures');
    for (const [path, actions] of [
      [`/schedulers/${rev}/dead-letters`, ['Replay', 'Dismiss']],
      ['/orgs/acme-corp/admin', ['Save role', 'Remove', 'Revoke']],
      ['/account', ['Revoke']],
      [`/catalog/revisions/${procedures}`, ['Close', 'Delete', 'Rename']],
      ['/schedulers', []],
      [`/schedulers/${rev}`, []],
    ] as const) {
      await page.goto(path);
      await expect(page.locator('h1')).toBeVisible();
      // The page never scrolls sideways, and every button of a table row lies within the 390 px.
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${path} scrolls sideways`).toBeLessThanOrEqual(390);
      const buttons = page.locator('table tbody button:visible');
      for (const name of actions) await expect(buttons.filter({ hasText: name }).first(), `${path}: ${name}`).toBeVisible();
      const outside = await buttons.evaluateAll((els) =>
        els.flatMap((el) => {
          const r = el.getBoundingClientRect();
          return r.left < 0 || r.right > 390 ? [`${el.textContent?.trim()} at ${Math.round(r.left)}–${Math.round(r.right)} px`] : [];
        }),
      );
      expect(outside, `${path}: row actions off screen`).toEqual([]);
    }
    await expectNoSeriousViolations(page, 'the schedulers page at 390 px');
  } finally {
    await deleteApiSchedules(request, rev, [doomed.id]);
  }
});

test('the catalog revision page hydrates without a React error, also when its last script chunk arrives late', async ({ page, request }) => {
  const procedures = await revisionOf(request, 'procedures');
  const url = `/catalog/revisions/${procedures}`;
  // The app chunks the document asks for, in its order; the last one is needed while the page's
  // segment hydrates (a route error boundary's chunk broke hydration when it came late).
  const html = await (await page.request.get(url)).text();
  const chunks = [...html.matchAll(/src="(\/_next\/static\/chunks\/app\/[^"]+\.js)"/g)].map((m) => m[1]);
  expect(chunks.length, 'the page asks for app chunks').toBeGreaterThan(0);
  const last = chunks[chunks.length - 1];
  // That chunk alone late (a loaded machine, a slow link): it waits 800 ms, the others do not.
  await page.route(`**${last}`, async (route) => {
    await new Promise((r) => setTimeout(r, 800));
    await route.continue();
  });
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e).slice(0, 200)));
  for (let i = 0; i < 8; i++) {
    await page.goto(url);
    await expect(page.getByRole('table', { name: 'Sessions' })).toBeVisible();
    // A hydration failure is reported after the late chunk arrives.
    await page.waitForTimeout(1200);
  }
  expect(errors, `no hydration error (#418) on any load, ${last} late`).toEqual([]);
});
