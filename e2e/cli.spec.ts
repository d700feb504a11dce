/**
 * The `scheduler` CLI against the running server (issue "Schedules as code", docs/cli.md): the CLI runs
 * as a child process (`node cli/bin.mjs …`) with SCHEDULER_URL / SCHEDULER_API_KEY, on manifests in a
 * temp dir. Everything runs in a scheduler blob and a workflow blob created for this file, so other
 * tests see no change; the schedules are deleted at the end.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { nextOccurrences } from '../lib/cron';
import { command, E2E_API_KEY, E2E_PORT, headers } from './api';

const BASE = `http://127.0.0.1:${E2E_PORT}`;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SUFFIX = Math.random().toString(16).slice(2, 8);
const SCHEDULER = `cli-e2e-sched-${SUFFIX}`;
const WORKFLOW = `cli-e2e-wf-${SUFFIX}`;

test.describe.configure({ mode: 'serial' });

let api: APIRequestContext;
let dir: string;
let schedulerRevision: string;
let workflowRevision: string;

interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Run `node cli/bin.mjs …args` with the e2e server and key in the environment. */
function cli(...args: string[]): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [path.join(ROOT, 'cli/bin.mjs'), ...args],
      { cwd: dir, env: { ...process.env, SCHEDULER_URL: BASE, SCHEDULER_API_KEY: E2E_API_KEY, SCHEDULER_REVISION: '' }, timeout: 60_000 },
      (error, stdout, stderr) => resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

