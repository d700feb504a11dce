/**
 * SPEC §13.5 through the real product (`npm start`: the web app and the worker process): the header
 * values of a webhook target are write-only. Two webhooks to a receiver written here (answering 500)
 * carry credential headers: a one-time one the worker fires, whose occurrence ends in the dead-letter
 * list, and a recurring one the operator edits and runs now; then
 * - a `read` member's answers (get_schedule, list_schedules, list_executions, list_dead_letters,
 *   list_activity, with its own read key) and pages (the scheduler grid, the schedule page with its
 *   history and activity, the dead letters, the edit page), searched as JSON, as the HTML the server
 *   sent (with its streamed data) and as the rendered document, contain no header value, while the
 *   schedule page names each header with "••••";
 * - the operator's edit in the web form (the form shows "••••" and sends it back with a changed
 *   timeout) keeps the stored values: the next delivery carries them as written;
 * - the server's own log never holds a value.
 */
import http from 'node:http';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import type { AccessFixtures } from './setup/access-fixtures';
import { ACCESS_FIXTURES, createApiSchedule, deleteApiSchedules, E2E_PORT, schedulerCommand, SERVER_LOG, uniqueSuffix, wallTimeIn } from './api';
import { expectNoSeriousViolations, property } from './ui';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const fx = JSON.parse(readFileSync(path.join(ROOT, ACCESS_FIXTURES), 'utf8')) as AccessFixtures;
const suffix = uniqueSuffix();
const SECRETS = { Authorization: `Bearer e2e-sealed-${suffix}`, 'X-Pass': `pass-${suffix}-x`, 'X-Shopify-Hmac-Sha256': `hmac-${suffix}-y` };
const VALUES = Object.values(SECRETS);

/** The values of `text` that are secrets (none, when nothing leaked). */
const leaked = (text: string) => VALUES.filter((v) => text.includes(v));

