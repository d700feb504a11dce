/**
 * The scheduler contract over HTTP (SPEC §3–§6, §9), table-driven: one case per row of SPEC §5.2, per
 * rule of §4 and per rule of §6.1–§6.3, accepted and refused sides. Every refusal is checked for its
 * status and `error.code`, and for having written nothing (the scheduler's schedule count is unchanged).
 * Each test file uses its own scheduler blob, so counts are exact.
 */
import { expect, request as playwrightRequest, test, type APIRequestContext } from '@playwright/test';
import { command, FOLLOWING_TARGET, headers, LIMITS_BASE_URL, revisionOf } from './api';

type Body = Record<string, unknown>;

let scheduler: string; // this file's scheduler revision id
let procedures: string; // procedures' draft (default) revision id

async function newScheduler(request: APIRequestContext, alias: string): Promise<string> {
  const res = await request.post('/api/v1/orgs/acme-corp/blobs', { headers, data: { type: 'scheduler', alias, name: alias } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()).default_revision_id;
}
async function count(request: APIRequestContext, revision = scheduler): Promise<number> {
  const r = await command(request, revision, { engine: 'scheduler_blobhub', command: 'list_schedules' });
  expect(r.status).toBe(200);
  return r.body.schedules.length;
}
const create = (fields: Body) => ({ engine: 'scheduler_blobhub', command: 'create_schedule', ...fields });
const future = (days = 30) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 19);
const cron = (extra: Body = {}): Body => ({ repeat: 'recurring_cron', cron_expression: '0 9 ? * MON-FRI *', timezone: 'UTC', invocation_target: FOLLOWING_TARGET, ...extra });
const once = (extra: Body = {}): Body => ({ repeat: 'one_time', invocation_time: future(), timezone: 'Europe/Berlin', invocation_target: FOLLOWING_TARGET, ...extra });
const withTarget = (target: Body, workflow: Body = { definition: 'triage' }) => cron({ invocation_target: { target, workflow } });

test.beforeAll(async ({ request }) => {
  scheduler = await newScheduler(request, `contract-${Date.now().toString(36)}`);
  procedures = await revisionOf(request, 'procedures');
});

type Case = { name: string; body: () => Body; status: number; code?: string; path?: string; message?: RegExp };

