/**
 * Renders the main pages for a look (not a test): seeds a few schedules and runs through the API,
 * then saves docs/screenshots/{grid,form,history}.png at 1280×800 and narrow (390 px) variants in
 * SHOT_DIR_NARROW (default /tmp). Run against a started app:
 *   BASE_URL=http://127.0.0.1:3200 API_KEY=<org key> DEMO_PASSWORD=<operator password> npx tsx e2e/take-screenshots.ts
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { DateTime } from 'luxon';

const BASE = process.env.BASE_URL ?? 'http://127.0.0.1:3200';
const KEY = process.env.API_KEY ?? 'e2e-bootstrap-key-0123456789';
const OUT = path.resolve(import.meta.dirname, '..', 'docs', 'screenshots');
const NARROW = process.env.SHOT_DIR_NARROW ?? '/tmp';
const DEMO_EMAIL = 'operator@acme-corp.example';
const DEMO_PASSWORD = process.env.DEMO_PASSWORD ?? 'e2e-operator-password-0123';

/** Pages need a browser session: log in as the seeded operator once per context. */
async function logIn(page: Page) {
  await page.goto(`${BASE}/login`);
  await page.getByLabel('Email').fill(DEMO_EMAIL);
  await page.getByLabel('Password').fill(DEMO_PASSWORD);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a screenshot script reads whatever the API answers
async function call(pathname: string, body?: unknown): Promise<any> {
  const res = await fetch(`${BASE}${pathname}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'X-API-Key': KEY, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${pathname}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

const target = (session = 'nightly-batch') => ({
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session },
  workflow: { definition: 'triage' },
  input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
});

async function seed(): Promise<{ schedulerRev: string; historyId: string }> {
  const scheduler = await call('/api/v1/orgs/acme-corp/blobs/ops-scheduler');
  const procedures = await call('/api/v1/orgs/acme-corp/blobs/procedures');
  const rev = scheduler.default_revision_id as string;
  const wf = procedures.default_revision_id as string;
  const sched = (command: string, params: object) => call(`/api/v1/revisions/${rev}/data`, { engine: 'scheduler_blobhub', command, ...params });
  const { schedules } = await sched('list_schedules', {});
  const existing = new Map<string, string>(schedules.map((s: { alias?: string; id: string }) => [s.alias ?? s.id, s.id]));
  const ensure = async (alias: string, fields: object) => existing.get(alias) ?? (await sched('create_schedule', { alias, ...fields })).schedule.id;

  await ensure('weekday-standup', { description: 'Open the stand-up notes every weekday morning', repeat: 'recurring_cron', cron_expression: '0 9 ? * MON-FRI *', timezone: 'Europe/Berlin', invocation_target: target() });
  await ensure('quarter-hour-sync', { description: 'Sync the ticket mirror', repeat: 'recurring_cron', cron_expression: '0/15 * * * ? *', timezone: 'UTC', invocation_target: target() });
  await ensure('month-end-close', { description: 'Month-end close checklist (last weekday)', repeat: 'recurring_cron', cron_expression: '30 17 LW * ? *', timezone: 'America/New_York', invocation_target: target() });
  const inAMinute = DateTime.now().setZone('Asia/Kolkata').plus({ minutes: 3 }).toFormat("yyyy-MM-dd'T'HH:mm:ss");
  await ensure('release-freeze', { description: 'Announce the release freeze', repeat: 'one_time', invocation_time: inAMinute, timezone: 'Asia/Kolkata', invocation_target: target() });
  const historyId = await ensure('hourly-triage', { description: 'Triage new tickets every hour', repeat: 'recurring_cron', cron_expression: '5 * * * ? *', timezone: 'Asia/Kolkata', invocation_target: target() });

  // A few runs for the history: manual fires, and one into a closed session (invocation_error).
  const { executions } = await sched('list_executions', { schedule_id: historyId });
  if (!executions.some((r: { status: string }) => r.status === 'invocation_error')) {
    const wfCall = (command: string, params: object) => call(`/api/v1/revisions/${wf}/data`, { engine: 'workflow_blobhub', command, ...params });
    for (let i = 0; i < 3; i++) await sched('run_schedule', { schedule_id: historyId });
    const sessions = await wfCall('list_sessions', {});
    const adhoc = sessions.sessions.find((s: { alias?: string }) => s.alias === 'adhoc-runs');
    if (!adhoc) await wfCall('create_session', { alias: 'adhoc-runs' });
    else if (adhoc.state === 'closed') await wfCall('reopen_session', { session_id: 'adhoc-runs' });
    await sched('update_schedule', { schedule_id: historyId, invocation_target: target('adhoc-runs') });
    await wfCall('close_session', { session_id: 'adhoc-runs' });
    await sched('run_schedule', { schedule_id: historyId });
    await sched('update_schedule', { schedule_id: historyId, invocation_target: target() });
    await sched('run_schedule', { schedule_id: historyId });
  }
  return { schedulerRev: rev, historyId };
}

async function shoot(page: Page, url: string, file: string, prepare?: (p: Page) => Promise<void>) {
  await page.goto(`${BASE}${url}`);
  await page.waitForLoadState('networkidle');
  if (prepare) await prepare(page);
  await page.screenshot({ path: file, fullPage: true });
  console.log(`saved ${file}`);
}

async function main() {
  mkdirSync(OUT, { recursive: true });
  const { schedulerRev, historyId } = await seed();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const fillForm = async (p: Page) => {
    await p.getByLabel('Alias').fill('nightly-digest');
    await p.getByLabel('Description').fill('Send the nightly digest of triaged tickets');
    await p.getByLabel('Cron expression').fill('30 2 ? * MON-FRI *');
    await p.getByLabel('Timezone').fill('America/New_York');
    await p.getByText('Next 5 fire times').waitFor();
  };
  for (const [width, height, dir, suffix] of [
    [1280, 800, OUT, ''],
    [390, 844, NARROW, '-390'],
  ] as const) {
    const context = await browser.newContext({ viewport: { width, height }, timezoneId: 'Europe/Berlin', locale: 'en-US' });
    const page = await context.newPage();
    await logIn(page);
    await shoot(page, `/schedulers/${schedulerRev}`, path.join(dir, `grid${suffix}.png`));
    await shoot(page, `/schedulers/${schedulerRev}/new`, path.join(dir, `form${suffix}.png`), fillForm);
    await shoot(page, `/schedulers/${schedulerRev}/schedules/${historyId}`, path.join(dir, `history${suffix}.png`));
    await context.close();
  }
  await browser.close();
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