async function createBlob(type: 'scheduler' | 'workflow', alias: string): Promise<string> {
  const res = await api.post('/api/v1/orgs/acme-corp/blobs', { headers, data: { type, alias, name: alias } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).default_revision_id as string;
}

async function schedules(): Promise<{ id: string; alias?: string; cron_expression?: string; updated_at: string; next_fire_at: string | null; created_at: string }[]> {
  const r = await command(api, schedulerRevision, { engine: 'scheduler_blobhub', command: 'list_schedules' });
  expect(r.status).toBe(200);
  return r.body.schedules;
}

const target = (session = 'nightly-batch', revision = 'default') => `{org: acme-corp, blob: ${WORKFLOW}, revision: ${revision}, session: ${session}}`;

/** Five schedules; line numbers are not asserted here. */
function manifest(): string {
  return `# e2e manifest
scheduler:
  org: acme-corp
  blob: ${SCHEDULER}
schedules:
  nightly-triage:
    description: Triage the last day of tickets
    repeat: recurring_cron
    cron_expression: "0 2 * * ? *"
    timezone: Europe/Berlin
    invocation_target:
      target: ${target()}
      workflow: {definition: triage}
      input_data:
        - alias: ticket_window
          value: {hours: 24}
  weekday-report:
    repeat: recurring_cron
    cron_expression: "0 9 ? * MON-FRI *"
    timezone: America/New_York
    invocation_target:
      target: ${target()}
      workflow: {org: acme-corp, blob: ${WORKFLOW}, definition: daily-report}
  new-year-once:
    repeat: one_time
    invocation_time: 2030-01-01T00:00:00
    timezone: Australia/Sydney
    invocation_target:
      target: ${target()}
      workflow: {definition: triage}
  pinned-triage:
    repeat: recurring_cron
    cron_expression: "30 6 ? * MON#1 *"
    timezone: UTC
    invocation_target:
      target: ${target('nightly-batch', workflowRevision)}
      workflow: {definition: triage}
  paused-window:
    description: needs a session deploy creates
    repeat: recurring_cron
    cron_expression: "15 4 L * ? *"
    timezone: Asia/Kolkata
    start_date: 2027-01-01T00:00:00+05:30
    end_date: 2028-01-01T00:00:00Z
    enabled: false
    invocation_target:
      target: ${target('cli-fresh-session')}
      workflow: {definition: daily-report}
`;
}

test.beforeAll(async ({ playwright }) => {
  api = await playwright.request.newContext({ baseURL: BASE });
  dir = mkdtempSync(path.join(tmpdir(), 'scheduler-cli-e2e-'));
  schedulerRevision = await createBlob('scheduler', SCHEDULER);
  workflowRevision = await createBlob('workflow', WORKFLOW);
  for (const alias of ['triage', 'daily-report']) {
    const r = await command(api, workflowRevision, { engine: 'workflow_blobhub', command: 'create_definition', alias, name: alias });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  }
  const s = await command(api, workflowRevision, { engine: 'workflow_blobhub', command: 'create_session', alias: 'nightly-batch' });
  expect(s.status, JSON.stringify(s.body)).toBe(200);
});

test.afterAll(async () => {
  // Leave nothing that fires: delete every schedule this file created.
  if (schedulerRevision) {
    for (const s of await schedules()) {
      await command(api, schedulerRevision, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: s.id });
    }
  }
  await api?.dispose();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('§11 deploy → idempotent → diff one field (exit 2) → deploy → drift left alone → pull round-trips', async () => {
  const file = path.join(dir, 'schedules.yaml');
  writeFileSync(file, manifest());

  // Into an empty scheduler: 5 creates and the missing target session.
  const first = await cli('deploy');
  expect(first.code, first.stderr).toBe(0);
  expect(first.stdout).toContain('+ created session cli-fresh-session');
  expect(first.stdout).toContain(`Deployed to acme-corp/${SCHEDULER}: 5 created, 0 updated, 0 unchanged, 1 session created.`);
  const deployed = await schedules();
  expect(deployed.map((s) => s.alias).sort()).toEqual(['new-year-once', 'nightly-triage', 'paused-window', 'pinned-triage', 'weekday-report']);
  const session = await command(api, workflowRevision, { engine: 'workflow_blobhub', command: 'get_session', session_id: 'cli-fresh-session' });
  expect(session.status).toBe(200);

  // Idempotent: a second deploy writes nothing and says so.
  const again = await cli('deploy');
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toContain(`Nothing to do: 5 schedules in acme-corp/${SCHEDULER} match the manifest.`);
  expect((await schedules()).map((s) => s.updated_at)).toEqual(deployed.map((s) => s.updated_at));
  expect((await cli('diff')).code).toBe(0);

  // Edit one field: diff names exactly that field and exits 2.
  writeFileSync(file, manifest().replace('cron_expression: "0 2 * * ? *"', 'cron_expression: "0 3 * * ? *"'));
  const d = await cli('diff');
  expect(d.code, d.stderr).toBe(2);
  const changeLines = d.stdout.split('\n').filter((l) => /^\s{4}\S/.test(l));
  expect(d.stdout).toMatch(/^~ update nightly-triage \(/m);
  expect(changeLines).toEqual(['    cron_expression: "0 2 * * ? *" → "0 3 * * ? *"']);
  expect(d.stdout).toContain('Plan: 0 to create, 1 to update, 4 unchanged.');

  const update = await cli('deploy');
  expect(update.code, update.stderr).toBe(0);
  expect(update.stdout).toContain('~ updated nightly-triage: cron_expression');
  const afterUpdate = await schedules();
  const changed = afterUpdate.filter((s, i) => s.updated_at !== deployed[i].updated_at).map((s) => s.alias);
  expect(changed).toEqual(['nightly-triage']);
  expect(afterUpdate.find((s) => s.alias === 'nightly-triage')?.cron_expression).toBe('0 3 * * ? *');
  expect((await cli('diff')).code).toBe(0);

  // A schedule added through the API (standing in for the UI) is drift: reported, left alone.
  const ui = await command(api, schedulerRevision, {
    engine: 'scheduler_blobhub',
    command: 'create_schedule',
    alias: 'made-in-the-ui',
    repeat: 'recurring_cron',
    cron_expression: '0 12 ? * SUN *',
    timezone: 'UTC',
    invocation_target: { target: { org: 'acme-corp', blob: WORKFLOW, revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
  });
  expect(ui.status, JSON.stringify(ui.body)).toBe(200);
  const drift = await cli('diff');
  expect(drift.code).toBe(0);
  expect(drift.stdout).toContain(`! drift: made-in-the-ui (${ui.body.schedule.id}) is deployed but not in the manifest; left alone`);
  expect((await cli('diff', '--fail-on-drift')).code).toBe(2);
  const leftAlone = await cli('deploy');
  expect(leftAlone.code).toBe(0);
  expect(leftAlone.stdout).toContain('! drift: made-in-the-ui');
  expect(leftAlone.stdout).toContain('Nothing to do');
  const uiAfter = (await schedules()).find((s) => s.alias === 'made-in-the-ui');
  expect(uiAfter?.updated_at).toBe(ui.body.schedule.updated_at);

  // pull into a copy: diff is clean, and the pulled file holds the same entries (plus the drift).
  const copy = path.join(dir, 'copy.yaml');
  writeFileSync(copy, readFileSync(file, 'utf8'));
  const pulled = await cli('pull', '-f', copy);
  expect(pulled.code, pulled.stderr).toBe(0);
  expect(pulled.stdout).toContain('+ added made-in-the-ui');
  expect((await cli('diff', '-f', copy, '--fail-on-drift')).code).toBe(0);
  const original = parseYaml(readFileSync(file, 'utf8')).schedules;
  const roundTrip = parseYaml(readFileSync(copy, 'utf8')).schedules;
  const { 'made-in-the-ui': added, ...rest } = roundTrip;
  expect(rest).toEqual(original);
  expect(added).toMatchObject({ repeat: 'recurring_cron', cron_expression: '0 12 ? * SUN *', timezone: 'UTC' });

  // pull into a new file: written from scratch, and diff is clean too.
  const fresh = path.join(dir, 'fresh.yaml');
  const created = await cli('pull', '-f', fresh, '--scheduler', `acme-corp/${SCHEDULER}`);
  expect(created.code, created.stderr).toBe(0);
  expect((await cli('diff', '-f', fresh, '--fail-on-drift')).code).toBe(0);
  expect(Object.keys(parseYaml(readFileSync(fresh, 'utf8')).schedules).sort()).toEqual(
    ['made-in-the-ui', 'new-year-once', 'nightly-triage', 'paused-window', 'pinned-triage', 'weekday-report'],
  );

  // ls: every deployed schedule with its next fire.
  const listed = await cli('ls');
  expect(listed.code, listed.stderr).toBe(0);
  for (const s of await schedules()) expect(listed.stdout).toMatch(new RegExp(`^${s.alias}\\s.*${s.next_fire_at ?? ' - '}`, 'm'));
});

test('§11 an invalid manifest writes nothing and names the line', async () => {
  const before = await schedules();
  const bad = path.join(dir, 'bad.yaml');
  const lines = [
    `scheduler: {org: acme-corp, blob: ${SCHEDULER}}`, // 1
    'schedules:', // 2
    '  new-one-valid:', // 3
    '    repeat: recurring_cron', // 4
    '    cron_expression: "0 7 * * ? *"', // 5
    '    timezone: UTC', // 6
    `    invocation_target: {target: ${target('another-new-session')}, workflow: {definition: triage}}`, // 7
    '  bad-cron:', // 8
    '    repeat: recurring_cron', // 9
    '    cron_expression: "0 7 * * 8 *"', // 10: both day fields set, day-of-week 8
    '    timezone: UTC', // 11
    `    invocation_target: {target: ${target()}, workflow: {definition: triage}}`, // 12
    '  unknown-key:', // 13
    '    repeat: recurring_cron', // 14
    '    cron_expression: "0 7 * * ? *"', // 15
    '    timezone: UTC', // 16
    '    colour: blue', // 17
    `    invocation_target: {target: ${target()}, workflow: {definition: triage}}`, // 18
  ];
  writeFileSync(bad, `${lines.join('\n')}\n`);
  const local = await cli('deploy', '-f', bad);
  expect(local.code).toBe(1);
  expect(local.stderr).toMatch(/bad\.yaml:10: bad-cron: invalid_cron_expression: day-of-week: `8` is outside/);
  expect(local.stderr).toContain('bad.yaml:17: unknown-key: invalid_request_body: unknown field "colour"');
  expect(local.stderr).toContain('nothing was sent to the server');

  // Locally valid, but a target the server does not have: found before the first write.
  const badTarget = path.join(dir, 'bad-target.yaml');
  writeFileSync(
    badTarget,
    [
      ...lines.slice(0, 7),
      '  missing-blob:', // 8
      '    repeat: recurring_cron', // 9
      '    cron_expression: "0 7 * * ? *"', // 10
      '    timezone: UTC', // 11
      '    invocation_target:', // 12
      '      target: {org: acme-corp, blob: no-such-blob-here, revision: default, session: nightly-batch}', // 13
      '      workflow: {definition: triage}', // 14
      '  missing-definition:', // 15
      '    repeat: recurring_cron', // 16
      '    cron_expression: "0 7 * * ? *"', // 17
      '    timezone: UTC', // 18
      '    invocation_target:', // 19
      `      target: ${target()}`, // 20
      '      workflow: {definition: no-such-definition}', // 21
      '  past-once:', // 22
      '    repeat: one_time', // 23
      '    invocation_time: 2020-01-01T00:00:00', // 24: the server's clock rule (SPEC §5.2)
      '    timezone: UTC', // 25
      `    invocation_target: {target: ${target()}, workflow: {definition: triage}}`, // 26
      '',
    ].join('\n'),
  );
  // The server decides (dry runs): its codes, paths and messages, at the manifest lines. A target
  // refusal is SPEC §6.3's one identical answer, at the entry's invocation_target.
  const targetRefusal = 'invalid_invocation_target: invocation_target: invocation_target does not resolve to a writable draft revision, an existing session in it, and a workflow definition you can read';
  for (const cmd of ['deploy', 'diff']) {
    const remote = await cli(cmd, '-f', badTarget);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain(`bad-target.yaml:12: missing-blob: ${targetRefusal}`);
    expect(remote.stderr).toContain(`bad-target.yaml:19: missing-definition: ${targetRefusal}`);
    expect(remote.stderr).toContain('bad-target.yaml:24: past-once: invalid_invocation_time: invocation_time: invocation_time 2020-01-01T00:00:00 in UTC is in the past');
    expect(remote.stderr).toContain('3 problems');
  }
  // Nothing written: no schedule, and not the session the valid entry would have needed either.
  expect((await schedules()).map((s) => [s.id, s.updated_at])).toEqual(before.map((s) => [s.id, s.updated_at]));
  const session = await command(api, workflowRevision, { engine: 'workflow_blobhub', command: 'get_session', session_id: 'another-new-session' });
  expect(session.status).toBe(404);
});

/** 20 expressions and zones, DST and odd offsets included (SPEC §7.1). */
const CASES: [string, string][] = [
  ['0 9 ? * MON-FRI *', 'Europe/Berlin'],
  ['0/30 * * * ? *', 'America/New_York'],
  ['30 2 * * ? *', 'America/New_York'],
  ['30 1 * * ? *', 'America/New_York'],
  ['0 0 L * ? *', 'UTC'],
  ['0 12 15W * ? *', 'Asia/Tokyo'],
  ['0 18 LW * ? *', 'Asia/Kolkata'],
  ['45 23 ? * 6L *', 'Asia/Kathmandu'],
  ['0 8 ? * MON#1 *', 'Australia/Sydney'],
  ['0 2 * * ? *', 'Australia/Lord_Howe'],
  ['0 0 * * ? *', 'America/Santiago'],
  ['7/20 * * * ? *', 'UTC'],
  ['0 22-2 * * ? *', 'Europe/London'],
  ['0 9 ? * FRI-MON *', 'Pacific/Auckland'],
  ['0 6 1 NOV-FEB ? *', 'America/Sao_Paulo'],
  ['15 10 L-2 * ? *', 'Africa/Cairo'],
  ['0 0 1 1 ? 2027-2030', 'UTC'],
  ['0 */4 * * ? *', 'Asia/Tehran'],
  ['5 3 ? * SUN *', 'Europe/Dublin'],
  ['0 12 29 2 ? *', 'UTC'],
];

test('§7 cron next prints the same instants as the time engine the API uses, for 20 expressions and zones', async () => {
  const after = '2026-03-01T00:00:00.000Z';
  for (const [expr, zone] of CASES) {
    const r = await cli('cron', 'next', expr, '--tz', zone, '--count', '6', '--after', after);
    expect(r.code, `${expr} ${zone}: ${r.stderr}`).toBe(0);
    const lines = r.stdout.trim().split('\n');
    const expected = nextOccurrences(expr, zone, new Date(after), 6).map((d) => d.toISOString());
    expect(lines.map((l) => l.split('  ')[0]), `${expr} in ${zone}`).toEqual(expected);
    for (const l of lines) expect(l).toMatch(new RegExp(`^\\S+Z  \\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2} ${zone.replace('/', '\\/')}$`));
  }
  const explain = await cli('cron', 'explain', '0 9 ? * MON-FRI *');
  expect(explain.code).toBe(0);
  expect(explain.stdout.split('\n')[0]).toBe('At 09:00 AM, Monday through Friday');
  const broken = await cli('cron', 'next', '0 9 * * MON *');
  expect(broken.code).toBe(1);
  expect(broken.stderr).toMatch(/^error: invalid_cron_expression: day-of-month: /);
});

test('§7 cron next agrees with next_fire_at of schedules created through the API', async () => {
  const picked = [CASES[0], CASES[2], CASES[7], CASES[9], CASES[15]];
  for (const [i, [expr, zone]] of picked.entries()) {
    const r = await command(api, schedulerRevision, {
      engine: 'scheduler_blobhub',
      command: 'create_schedule',
      alias: `cron-check-${i}-${SUFFIX}`,
      repeat: 'recurring_cron',
      cron_expression: expr,
      timezone: zone,
      invocation_target: { target: { org: 'acme-corp', blob: WORKFLOW, revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { next_fire_at, created_at } = r.body.schedule;
    // The server computed next_fire_at from the request instant, which it recorded as created_at.
    const next = await cli('cron', 'next', expr, '--tz', zone, '--count', '1', '--after', created_at);
    expect(next.stdout.split('  ')[0], `${expr} in ${zone}`).toBe(next_fire_at);
  }
});

test('§12.1 cron next \'rate(15 minutes)\' --anchor agrees with next_fire_at of rate schedules created through the API with that start date', async () => {
  // A start date in the past (the first mark after the save) and one in the future (the start date itself).
  const anchors = ['2026-01-01T00:03:17.000Z', new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 7 * 86_400_000 + 41_000).toISOString()];
  for (const [i, anchor] of anchors.entries()) {
    const r = await command(api, schedulerRevision, {
      engine: 'scheduler_blobhub',
      command: 'create_schedule',
      alias: `rate-check-${i}-${SUFFIX}`,
      repeat: 'recurring_rate',
      rate_expression: '15 minutes',
      start_date: anchor,
      timezone: 'Asia/Kolkata',
      invocation_target: { target: { org: 'acme-corp', blob: WORKFLOW, revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
    });
    expect(r.status, JSON.stringify(r.body)).toBe(200);
    const { next_fire_at, created_at } = r.body.schedule;
    // The server anchored at start_date and took the first mark strictly after the save (created_at).
    const next = await cli('cron', 'next', 'rate(15 minutes)', '--anchor', anchor, '--after', created_at, '--count', '3', '--tz', 'Asia/Kolkata');
    expect(next.code, next.stderr).toBe(0);
    const lines = next.stdout.trim().split('\n');
    expect(lines[0].split('  ')[0], `anchor ${anchor}`).toBe(next_fire_at);
    expect(lines.map((l) => Date.parse(l.split('  ')[0]))).toEqual([0, 1, 2].map((k) => Date.parse(next_fire_at) + k * 15 * 60_000));
    expect(lines[0]).toMatch(/ Asia\/Kolkata$/);
    expect((Date.parse(next_fire_at) - Date.parse(anchor)) % (15 * 60_000)).toBe(0);
  }
  expect(anchors[1]).toBe((await schedules()).find((s) => s.alias === `rate-check-1-${SUFFIX}`)!.next_fire_at);
  const explain = await cli('cron', 'explain', 'rate(15 minutes)');
  expect(explain.stdout.split('\n')[0]).toBe('Every 15 minutes');
});