const REFUSED: Case[] = [
  // §5.2 row: wrong type, unknown key, missing field, field of the other repeat, read-only fields
  { name: '§5.2 wrong type (repeat: 5)', body: () => cron({ repeat: 5 }), status: 400, code: 'invalid_request_body', path: 'repeat' },
  { name: '§5.2 wrong type (enabled: "yes")', body: () => cron({ enabled: 'yes' }), status: 400, code: 'invalid_request_body', path: 'enabled' },
  { name: '§5.2 unknown key at top level', body: () => cron({ colour: 'blue' }), status: 400, code: 'invalid_request_body', path: 'colour' },
  { name: '§5.2 unknown key in target', body: () => withTarget({ org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch', region: 'eu' }), status: 400, code: 'invalid_request_body', path: 'invocation_target.target.region' },
  { name: '§5.2 unknown key in workflow', body: () => withTarget(FOLLOWING_TARGET.target, { definition: 'triage', version: 2 }), status: 400, code: 'invalid_request_body' },
  { name: '§5.2 unknown key in input_data item', body: () => cron({ invocation_target: { ...FOLLOWING_TARGET, input_data: [{ alias: 'a', value: 1, extra: true }] } }), status: 400, code: 'invalid_request_body' },
  { name: '§5.2 missing timezone', body: () => { const b = cron(); delete b.timezone; return b; }, status: 400, code: 'invalid_request_body', path: 'timezone' },
  { name: '§5.2 missing invocation_target', body: () => { const b = cron(); delete b.invocation_target; return b; }, status: 400, code: 'invalid_request_body' },
  { name: '§5.2 missing cron_expression for recurring_cron', body: () => { const b = cron(); delete b.cron_expression; return b; }, status: 400, code: 'invalid_request_body', path: 'cron_expression' },
  { name: '§5.2 cron_expression with one_time', body: () => once({ cron_expression: '0 9 * * ? *' }), status: 400, code: 'invalid_request_body', path: 'cron_expression' },
  { name: '§5.2 invocation_time with recurring_cron', body: () => cron({ invocation_time: future() }), status: 400, code: 'invalid_request_body', path: 'invocation_time' },
  ...['id', 'state', 'next_fire_at', 'created_by', 'created_at', 'updated_at', 'skipped_occurrences'].map<Case>((k) => ({
    name: `§5.1 read-only field "${k}" refused in a request`, body: () => cron({ [k]: k === 'created_by' ? { type: 'org', id: 'x' } : 'x' }), status: 400, code: 'invalid_request_body', path: k,
  })),
  { name: '§5.2 description over 256', body: () => cron({ description: 'x'.repeat(257) }), status: 400, code: 'invalid_request_body', path: 'description' },
  // §5.2 / §7.1 cron syntax and semantics
  { name: '§7.1 day-of-week 8 is out of range', body: () => cron({ cron_expression: '0 9 ? * 8 *' }), status: 400, code: 'invalid_cron_expression', message: /day-of-week.*8/ },
  { name: '§7.1 */60 in minutes', body: () => cron({ cron_expression: '*/60 * * * ? *' }), status: 400, code: 'invalid_cron_expression', message: /minute/ },
  { name: '§7.1 both day fields given', body: () => cron({ cron_expression: '0 12 * * 1 *' }), status: 400, code: 'invalid_cron_expression' },
  { name: '§7.1 ? in year', body: () => cron({ cron_expression: '0 18 ? * MON-FRI ?' }), status: 400, code: 'invalid_cron_expression', message: /year/ },
  { name: '§7.1 five fields', body: () => cron({ cron_expression: '0 9 * * ?' }), status: 400, code: 'invalid_cron_expression' },
  { name: '§7.1 cron(...) wrapper', body: () => cron({ cron_expression: 'cron(0 9 * * ? *)' }), status: 400, code: 'invalid_cron_expression' },
  { name: '§5.2 never fires (Feb 30)', body: () => cron({ cron_expression: '0 0 30 2 ? *' }), status: 400, code: 'invalid_cron_expression' },
  { name: '§5.2 never fires (past year)', body: () => cron({ cron_expression: '0 0 1 1 ? 2020' }), status: 400, code: 'invalid_cron_expression' },
  { name: '§5.2 never fires inside the window', body: () => cron({ cron_expression: '0 0 1 1 ? *', start_date: `${new Date().getUTCFullYear() + 1}-03-01T00:00:00Z`, end_date: `${new Date().getUTCFullYear() + 1}-06-01T00:00:00Z` }), status: 400, code: 'invalid_cron_expression' },
  // timezone
  { name: '§5.2 timezone not IANA', body: () => cron({ timezone: 'Mars/Olympus_Mons' }), status: 400, code: 'invalid_timezone', path: 'timezone' },
  { name: '§5.1 timezone offset refused', body: () => cron({ timezone: '+02:00' }), status: 400, code: 'invalid_timezone' },
  // invocation_time
  { name: '§5.2 invocation_time malformed', body: () => once({ invocation_time: '2030-01-01 10:00' }), status: 400, code: 'invalid_invocation_time', path: 'invocation_time' },
  { name: '§5.2 invocation_time with an offset', body: () => once({ invocation_time: '2030-01-01T10:00:00Z' }), status: 400, code: 'invalid_invocation_time' },
  { name: '§5.2 invocation_time in the past', body: () => once({ invocation_time: '2020-01-01T10:00:00' }), status: 400, code: 'invalid_invocation_time' },
  { name: '§7.2 invocation_time in a DST gap', body: () => once({ invocation_time: '2030-03-10T02:30:00', timezone: 'America/New_York' }), status: 400, code: 'invalid_invocation_time' },
  { name: '§5.2 invocation_time outside the window', body: () => once({ invocation_time: future(30), end_date: new Date(Date.now() + 10 * 86_400_000).toISOString() }), status: 400, code: 'invalid_invocation_time' },
  // date window
  { name: '§5.2 end_date not after start_date', body: () => cron({ start_date: '2031-01-02T00:00:00Z', end_date: '2031-01-01T00:00:00Z' }), status: 400, code: 'invalid_date_window', path: 'end_date' },
  { name: '§5.2 end_date equal to start_date', body: () => cron({ start_date: '2031-01-01T00:00:00Z', end_date: '2031-01-01T00:00:00Z' }), status: 400, code: 'invalid_date_window' },
  { name: '§5.1 start_date not ISO 8601', body: () => cron({ start_date: 'tomorrow' }), status: 400, code: 'invalid_request_body', path: 'start_date' },
  // §4 alias grammar
  ...['main', 'dev', 'prod', 'ci', 'Nightly-Report', 'has space', 'dot.ted', 'x'.repeat(65), '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e', '00000000-0000-0000-0000-000000000000'].map<Case>((alias) => ({
    name: `§4 alias "${alias.length > 20 ? alias.slice(0, 12) + '…' : alias}" refused`, body: () => cron({ alias }), status: 400, code: 'invalid_alias', path: 'alias',
  })),
  // §6 target fields
  { name: '§6 blank target field', body: () => withTarget({ ...FOLLOWING_TARGET.target, session: '   ' }), status: 400, code: 'invalid_request_body' },
  { name: '§6 target field over 64 chars', body: () => withTarget({ ...FOLLOWING_TARGET.target, session: 's'.repeat(65) }), status: 400, code: 'invalid_request_body' },
  { name: '§6 target field not a string', body: () => withTarget({ ...FOLLOWING_TARGET.target, session: 7 }), status: 400, code: 'invalid_request_body' },
  { name: '§6 input_data over 64 KiB', body: () => cron({ invocation_target: { ...FOLLOWING_TARGET, input_data: [{ alias: 'big', value: 'x'.repeat(70_000) }] } }), status: 400, code: 'invalid_request_body' },
  // §6.1
  { name: '§6.1 blob alias without org', body: () => withTarget({ blob: 'procedures', revision: 'default', session: 'nightly-batch' }), status: 400, code: 'invalid_invocation_target' },
  { name: '§6.1 following target with a session id', body: () => withTarget({ org: 'acme-corp', blob: 'procedures', revision: 'default', session: '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e' }), status: 400, code: 'invalid_invocation_target' },
  { name: '§6.1 revision neither an id nor "default"', body: () => withTarget({ org: 'acme-corp', blob: 'procedures', revision: 'latest', session: 'nightly-batch' }), status: 400, code: 'invalid_invocation_target' },
  // §6.2
  { name: '§6.2 workflow.blob alias without workflow.org', body: () => withTarget(FOLLOWING_TARGET.target, { blob: 'procedures', definition: 'triage' }), status: 400, code: 'invalid_workflow_reference' },
  { name: '§6.2 definition by id while following default', body: () => withTarget(FOLLOWING_TARGET.target, { definition: '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e' }), status: 400, code: 'invalid_invocation_target' },
  { name: '§6.2 qualified definition by id with workflow.revision default', body: () => withTarget(FOLLOWING_TARGET.target, { org: 'acme-corp', blob: 'procedures', revision: 'default', definition: '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e' }), status: 400, code: 'invalid_invocation_target' },
];

test.describe('refused: status, code, nothing written', () => {
  for (const c of REFUSED) {
    test(c.name, async ({ request }) => {
      const before = await count(request);
      const r = await command(request, scheduler, create(c.body()));
      expect(r.status, JSON.stringify(r.body)).toBe(c.status);
      expect(r.body.error.code).toBe(c.code);
      expect(typeof r.body.error.message).toBe('string');
      if (c.path) expect(r.body.error.path).toBe(c.path);
      if (c.message) expect(r.body.error.message).toMatch(c.message);
      expect(await count(request)).toBe(before);
    });
  }
});

test.describe('§6.3 save-time checks: every failure is the same refusal', () => {
  const failures: [string, () => Body][] = [
    ['blob does not exist', () => withTarget({ org: 'acme-corp', blob: 'no-such-blob', revision: 'default', session: 'nightly-batch' })],
    ['org does not exist', () => withTarget({ org: 'no-such-org', blob: 'procedures', revision: 'default', session: 'nightly-batch' })],
    ['session does not exist', () => withTarget({ org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'no-such-session' })],
    ['definition does not exist', () => withTarget(FOLLOWING_TARGET.target, { definition: 'no-such-definition' })],
    ['pinned revision of another blob', () => withTarget({ org: 'acme-corp', blob: 'ops-scheduler', revision: procedures, session: 'nightly-batch' })],
    ['pinned revision that does not exist', () => withTarget({ org: 'acme-corp', blob: 'procedures', revision: '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e', session: 'nightly-batch' })],
    ['qualified source blob does not exist', () => withTarget(FOLLOWING_TARGET.target, { org: 'acme-corp', blob: 'no-such-blob', definition: 'triage' })],
    ['blob id with an org that is not its org', () => withTarget({ org: 'no-such-org', blob: '__PROCEDURES_BLOB_ID__', revision: 'default', session: 'nightly-batch' })],
  ];
  let messages: string[] = [];
  for (const [name, body] of failures) {
    test(`refused: ${name}`, async ({ request }) => {
      let b = body();
      if (JSON.stringify(b).includes('__PROCEDURES_BLOB_ID__')) {
        const blob = await (await request.get('/api/v1/orgs/acme-corp/blobs/procedures', { headers })).json();
        b = JSON.parse(JSON.stringify(b).replace('__PROCEDURES_BLOB_ID__', blob.id));
      }
      const before = await count(request);
      const r = await command(request, scheduler, create(b));
      expect(r.status).toBe(400);
      expect(r.body.error.code).toBe('invalid_invocation_target');
      messages.push(r.body.error.message);
      expect(new Set(messages).size).toBe(1); // identical message for every failure
      expect(await count(request)).toBe(before);
    });
  }
  test('refused: the pinned revision is committed', async ({ request }) => {
    const blob = await (await request.post('/api/v1/orgs/acme-corp/blobs', { headers, data: { type: 'workflow', alias: `frozen-${Date.now().toString(36)}` } })).json();
    const rev = blob.default_revision_id;
    expect((await command(request, rev, { engine: 'workflow_blobhub', command: 'create_session', alias: 'frozen-session' })).status).toBe(200);
    expect((await command(request, rev, { engine: 'workflow_blobhub', command: 'create_definition', alias: 'frozen-def', name: 'Frozen' })).status).toBe(200);
    // Accepted while a draft …
    const ok = await command(request, scheduler, create(withTarget({ blob: blob.id, revision: rev, session: 'frozen-session' }, { definition: 'frozen-def' })));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: ok.body.schedule.id });
    // … refused once committed.
    expect((await command(request, rev, { engine: 'workflow_blobhub', command: 'commit_revision' })).status).toBe(200);
    const r = await command(request, scheduler, create(withTarget({ blob: blob.id, revision: rev, session: 'frozen-session' }, { definition: 'frozen-def' })));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe('invalid_invocation_target');
    messages = [...messages, r.body.error.message];
    expect(new Set(messages).size).toBe(1);
  });
});

test.describe('accepted sides', () => {
  const ACCEPTED: [string, () => Body, (s: Body) => void][] = [
    ['§4 alias "primary"', () => cron({ alias: 'primary' }), (s) => expect(s.alias).toBe('primary')],
    ['§4 alias "nightly-build"', () => cron({ alias: 'nightly-build' }), (s) => expect(s.alias).toBe('nightly-build')],
    ['§4 alias "daily_report"', () => cron({ alias: 'daily_report' }), (s) => expect(s.alias).toBe('daily_report')],
    ['§4 alias of 64 chars', () => cron({ alias: 'a'.repeat(64) }), (s) => expect(s.alias).toBe('a'.repeat(64))],
    ['§4 no alias: omitted, never null', () => cron(), (s) => expect(s).not.toHaveProperty('alias')],
    ['§5.1 description of 256', () => cron({ description: 'd'.repeat(256) }), (s) => expect(s.description).toBe('d'.repeat(256))],
    ['§5.1 timezone UTC', () => cron({ timezone: 'UTC' }), (s) => expect(s.timezone).toBe('UTC')],
    ['§7.2 ambiguous invocation_time fires at its first instant', () => once({ invocation_time: `${new Date().getUTCFullYear() + 1}-11-07T01:30:00`, timezone: 'America/New_York' }), (s) =>
      expect(s.next_fire_at).toBe(`${new Date().getUTCFullYear() + 1}-11-07T05:30:00.000Z`)],
    ['§6.1 blob by id needs no org', () => ({ __blobId: true }), () => undefined],
    ['§6.2 qualified workflow reference', () => withTarget(FOLLOWING_TARGET.target, { org: 'acme-corp', blob: 'procedures', definition: 'daily-report' }), (s) =>
      expect((s.invocation_target as { workflow: Body }).workflow).toEqual({ org: 'acme-corp', blob: 'procedures', definition: 'daily-report' })],
    ['§6.1 following target keeps the session alias', () => cron(), (s) => expect((s.invocation_target as { target: Body }).target.session).toBe('nightly-batch')],
  ];
  for (const [name, body, check] of ACCEPTED) {
    test(name, async ({ request }) => {
      let b = body();
      if (b.__blobId) {
        const blob = await (await request.get('/api/v1/orgs/acme-corp/blobs/procedures', { headers })).json();
        b = withTarget({ blob: blob.id, revision: 'default', session: 'nightly-batch' });
      }
      const r = await command(request, scheduler, create(b));
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      check(r.body.schedule);
      expect((await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: r.body.schedule.id })).status).toBe(200);
    });
  }

  test('§4 alias taken → 409 alias_taken; lookups trim and lowercase', async ({ request }) => {
    const a = await command(request, scheduler, create(cron({ alias: 'unique-one' })));
    expect(a.status).toBe(200);
    const before = await count(request);
    const b = await command(request, scheduler, create(cron({ alias: 'unique-one' })));
    expect(b.status).toBe(409);
    expect(b.body.error.code).toBe('alias_taken');
    expect(await count(request)).toBe(before);
    const got = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: ' UNIQUE-ONE\t' });
    expect(got.body.schedule.id).toBe(a.body.schedule.id);
    await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: a.body.schedule.id });
  });
});

