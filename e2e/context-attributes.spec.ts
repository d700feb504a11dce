/**
 * SPEC §13.4 in the form, on the real web app and worker: the payload field's insert buttons put a
 * context attribute at the cursor, the preview shows the payload of the next fire substituted (the
 * next 08:00 UTC is lib/cron's, the schedule ARN the one the product fires with), the page passes axe;
 * saved and run, the receiver gets the same ARN the preview showed. The e2e server allows 127.0.0.1.
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { nextOccurrences } from '../lib/cron';
import { deleteApiSchedules, E2E_PORT, OPS_SCHEDULER, revisionOf, uniqueSuffix } from './api';
import { expectNoSeriousViolations, whenHydrated } from './ui';

test.use({ timezoneId: 'UTC' });

const SCHEDULE_URL = /\/schedules\/([0-9a-f-]{36})$/;

/** A receiver on loopback (E2E_PORT + 22, this spec's port) keeping every body. */
async function startReceiver(): Promise<{ url: string; bodies: string[]; close: () => Promise<void> }> {
  const bodies: string[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(E2E_PORT + 22, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${E2E_PORT + 22}/hooks/context`, bodies, close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))) };
}

test('the payload field inserts context attributes at the cursor and previews the next fire; Run now sends the ARN the preview showed', async ({ page, request }) => {
  const receiver = await startReceiver();
  const rev = await revisionOf(request, OPS_SCHEDULER);
  const alias = `ctx-${uniqueSuffix()}`;
  const made: string[] = [];
  try {
    await page.goto(`/schedulers/${rev}/new`);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await page.getByLabel('Alias').fill(alias);
    await page.getByRole('radio', { name: /Recurring \(cron\)/ }).check();
    await page.getByLabel('Cron expression').fill('0 8 * * ? *');
    await page.getByLabel('Timezone').fill('UTC');
    await page.getByRole('radio', { name: /^Webhook/ }).check();
    await page.getByLabel('URL', { exact: true }).fill(receiver.url);

    const body = page.getByLabel('Body (JSON)');
    const insert = (token: string) => page.getByRole('button', { name: new RegExp(`^Insert ${token.replace(/[.<>-]/g, '\\$&')}`) }).first().click();
    // Each insert lands at the cursor, which stays after the token.
    await body.fill('{"arn": "');
    await insert('<aws.scheduler.schedule-arn>');
    await body.pressSequentially('", "at": "');
    await insert('<aws.scheduler.scheduled-time>');
    await body.pressSequentially('", "n": "');
    await insert('<aws.scheduler.attempt-number>');
    await body.pressSequentially('", "run": "');
    await insert('<aws.scheduler.execution-id>');
    await body.pressSequentially('"}');
    await expect(body).toHaveValue('{"arn": "<aws.scheduler.schedule-arn>", "at": "<aws.scheduler.scheduled-time>", "n": "<aws.scheduler.attempt-number>", "run": "<aws.scheduler.execution-id>"}');

    // The preview: the next 08:00 UTC (lib/cron's), attempt 1, AWS's example execution id, the ARN with the alias typed.
    const next = nextOccurrences('0 8 * * ? *', 'UTC', new Date(), 1)[0].toISOString().replace(/\.\d{3}Z$/, 'Z');
    const preview = page.getByTestId('payload-preview-invocation_target.body');
    await expect(preview.locator('pre')).toHaveText(
      new RegExp(`^\\{"arn": "arn:aws:scheduler:[a-z0-9-]+:\\d{12}:schedule/${OPS_SCHEDULER}/${alias}", "at": "${next}", "n": "1", "run": "d32c5kddcf5bb8c3"\\}$`),
    );
    const previewArn = JSON.parse(await preview.locator('pre').innerText()).arn as string;
    await expectNoSeriousViolations(page, 'the New Schedule form with context attributes and the payload preview');

    await page.getByRole('button', { name: 'Create schedule' }).click();
    await expect(page).toHaveURL(SCHEDULE_URL);
    made.push(SCHEDULE_URL.exec(new URL(page.url()).pathname)![1]);

    // Run now: the worker's substitution names the schedule with the ARN the preview showed.
    await whenHydrated(page.getByRole('button', { name: 'Run now' }));
    await page.getByRole('button', { name: 'Run now' }).click();
    await expect.poll(() => receiver.bodies.length, { timeout: 30_000 }).toBe(1);
    const sent = JSON.parse(receiver.bodies[0]);
    expect(sent.arn).toBe(previewArn);
    expect(sent.n).toBe('1');
    expect(sent.run).toMatch(/^[a-z0-9]{16}$/);
    expect(sent.at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    // The edit form previews the saved schedule's own payload.
    await page.goto(`/schedulers/${rev}/schedules/${made[0]}/edit`);
    await expect(page.locator('form.schedule-form')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('payload-preview-invocation_target.body').locator('pre')).toContainText(`"arn": "${previewArn}"`);
    await expectNoSeriousViolations(page, 'the Edit schedule form with the payload preview');
  } finally {
    await deleteApiSchedules(request, rev, made);
    await receiver.close();
  }
});
