/**
 * SPEC §13 through the real product (`npm start`: the web app and the worker process): a webhook
 * schedule fires from the worker to a receiver written in this test; every delivery verifies with
 * the scheduler's signing secret as the admin is shown it (standardwebhooks, the receiver's own
 * library); the schedule page's history says what the receiver answered; Run now on the schedule page
 * delivers through the web process, under its own id. The e2e server allows 127.0.0.1
 * (SCHEDULER_HTTP_ALLOWED_HOSTS in playwright.config.ts).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { Webhook } from 'standardwebhooks';
import { createApiSchedule, E2E_PORT, headers, uniqueSuffix } from './api';

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** A receiver on loopback (E2E_PORT + 20, this spec's port) answering 200 "received" to every request. */
async function startReceiver(): Promise<{ url: string; received: Received[]; close: () => Promise<void> }> {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('received');
    });
  });
  await new Promise<void>((resolve) => server.listen(E2E_PORT + 20, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/nightly`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

test('a webhook schedule fires from the worker, signed with the scheduler\'s secret; its history says HTTP 200; Run now delivers under its own id', async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    const schedulerAlias = `hooks-${uniqueSuffix()}`;
    const made = await request.post('/api/v1/orgs/acme-corp/blobs', { headers, data: { type: 'scheduler', alias: schedulerAlias, name: schedulerAlias } });
    expect(made.status(), await made.text()).toBe(200);
    const rev = (await made.json()).default_revision_id as string;

    // The admin is shown the scheduler's signing secret once (its Settings page).
    await page.goto(`/schedulers/${rev}`);
    await page.getByRole('link', { name: 'Settings' }).click();
    const show = page.getByRole('form', { name: 'Show the signing secret' });
    await show.getByRole('button', { name: 'Show secret once' }).click();
    const secret = (await show.getByTestId('shown-once').innerText()).trim();
    expect(secret).toMatch(/^whsec_/);

    const alias = `nightly-hook-${uniqueSuffix()}`;
    const schedule = await createApiSchedule(request, rev, {
      alias,
      // Hourly from 4 s from now: one fire during the test, and Run now stays available (not completed).
      repeat: 'recurring_rate',
      rate_expression: '1 hour',
      start_date: new Date(Math.ceil(Date.now() / 1000) * 1000 + 4_000).toISOString(),
      timezone: 'UTC',
      invocation_target_type: 'http',
      invocation_target: { url: receiver.url },
    });

    // The worker fires it: one signed POST with the default event.
    await expect.poll(() => receiver.received.length, { timeout: 30_000 }).toBe(1);
    const first = receiver.received[0];
    const event = new Webhook(secret).verify(first.body, first.headers) as Record<string, unknown>;
    expect(event).toMatchObject({ version: '0', 'detail-type': 'Scheduled Event', source: 'aws.scheduler', detail: '{}', id: first.headers['webhook-id'] });
    expect(event.resources).toEqual([expect.stringMatching(new RegExp(`^arn:aws:scheduler:[a-z0-9-]+:\\d{12}:schedule/${schedulerAlias}/${alias}$`))]);

    // The history says what the receiver answered.
    await page.goto(`/schedulers/${rev}/schedules/${schedule.id}`);
    await expect(page.getByText('HTTP 200 · received').first()).toBeVisible({ timeout: 15_000 });

    // Run now: delivered by the web process, a new id (a manual fire is its own delivery), recorded.
    await page.getByRole('button', { name: 'Run now' }).click();
    await expect(page.getByRole('status')).toContainText(`Run now on ${alias} recorded a run: success`);
    expect(receiver.received).toHaveLength(2);
    const second = receiver.received[1];
    expect(new Webhook(secret).verify(second.body, second.headers)).toMatchObject({ 'detail-type': 'Scheduled Event' });
    expect(second.headers['webhook-id']).not.toBe(first.headers['webhook-id']);
    const runs = await request.post(`/api/v1/revisions/${rev}/data`, { headers, data: { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: schedule.id } });
    const listed = (await runs.json()).executions as { trigger: string; status: string; result: unknown }[];
    expect(listed.map((r) => [r.trigger, r.status, r.result]).sort()).toEqual([
      ['manual', 'success', { http_status: 200, response_excerpt: 'received' }],
      ['schedule', 'success', { http_status: 200, response_excerpt: 'received' }],
    ]);
  } finally {
    await receiver.close();
  }
});