test('§6.1 pinned: renaming the session changes nothing; the stored target holds its id and fires there', async ({ request }) => {
  const alias = `pinned-${Date.now().toString(36)}`;
  const session = await command(request, procedures, { engine: 'workflow_blobhub', command: 'create_session', alias });
  expect(session.status).toBe(200);
  const sessionId = session.body.session.id;
  const s = await command(request, scheduler, create(withTarget({ org: 'acme-corp', blob: 'procedures', revision: procedures, session: alias })));
  expect(s.status, JSON.stringify(s.body)).toBe(200);
  expect(s.body.schedule.invocation_target.target.session).toBe(sessionId);
  expect((await command(request, procedures, { engine: 'workflow_blobhub', command: 'update_session', session_id: sessionId, alias: `${alias}-renamed` })).status).toBe(200);
  const got = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: s.body.schedule.id });
  expect(got.body.schedule.invocation_target.target.session).toBe(sessionId);
  const run = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'run_schedule', schedule_id: s.body.schedule.id });
  expect(run.status).toBe(200);
  expect(run.body.execution.status).toBe('success');
  expect(run.body.execution.trigger).toBe('manual');
  expect(run.body.execution.result.session_id).toBe(sessionId);
  await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: s.body.schedule.id });
});

test('§3.1 20 concurrent run_schedule calls: 20 manual runs, each its own, and no 500', async ({ request }) => {
  const s = await command(request, scheduler, create(cron({ enabled: false })));
  const id = s.body.schedule.id;
  const answers = await Promise.all(Array.from({ length: 20 }, () => command(request, scheduler, { engine: 'scheduler_blobhub', command: 'run_schedule', schedule_id: id })));
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  const runs = answers.map((a) => a.body.execution as { id: string; trigger: string; scheduled_for: string });
  expect(new Set(runs.map((r) => r.id)).size).toBe(20);
  expect(new Set(runs.map((r) => r.scheduled_for)).size).toBe(20);
  expect(runs.every((r) => r.trigger === 'manual')).toBe(true);
  let listed = 0;
  let cursor: string | null = null;
  do {
    const page = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: id, ...(cursor ? { start_execution_id: cursor } : {}) });
    listed += page.body.executions.length;
    cursor = page.body.last_execution_id;
  } while (cursor);
  expect(listed).toBe(20);
  await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: id });
});