/** A receiver on loopback (E2E_PORT + 21, this spec's port) answering 500 to every request. */
async function startReceiver() {
  const received: Record<string, string>[] = [];
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received.push(Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)])));
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('down for maintenance');
    });
  });
  await new Promise<void>((resolve) => server.listen(E2E_PORT + 21, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${E2E_PORT + 21}/hooks/sealed`,
    received,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

test('§13.5 a read member\'s answers and pages contain no header value; the form\'s edit keeps the values', async ({ page, request, browser }) => {
  const rev = fx.orgs.acme.scheduler.revisionId;
  const reader = fx.users.find((u) => u.org === 'acme' && u.role === 'read')!;
  const readKey = fx.keys.find((k) => k.org === 'acme' && k.owner === 'user' && k.userRole === 'read' && k.role === 'read')!.key;
  const receiver = await startReceiver();
  const made: string[] = [];
  try {
    const target = { url: receiver.url, headers: SECRETS, timeout_seconds: 2 };
    const retry_policy = { maximum_retry_attempts: 0, maximum_event_age_seconds: 60 };
    // One occurrence the worker fires in a few seconds: the receiver answers 500, one attempt, so it is a dead letter.
    const once = await createApiSchedule(request, rev, { alias: `sealed-once-${suffix}`, repeat: 'one_time', invocation_time: wallTimeIn(4), retry_policy, invocation_target_type: 'http', invocation_target: target });
    made.push(once.id);
    // One the operator edits, and runs now.
    const schedule = await createApiSchedule(request, rev, { alias: `sealed-hook-${suffix}`, repeat: 'recurring_cron', cron_expression: '0 3 1 1 ? *', retry_policy, invocation_target_type: 'http', invocation_target: target });
    made.push(schedule.id);
    expect(schedule.invocation_target).toMatchObject({ headers: { Authorization: '••••', 'X-Pass': '••••', 'X-Shopify-Hmac-Sha256': '••••' } });

    await expect
      .poll(async () => ((await schedulerCommand(request, rev, 'list_dead_letters')).dead_letters as { schedule_id: string }[]).some((d) => d.schedule_id === once.id), { timeout: 30_000 })
      .toBe(true);
    expect(receiver.received).toHaveLength(1);
    expect([receiver.received[0].authorization, receiver.received[0]['x-pass'], receiver.received[0]['x-shopify-hmac-sha256']]).toEqual(VALUES);

    // The operator edits the webhook in the form: the values show as "••••" and go back as they are.
    await page.goto(`/schedulers/${rev}/schedules/${schedule.id}/edit`);
    await expect(page.getByLabel('Header name').first()).toHaveValue('Authorization');
    await expect(page.getByLabel('Value', { exact: true }).first()).toHaveValue('••••');
    expect(leaked(await page.content())).toEqual([]);
    await page.getByLabel('Timeout (seconds)').fill('3');
    await page.getByRole('button', { name: 'Save changes' }).click();
    await expect(page).toHaveURL(new RegExp(`/schedules/${schedule.id}$`));
    await expect(property(page, 'Timeout')).toHaveText('3 s');
    await schedulerCommand(request, rev, 'run_schedule', { schedule_id: schedule.id });
    expect(receiver.received).toHaveLength(2);
    // (Run now delivers through the web process.)
    expect([receiver.received[1].authorization, receiver.received[1]['x-pass'], receiver.received[1]['x-shopify-hmac-sha256']]).toEqual(VALUES);

    // A read member's answers, with its own read key.
    for (const [name, fields] of [
      ['get_schedule', { schedule_id: schedule.id }],
      ['list_schedules', {}],
      ['list_executions', { schedule_id: schedule.id, include_schedule: true }],
      ['list_executions', { schedule_id: once.id, include_schedule: true }],
      ['list_dead_letters', {}],
      ['list_activity', { schedule_id: schedule.id }],
    ] as const) {
      const res = await request.post(`/api/v1/revisions/${rev}/data`, { headers: { authorization: `Bearer ${readKey}` }, data: { engine: 'scheduler_blobhub', command: name, ...fields } });
      const text = await res.text();
      expect(res.status(), `${name}: ${text.slice(0, 300)}`).toBe(200);
      expect(leaked(text), name).toEqual([]);
    }
    const got = await request.post(`/api/v1/revisions/${rev}/data`, { headers: { authorization: `Bearer ${readKey}` }, data: { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: schedule.id } });
    expect(((await got.json()) as { schedule: { invocation_target: { headers: Record<string, string> } } }).schedule.invocation_target.headers).toEqual({
      Authorization: '••••',
      'X-Pass': '••••',
      'X-Shopify-Hmac-Sha256': '••••',
    });

    // A read member's pages, logged in through the login page.
    const ctx = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    try {
      const p = await ctx.newPage();
      await p.goto('/login');
      await p.getByLabel('Email').fill(reader.email);
      await p.getByLabel('Password').fill(reader.password);
      await p.getByRole('button', { name: 'Log in' }).click();
      await expect(p).toHaveURL(/\/schedulers$/);
      const pages = [
        `/schedulers/${rev}`,
        `/schedulers/${rev}/schedules/${schedule.id}`,
        `/schedulers/${rev}/schedules/${once.id}`,
        `/schedulers/${rev}/dead-letters`,
        `/schedulers/${rev}/schedules/${schedule.id}/edit`,
      ];
      for (const url of pages) {
        const res = await p.goto(url);
        const sent = (await res?.text()) ?? '';
        expect(leaked(sent), `${url} as sent`).toEqual([]);
        expect(leaked(await p.content()), `${url} as rendered`).toEqual([]);
      }
      await p.goto(`/schedulers/${rev}/schedules/${schedule.id}`);
      await expect(property(p, 'Headers')).toContainText('Authorization: ••••');
      await expect(property(p, 'Headers')).toContainText('X-Pass: ••••');
      await expectNoSeriousViolations(p, 'a webhook schedule page as a read member');
    } finally {
      await ctx.close();
    }

    // Nor did the server log any value.
    expect(leaked(readFileSync(path.join(ROOT, SERVER_LOG), 'utf8'))).toEqual([]);
  } finally {
    await deleteApiSchedules(request, rev, made);
    await receiver.close();
  }
});
