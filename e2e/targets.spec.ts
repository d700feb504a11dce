/**
 * "Targets beyond the catalog" (SPEC §13), the authoring half, on the real web app: the New Schedule
 * form creates a Webhook schedule and an SQS schedule (the target type choice, the webhook's method,
 * header rows, JSON body and timeout; the AWS target's ARN and FIFO message group id), refuses a
 * webhook to the cloud metadata address at save with the address and SCHEDULER_HTTP_ALLOWED_HOSTS
 * named at the URL field, and the schedule page, the grid and the edit form show each target type in
 * its own words. The e2e server allows 127.0.0.1 (SCHEDULER_HTTP_ALLOWED_HOSTS in playwright.config.ts).
 */
import { expect, test, type Page } from '@playwright/test';
import { deleteApiSchedules, getApiSchedule, OPS_SCHEDULER, revisionOf, uniqueSuffix } from './api';
import { expectNoSeriousViolations, gridCell, gridHref, gridRow, property } from './ui';

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;
const SCHEDULE_URL = new RegExp(`/schedules/(${UUID.source})$`);
/** A loopback receiver address of this test's port range; nothing fires at 09:00 on a weekday during the test. */
const HOOK_URL = 'http://127.0.0.1:3210/hook';
const QUEUE_ARN = 'arn:aws:sqs:eu-west-1:123456789012:orders.fifo';

async function newScheduleForm(page: Page, rev: string, alias: string): Promise<void> {
  await page.goto(`/schedulers/${rev}/new`);
  await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
  await page.getByLabel('Alias').fill(alias);
}

const scheduleIdOf = (page: Page) => SCHEDULE_URL.exec(new URL(page.url()).pathname)![1];