test('§3.1 list_executions pages 25 runs as 10, 10, 5, then last_execution_id null', async ({ request }) => {
  const s = await command(request, scheduler, create(cron({ enabled: false })));
  const id = s.body.schedule.id;
  const runIds: string[] = [];
  for (let i = 0; i < 25; i++) {
    const r = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'run_schedule', schedule_id: id });
    expect(r.status).toBe(200);
    runIds.push(r.body.execution.id);
  }
  const sizes: number[] = [];
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'list_executions', schedule_id: id, ...(cursor ? { start_execution_id: cursor } : {}) });
    expect(page.status).toBe(200);
    sizes.push(page.body.executions.length);
    seen.push(...page.body.executions.map((e: { id: string }) => e.id));
    cursor = page.body.last_execution_id;
  } while (cursor);
  expect(sizes).toEqual([10, 10, 5]);
  expect(seen).toEqual([...runIds].reverse()); // newest first, each exactly once
  await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: id });
});

test('§5.1 round trip: every field survives create → get → update → get', async ({ request }) => {
  const year = new Date().getUTCFullYear() + 1;
  const body = {
    alias: 'round-trip',
    description: 'Every field',
    repeat: 'one_time',
    invocation_time: `${year}-06-15T09:30:00`,
    timezone: 'Asia/Kathmandu',
    start_date: `${year}-01-01T00:00:00+01:00`,
    end_date: `${year}-12-31T00:00:00.000Z`,
    enabled: true,
    invocation_target_type: 'workflow',
    invocation_target: FOLLOWING_TARGET,
  };
  const c = await command(request, scheduler, create(body));
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  const s = c.body.schedule;
  expect(s).toMatchObject({
    alias: 'round-trip', description: 'Every field', repeat: 'one_time', invocation_time: `${year}-06-15T09:30:00`, timezone: 'Asia/Kathmandu',
    start_date: `${year - 1}-12-31T23:00:00.000Z`, end_date: `${year}-12-31T00:00:00.000Z`, enabled: true, state: 'active',
    invocation_target_type: 'workflow', invocation_target: FOLLOWING_TARGET, next_fire_at: `${year}-06-15T03:45:00.000Z`, skipped_occurrences: 0,
  });
  expect(s).not.toHaveProperty('cron_expression');
  expect(s.created_at).toMatch(/Z$/);
  const got = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: s.id });
  expect(got.body.schedule).toEqual(s);

  // Switching repeat needs the matching field …
  const refused = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'update_schedule', schedule_id: s.id, repeat: 'recurring_cron' });
  expect(refused.status).toBe(400);
  expect(refused.body.error.code).toBe('invalid_request_body');
  // … and with it, only the fields sent change.
  const u = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'update_schedule', schedule_id: 'round-trip', repeat: 'recurring_cron', cron_expression: '0 12 L * ? *', description: null });
  expect(u.status, JSON.stringify(u.body)).toBe(200);
  const after = (await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: s.id })).body.schedule;
  expect(after).toEqual(u.body.schedule);
  expect(after).not.toHaveProperty('invocation_time');
  expect(after).not.toHaveProperty('description');
  expect(after).toMatchObject({ alias: 'round-trip', repeat: 'recurring_cron', cron_expression: '0 12 L * ? *', timezone: 'Asia/Kathmandu', start_date: s.start_date, end_date: s.end_date, invocation_target: FOLLOWING_TARGET, created_at: s.created_at });
  expect(after.next_fire_at).toMatch(/T06:15:00\.000Z$/); // 12:00 in Kathmandu (+05:45)
  await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: s.id });
});

