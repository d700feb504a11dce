/**
 * SPEC §17 through the real product (`npm start`: the web app and the worker): an org admin adds a
 * Slack-compatible channel on the org admin page and sends a test (the receiver written here gets
 * `{text, blocks}`), adds a rule on a scheduler's Alerts page, a webhook schedule then fails at the
 * worker, and the alert arrives at the receiver and shows in the alert log with the channel's answer.
 * Then the channels are edited (a webhook's URL; a Slack channel renamed with its write-only URL
 * kept), and deleting a channel the rule names is refused with the rule named. axe on both pages. The receiver listens on E2E_PORT + 24 (this spec's port, no other spec's: an alert sent after this spec ended must not reach another spec's receiver; the e2e server allows 127.0.0.1).
 */
import http from 'node:http';
import { expect, test } from '@playwright/test';
import { createApiSchedule, E2E_PORT, headers, uniqueSuffix, wallTimeIn } from './api';
import { expectNoSeriousViolations } from './ui';

interface Received {
  path: string;
  body: string;
}

/** `/slack…` answers 200 "ok" and records the body; anything else answers 500. */
async function startReceiver(): Promise<{ base: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const ok = (req.url ?? '').startsWith('/slack');
      if (ok) received.push({ path: req.url ?? '', body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(ok ? 200 : 500, { 'content-type': 'text/plain' });
      res.end(ok ? 'ok' : 'down');
    });
  });
  await new Promise<void>((resolve) => server.listen(E2E_PORT + 24, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${E2E_PORT + 24}`, received, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) };
}

test('a Slack channel and a rule made in the browser: Send test, then a failing schedule alerts the receiver and shows in the alert log', async ({ page, request }, testInfo) => {
  const receiver = await startReceiver();
  try {
    const suffix = uniqueSuffix();
    const channelName = `e2e-slack-${suffix}`;
    const schedulerAlias = `alerted-${suffix}`;
    const made = await request.post('/api/v1/orgs/acme-corp/blobs', { headers, data: { type: 'scheduler', alias: schedulerAlias, name: schedulerAlias } });
    expect(made.status(), await made.text()).toBe(200);
    const rev = (await made.json()).default_revision_id as string;

    // The org admin page: add the channel, then Send test.
    await page.goto('/orgs/acme-corp/admin');
    const section = page.getByRole('region', { name: 'Alert channels' });
    const add = section.getByRole('form', { name: 'Add a Slack channel' });
    await add.getByLabel('Name').fill(channelName);
    await add.getByLabel('Incoming-webhook URL').fill(`${receiver.base}/slack/T00/B00/secret-part`);
    await add.getByRole('button', { name: 'Add Slack channel' }).click();
    await expect(add.getByText(`Channel ${channelName} added.`)).toBeVisible();
    const row = section.getByTestId(`alert-channel-${channelName}`);
    // The URL is write-only: the page shows its origin only.
    await expect(row).toContainText(`${receiver.base}/••••`);
    await expect(row).not.toContainText('secret-part');
    await row.getByRole('button', { name: 'Send test' }).click();
    await expect(row.getByText('Delivered: the channel answered HTTP 200: ok')).toBeVisible();
    expect(receiver.received).toHaveLength(1);
    const test1 = JSON.parse(receiver.received[0].body) as { text: string; blocks: { type: string }[] };
    expect(test1.text).toContain('Test: [example-scheduler] example-schedule is failing');
    expect(test1.blocks.map((b) => b.type)).toEqual(['header', 'section', 'actions']);
    // A second channel, a webhook whose receiver answers 500: it will be flagged.
    const broken = `e2e-broken-${suffix}`;
    const addHook = section.getByRole('form', { name: 'Add a webhook channel' });
    await addHook.getByLabel('Name').fill(broken);
    await addHook.getByLabel('URL').fill(`${receiver.base}/down-hook`);
    await addHook.getByRole('button', { name: 'Add webhook channel' }).click();
    await expect(addHook.getByTestId('shown-once')).toHaveText(/^whsec_/);
    await expectNoSeriousViolations(page, 'the org admin page with its alert channels');
    await page.screenshot({ path: testInfo.outputPath('org-admin-alert-channels.png'), fullPage: true });

    // The scheduler's Alerts page: empty states, then a rule on every schedule.
    await page.goto(`/schedulers/${rev}`);
    await page.getByRole('link', { name: 'Alerts' }).click();
    await expect(page.getByRole('heading', { name: 'Alerts', level: 1 })).toBeVisible();
    await expect(page.getByTestId('alert-rules-empty')).toContainText('No alert rules');
    await expect(page.getByTestId('alert-log-empty')).toContainText('No alerts sent yet.');
    await expectNoSeriousViolations(page, 'the Alerts page, empty');
    const form = page.getByRole('form', { name: 'Add an alert rule' });
    await expect(form.getByLabel(/^failure/)).toBeChecked();
    await form.getByLabel(`${channelName} (slack)`).check();
    await form.getByLabel(`${broken} (webhook)`).check();
    await form.getByRole('button', { name: 'Add rule' }).click();
    await expect(form.getByText(`Rule added: failure, recovered to ${broken}, ${channelName}.`)).toBeVisible();
    await expect(page.getByTestId('alert-rule')).toContainText('All schedules');

    // A webhook schedule to a receiver answering 500: the worker fires it, it fails, the alert goes out.
    const alias = `failing-${suffix}`;
    await createApiSchedule(request, rev, { alias, repeat: 'one_time', invocation_time: wallTimeIn(3), timezone: 'UTC', invocation_target_type: 'http', invocation_target: { url: `${receiver.base}/down`, timeout_seconds: 2 } });
    await expect.poll(() => receiver.received.length, { timeout: 60_000 }).toBe(2);
    const alert = JSON.parse(receiver.received[1].body) as { text: string };
    expect(alert.text).toContain(`[${schedulerAlias}] ${alias} is failing`);
    expect(alert.text).toContain(`/schedulers/${rev}/schedules/`);

    // The alert log shows it with the channel's answer.
    await page.reload();
    // One row per channel, raised at the same instant (their order is the ids').
    const logRow = page.getByTestId('alert-log-row').filter({ hasText: channelName });
    await expect(logRow).toContainText(alias);
    await expect(logRow).toContainText('failure');
    await expect(logRow).toContainText('sent');
    await expect(logRow).toContainText('HTTP 200: ok');
    await expectNoSeriousViolations(page, 'the Alerts page with a rule and the alert log');
    await page.screenshot({ path: testInfo.outputPath('scheduler-alerts.png'), fullPage: true });

    // The channel answering 500 is retried (pending, its answer shown) and flagged on the scheduler page and in /api/health.
    const brokenRow = page.getByTestId('alert-log-row').filter({ hasText: broken });
    await expect(brokenRow).toContainText('pending');
    await expect(brokenRow).toContainText('HTTP 500');
    await page.goto(`/schedulers/${rev}`);
    await expect(page.getByTestId('alert-channels-failing')).toContainText(`Alert channel ${broken} is failing: the last send answered http_error: HTTP 500`);
    const health = await request.get('/api/health');
    expect(health.status()).toBe(200);
    expect(await health.json()).toMatchObject({ status: 'ok', alerts: 'failing' });
    await expectNoSeriousViolations(page, 'the scheduler page with a failing alert channel');

    // Edit on the org admin page (the add form of its type, filled in): the broken webhook gets a URL
    // that answers, and Send test clears its flag.
    await page.goto('/orgs/acme-corp/admin');
    const brokenChannel = section.getByTestId(`alert-channel-${broken}`);
    await brokenChannel.getByText('Edit', { exact: true }).click();
    const editHook = brokenChannel.getByRole('form', { name: `Edit ${broken}` });
    await expect(editHook.getByLabel('URL')).toHaveValue(`${receiver.base}/down-hook`);
    await expectNoSeriousViolations(page, 'the org admin page with a channel edit form open');
    await editHook.getByLabel('URL').fill(`${receiver.base}/slack-compatible-hook`);
    await editHook.getByRole('button', { name: 'Save channel' }).click();
    await expect(editHook.getByText(`Channel ${broken} saved.`)).toBeVisible();
    await expect(brokenChannel).toContainText(`${receiver.base}/slack-compatible-hook`);
    await brokenChannel.getByRole('button', { name: 'Send test' }).click();
    await expect(brokenChannel.getByText('Delivered: the channel answered HTTP 200: ok')).toBeVisible();
    await expect(brokenChannel).toContainText('delivered');

    // The Slack channel renamed, its write-only URL left empty: the stored URL is kept.
    const slackChannel = section.getByTestId(`alert-channel-${channelName}`);
    await slackChannel.getByText('Edit', { exact: true }).click();
    const editSlack = slackChannel.getByRole('form', { name: `Edit ${channelName}` });
    await expect(editSlack.getByLabel('Incoming-webhook URL')).toHaveValue('');
    await expect(editSlack).toContainText('leave empty to keep it');
    const renamed = `${channelName}-renamed`;
    await editSlack.getByLabel('Name').fill(renamed);
    await editSlack.getByRole('button', { name: 'Save channel' }).click();
    const renamedChannel = section.getByTestId(`alert-channel-${renamed}`);
    await expect(renamedChannel).toContainText(`${receiver.base}/••••`);
    const before = receiver.received.length;
    await renamedChannel.getByRole('button', { name: 'Send test' }).click();
    await expect(renamedChannel.getByText('Delivered: the channel answered HTTP 200: ok')).toBeVisible();
    expect(receiver.received.slice(before).map((r) => r.path)).toContain('/slack/T00/B00/secret-part');

    // Delete of a channel a rule names: the confirmation names the rule, and the delete is refused.
    await renamedChannel.getByRole('button', { name: 'Delete' }).click();
    const confirm = page.getByRole('dialog', { name: `The alert channel ${renamed} is still in use` });
    await expect(confirm).toContainText(`scheduler "${schedulerAlias}": failure, recovered on all schedules`);
    await expectNoSeriousViolations(page, 'the delete confirmation of a channel in use');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(renamedChannel.getByRole('alert')).toContainText(`the alert channel "${renamed}" is named by 1 alert rule`);
    await expect(renamedChannel).toBeVisible();
  } finally {
    await receiver.close();
  }
});