test('New Schedule: a Webhook schedule (refused to the metadata address, then saved to an allowed loopback URL) and an SQS schedule, each shown in its own words', async ({ page, request }) => {
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const hookAlias = `ui-hook-${uniqueSuffix()}`;
  const queueAlias = `ui-sqs-${uniqueSuffix()}`;
  const made: string[] = [];
  try {
    // Webhook.
    await newScheduleForm(page, rev, hookAlias);
    await page.getByRole('radio', { name: /^Webhook/ }).check();
    await expect(page.getByText('Each fire sends a POST or PUT to this URL, signed with the scheduler’s signing secret')).toBeVisible();
    const url = page.getByLabel('URL', { exact: true });
    await url.fill('ftp://hooks.example.com/');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    // Refused in the browser by the contract's own rule, at the field.
    await expect(page.getByText('url must use http or https, not ftp')).toBeVisible();
    await url.fill('http://169.254.169.254/latest/meta-data');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    // Refused by the server at save (SPEC §13.1), shown at the URL field.
    await expect(page.getByText('169.254.169.254 is a cloud metadata address; list the host or range in SCHEDULER_HTTP_ALLOWED_HOSTS to allow it').first()).toBeVisible();
    await expect(url).toHaveAttribute('aria-invalid', 'true');
    await expectNoSeriousViolations(page, 'the New Schedule form with a webhook refused at save');

    await url.fill(HOOK_URL);
    await page.getByLabel('Method').selectOption('PUT');
    await page.getByRole('button', { name: 'Add header' }).click();
    await page.getByLabel('Header name').fill('X-Env');
    await page.getByLabel('Value', { exact: true }).fill('e2e');
    await page.getByLabel('Body (JSON)').fill('{"report": "daily"');
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page.getByText(/^Not valid JSON: /)).toBeVisible();
    await page.getByLabel('Body (JSON)').fill('{"report": "daily"}');
    await page.getByLabel('Timeout (seconds)').fill('5');
    await page.getByRole('button', { name: 'Create schedule' }).click();

    await expect(page).toHaveURL(SCHEDULE_URL);
    const hookId = scheduleIdOf(page);
    made.push(hookId);
    expect(await getApiSchedule(request, rev, hookId)).toMatchObject({
      alias: hookAlias,
      invocation_target_type: 'http',
      // Header values are write-only (SPEC §13.5): answered "••••".
      invocation_target: { url: HOOK_URL, method: 'PUT', headers: { 'X-Env': '••••' }, body: { report: 'daily' }, timeout_seconds: 5 },
    });
    await expect(page.getByTestId('target-headline')).toHaveText(`Webhook PUT ${HOOK_URL}`);
    await expect(property(page, 'Type')).toHaveText('Webhook (http)');
    await expect(property(page, 'Method')).toHaveText('PUT');
    await expect(property(page, 'Timeout')).toHaveText('5 s');
    await expect(property(page, 'Headers')).toHaveText('X-Env: ••••');
    await expect(page.locator('pre.code-block')).toContainText('"report": "daily"');

    // SQS (a FIFO queue: its message group id is asked for once the ARN names one).
    await newScheduleForm(page, rev, queueAlias);
    await page.getByRole('radio', { name: /^AWS service/ }).check();
    await page.getByLabel('Target ARN').fill(QUEUE_ARN);
    await expect(page.getByText('SQS FIFO queue orders.fifo (eu-west-1).')).toBeVisible();
    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page.getByText('a FIFO queue needs sqs_parameters.message_group_id').first()).toBeVisible();
    await expectNoSeriousViolations(page, 'the New Schedule form with an AWS target missing its message group id');
    await page.getByLabel('Message group id').fill('orders-1');
    await page.getByLabel('Role ARN').fill('arn:aws:iam::123456789012:role/scheduler');
    await page.getByLabel('Input optional', { exact: true }).fill('{"order": 42}');
    await page.getByRole('button', { name: 'Create schedule' }).click();

    await expect(page).toHaveURL(SCHEDULE_URL);
    const queueId = scheduleIdOf(page);
    made.push(queueId);
    expect(await getApiSchedule(request, rev, queueId)).toMatchObject({
      invocation_target_type: 'aws',
      invocation_target: { arn: QUEUE_ARN, role_arn: 'arn:aws:iam::123456789012:role/scheduler', input: '{"order": 42}', sqs_parameters: { message_group_id: 'orders-1' } },
    });
    await expect(page.getByTestId('target-headline')).toHaveText('SQS FIFO queue orders.fifo (eu-west-1)');
    await expect(property(page, 'Type')).toHaveText('AWS service (aws)');
    await expect(property(page, 'Target ARN')).toHaveText(QUEUE_ARN);
    await expect(property(page, 'Message group id')).toHaveText('orders-1');
    await expectNoSeriousViolations(page, 'the schedule page of an SQS target');

    // The grid: each target in its own words, and no workflow for them.
    await page.goto(await gridHref(request, rev, hookId));
    const hookRow = gridRow(page, hookAlias);
    await expect(await gridCell(page, hookRow, 'Target')).toHaveText(`Webhook PUT ${HOOK_URL}custom body · 1 header · 5 s timeout`);
    await expect(await gridCell(page, hookRow, 'Workflow')).toHaveText('—');
    await page.goto(await gridHref(request, rev, queueId));
    await expect(await gridCell(page, gridRow(page, queueAlias), 'Target')).toHaveText('SQS FIFO queue orders.fifo (eu-west-1)group orders-1 · custom input');

    // Editing the webhook shows its fields; a changed timeout is sent with its target and type.
    await page.goto(`/schedulers/${rev}/schedules/${hookId}/edit`);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByRole('radio', { name: /^Webhook/ })).toBeChecked();
    await expect(page.getByLabel('URL', { exact: true })).toHaveValue(HOOK_URL);
    await expect(page.getByLabel('Method')).toHaveValue('PUT');
    await expect(page.getByLabel('Header name')).toHaveValue('X-Env');
    await expect(page.getByLabel('Timeout (seconds)')).toHaveValue('5');
    await page.getByLabel('Timeout (seconds)').fill('12');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(SCHEDULE_URL);
    await expect(property(page, 'Timeout')).toHaveText('12 s');
    expect((await getApiSchedule(request, rev, hookId)).invocation_target).toEqual({ url: HOOK_URL, method: 'PUT', headers: { 'X-Env': '••••' }, body: { report: 'daily' }, timeout_seconds: 12 });
  } finally {
    await deleteApiSchedules(request, rev, made);
  }
});