test('§5.3 a completed schedule is read-only (409 schedule_completed) and deletable', async ({ request }) => {
  const local = new Date(Date.now() + 3000).toISOString().slice(0, 19);
  const s = await command(request, scheduler, create({ repeat: 'one_time', invocation_time: local, timezone: 'UTC', invocation_target: FOLLOWING_TARGET }));
  expect(s.status).toBe(200);
  await expect
    .poll(async () => (await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: s.body.schedule.id })).body.schedule.state, { timeout: 30_000 })
    .toBe('completed');
  const u = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'update_schedule', schedule_id: s.body.schedule.id, description: 'x' });
  expect(u.status).toBe(409);
  expect(u.body.error.code).toBe('schedule_completed');
  const run = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'run_schedule', schedule_id: s.body.schedule.id });
  expect(run.status).toBe(409);
  expect((await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'delete_schedule', schedule_id: s.body.schedule.id })).status).toBe(200);
  const gone = await command(request, scheduler, { engine: 'scheduler_blobhub', command: 'get_schedule', schedule_id: s.body.schedule.id });
  expect(gone.status).toBe(404);
  expect(gone.body.error.code).toBe('schedule_not_found');
});

test('§3 transport errors: malformed JSON, unknown engine, wrong blob type, unknown revision', async ({ request }) => {
  const raw = await request.post(`/api/v1/revisions/${scheduler}/data`, { headers: { ...headers, 'content-type': 'application/json' }, data: '{"engine": "scheduler_blobhub",' });
  expect(raw.status()).toBe(400);
  expect((await raw.json()).error.code).toBe('invalid_request_body');
  const engine = await command(request, scheduler, { engine: 'nope', command: 'list_schedules' });
  expect(engine.status).toBe(400);
  expect(engine.body.error.code).toBe('unknown_command');
  const wrongType = await command(request, procedures, { engine: 'scheduler_blobhub', command: 'list_schedules' });
  expect(wrongType.status).toBe(400);
  expect(wrongType.body.error.code).toBe('unknown_command');
  const noCommand = await command(request, scheduler, { engine: 'scheduler_blobhub' });
  expect(noCommand.status).toBe(400);
  expect(noCommand.body.error).toMatchObject({ code: 'unknown_command', message: 'the body names no command for engine "scheduler_blobhub"' });
  const missing = await command(request, '8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e', { engine: 'scheduler_blobhub', command: 'list_schedules' });
  expect(missing.status).toBe(404);
  expect(missing.body.error.code).toBe('not_found');
});

test.describe('§9 limits (server with min interval 120 s and 3 schedules per scheduler)', () => {
  test('interval_too_short and schedule_limit_reached', async () => {
    const limited = await playwrightRequest.newContext({ baseURL: LIMITS_BASE_URL });
    const rev = await newScheduler(limited, 'limits-scheduler');
    const tooShort = await command(limited, rev, create(cron({ cron_expression: '* * * * ? *' })));
    expect(tooShort.status).toBe(400);
    expect(tooShort.body.error.code).toBe('interval_too_short');
    expect(await count(limited, rev)).toBe(0);
    const twoMinutes = await command(limited, rev, create(cron({ cron_expression: '0/2 * * * ? *' })));
    expect(twoMinutes.status).toBe(200);
    for (let i = 0; i < 2; i++) expect((await command(limited, rev, create(cron()))).status).toBe(200);
    const fourth = await command(limited, rev, create(cron()));
    expect(fourth.status).toBe(409);
    expect(fourth.body.error.code).toBe('schedule_limit_reached');
    expect(await count(limited, rev)).toBe(3);
    await limited.dispose();
  });
});
