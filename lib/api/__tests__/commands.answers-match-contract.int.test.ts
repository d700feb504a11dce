/**
 * Every answer the API sends matches its contract (SPEC §3): every command of both engines, driven
 * through the real request handler (`handleRevisionCommand`: JSON body, routing, access, the command
 * table, the error table) on a real database, has each 200 body checked with its command's answer
 * schema and each refusal with the error body schema. The schemas are strict, so a field the contract
 * does not declare fails too. The blob routes of SPEC §3.3 likewise.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { ErrorBodySchema } from '../../errors';
import { fireDue, SCHEDULER_COMMANDS, schedulerCommands } from '../../schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb } from '../../testing/test-db';
import { BLOB_ROUTES, WORKFLOW_COMMANDS, workflowCommands } from '../../workflows';
import { seed } from '../../../prisma/seed';
import { createBlobResponse, describeBlobResponse, listBlobsResponse } from '../discovery';
import { errorResponse } from '../http';
import { ENGINE_COMMANDS } from '../openapi';
import { handleRevisionCommand } from '../revision-command';

let db: Db;
let cleanup: () => Promise<void>;
let ctx: Awaited<ReturnType<typeof seed>>;
let operator: Actor;
/** Commands whose 200 answer was checked, with how many times. */
const checked = new Map<string, number>();

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  ctx = await seed(db, undefined);
  operator = { type: 'user', id: ctx.userId, roleCap: null };
});
afterAll(async () => cleanup());

/** `schema` accepts `body`, or the test fails naming what did not match. */
function expectMatches(schema: z.ZodType, body: unknown, what: string): void {
  const r = schema.safeParse(body);
  expect(r.success, `${what} does not match its contract:\n${r.success ? '' : z.prettifyError(r.error)}\n${JSON.stringify(body)}`).toBe(true);
}

/** The JSON of an answer, checked against `answer` (200) or the error body (any other status). */
async function checkedJson(res: Response, answer: z.ZodType, what: string): Promise<{ status: number; body: any }> {
  expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
  const body = await res.json();
  if (res.status === 200) {
    expectMatches(answer, body, what);
    checked.set(what, (checked.get(what) ?? 0) + 1);
  } else {
    expectMatches(ErrorBodySchema, body, `${what} (${res.status})`);
  }
  return { status: res.status, body };
}

/** POST one command to `revisionId` as `actor`, as the route handler does, and check the answer. */
async function command(revisionId: string, body: Record<string, unknown>, actor = operator): Promise<{ status: number; body: any }> {
  const req = new Request(`http://127.0.0.1/api/v1/revisions/${revisionId}/data`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let res: Response;
  try {
    res = await handleRevisionCommand(req, actor, revisionId, { db, limits: TEST_LIMITS });
  } catch (e) {
    res = errorResponse(e); // what the route's `withActor` does with a refusal
  }
  const engine = body.engine as keyof typeof ENGINE_COMMANDS;
  const contract = ENGINE_COMMANDS[engine]?.[body.command as string];
  return checkedJson(res, contract?.answer ?? z.never(), String(body.command));
}

/** A command that must succeed; returns its (checked) answer. */
async function ok(revisionId: string, body: Record<string, unknown>): Promise<any> {
  const r = await command(revisionId, body);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

const wf = (name: string, params: Record<string, unknown> = {}) => ({ engine: 'workflow_blobhub', command: name, ...params });
const sch = (name: string, params: Record<string, unknown> = {}) => ({ engine: 'scheduler_blobhub', command: name, ...params });
const TARGET = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [{ alias: 'ticket_window', value: { hours: 24 } }] };

describe('§3.2 workflow_blobhub answers match WORKFLOW_COMMANDS', () => {
  it('sessions, definitions and executions', async () => {
    const rev = ctx.proceduresRevisionId;
    const { session } = await ok(rev, wf('create_session', { alias: 'contract-session' }));
    await ok(rev, wf('create_session')); // no alias: the key is omitted
    await ok(rev, wf('get_session', { session_id: 'contract-session' }));
    await ok(rev, wf('update_session', { session_id: session.id, alias: 'contract-renamed' }));
    await ok(rev, wf('close_session', { session_id: 'contract-renamed' }));
    await ok(rev, wf('reopen_session', { session_id: session.id }));
    const sessions = await ok(rev, wf('list_sessions'));
    expect(sessions.sessions.length).toBeGreaterThanOrEqual(3);
    await ok(rev, wf('create_definition', { alias: 'contract-def', name: 'Contract', spec: { steps: [{ name: 'a' }], retries: null } }));
    await ok(rev, wf('update_definition', { definition_id: 'contract-def', name: 'Contract v2' }));
    await ok(rev, wf('list_definitions'));
    await ok(rev, wf('create_execution', { target: { session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: TARGET.input_data, description: 'by hand' }));
    await ok(rev, wf('create_execution', { target: { session: session.id }, workflow: { org: 'acme-corp', blob: 'procedures', definition: 'contract-def' }, input_data: [] }));
    await ok(rev, wf('list_workflow_executions'));
    await ok(rev, wf('list_workflow_executions', { session_id: session.id }));
    await ok(rev, wf('delete_session', { session_id: session.id }));
  });

  it('revisions: commit, branch, set default', async () => {
    const created = await checkedJson(
      await createBlobResponse(new Request('http://127.0.0.1/api/v1/orgs/acme-corp/blobs', { method: 'POST', body: JSON.stringify({ type: 'workflow', alias: 'contract-wf' }) }), operator, 'acme-corp', db),
      BLOB_ROUTES.create_blob.answer,
      'create_blob',
    );
    const first = created.body.default_revision_id as string;
    await ok(first, wf('create_session', { alias: 'branch-me' }));
    const committed = await ok(first, wf('commit_revision'));
    expect(committed.revision).toMatchObject({ state: 'committed', committed_at: expect.any(String) });
    const branched = await ok(first, wf('branch_revision'));
    expect(branched.revision).toMatchObject({ state: 'draft', parent_revision_id: first, is_default: false });
    const made = await ok(branched.revision.id, wf('set_default_revision'));
    expect(made.revision.is_default).toBe(true);
  });
});

describe('§3.1 scheduler_blobhub answers match SCHEDULER_COMMANDS', () => {
  it('create (and dry runs), get, update, list, run, list_executions, set_all_enabled, set_metrics_per_schedule, delete', async () => {
    const rev = ctx.schedulerRevisionId;
    const cron = { repeat: 'recurring_cron', cron_expression: '0 9 ? * MON-FRI *', timezone: 'Europe/Berlin', invocation_target: TARGET };
    const dry = await ok(rev, sch('create_schedule', { ...cron, alias: 'contract-cron', dry_run: true }));
    expect(dry).toMatchObject({ dry_run: true, schedule: { alias: 'contract-cron', state: 'active' } });
    const missing = await ok(rev, sch('create_schedule', { ...cron, alias: 'contract-cron', dry_run: true, invocation_target: { ...TARGET, target: { ...TARGET.target, session: 'Not-Yet-There' } } }));
    expect(missing.missing_session).toEqual({ revision_id: ctx.proceduresRevisionId, alias: 'not-yet-there' });
    const { schedule } = await ok(rev, sch('create_schedule', { ...cron, alias: 'contract-cron', description: 'contract check', start_date: '2030-01-01T00:00:00+01:00' }));
    const once = await ok(rev, sch('create_schedule', { repeat: 'one_time', invocation_time: '2031-06-01T09:00:00', timezone: 'Asia/Kolkata', invocation_target: { ...TARGET, target: { ...TARGET.target, revision: ctx.proceduresRevisionId } } }));
    expect(once.schedule.invocation_target.target.session).toMatch(/^[0-9a-f-]{36}$/); // pinned: rewritten to the session id
    await ok(rev, sch('get_schedule', { schedule_id: 'contract-cron' }));
    await ok(rev, sch('update_schedule', { schedule_id: schedule.id, description: 'changed', dry_run: true }));
    await ok(rev, sch('update_schedule', { schedule_id: schedule.id, description: null, enabled: false }));
    const page = await ok(rev, sch('list_schedules'));
    expect(page.schedules.map((s: { id: string }) => s.id)).toEqual(expect.arrayContaining([schedule.id, once.schedule.id]));
    await ok(rev, sch('list_schedules', { state: 'active', enabled: true }));
    const success = await ok(rev, sch('run_schedule', { schedule_id: schedule.id }));
    expect(success.execution).toMatchObject({ trigger: 'manual', status: 'success' });
    await ok(ctx.proceduresRevisionId, wf('close_session', { session_id: 'nightly-batch' }));
    const refused = await ok(rev, sch('run_schedule', { schedule_id: 'contract-cron' }));
    expect(refused.execution).toMatchObject({ status: 'invocation_error', result: { error: 'session_not_open' } });
    await ok(ctx.proceduresRevisionId, wf('reopen_session', { session_id: 'nightly-batch' }));
    const runs = await ok(rev, sch('list_executions', { schedule_id: schedule.id, include_schedule: true }));
    expect(runs.executions).toHaveLength(2);
    await ok(rev, sch('list_executions', { schedule_id: schedule.id, status: 'success' }));
    expect((await ok(rev, sch('set_all_enabled', { enabled: false }))).updated).toBeGreaterThanOrEqual(1);
    await ok(rev, sch('set_all_enabled', { enabled: true }));
    expect(await ok(rev, sch('set_metrics_per_schedule', { enabled: true }))).toEqual({ metrics_per_schedule: true });
    expect(await ok(rev, sch('set_metrics_per_schedule', { enabled: false }))).toEqual({ metrics_per_schedule: false });
    await ok(rev, sch('delete_schedule', { schedule_id: once.schedule.id }));
  });

  it('the §12 fields, paused, and the dead-letter commands: list, replay, dismiss', async () => {
    const rev = ctx.schedulerRevisionId;
    const rate = await ok(rev, sch('create_schedule', {
      repeat: 'recurring_rate', rate_expression: '15 minutes', timezone: 'UTC', invocation_target: TARGET,
      retry_policy: { maximum_retry_attempts: 3 }, dead_letter: { arn: 'arn:aws:sqs:us-east-1:123456789012:scheduler-dlq' },
      flexible_time_window: { mode: 'flexible', maximum_window_minutes: 5 }, action_after_completion: 'delete', pause_after_failures: 4,
      enabled: false, paused: { note: 'until the vendor is back' },
    }));
    expect(rate.schedule).toMatchObject({
      rate_expression: '15 minutes', retry_policy: { maximum_retry_attempts: 3, maximum_event_age_seconds: 86_400 },
      flexible_time_window: { mode: 'flexible', maximum_window_minutes: 5 }, action_after_completion: 'delete', pause_after_failures: 4,
      paused: { by: { type: 'user' }, note: 'until the vendor is back' },
    });
    const soon = new Date(Date.now() + 60_000);
    const at = soon.toISOString().slice(0, 19);
    const once = await ok(rev, sch('create_schedule', { repeat: 'one_time', invocation_time: at, timezone: 'UTC', invocation_target: TARGET, retry_policy: { maximum_retry_attempts: 0, maximum_event_age_seconds: 60 } }));
    await ok(ctx.proceduresRevisionId, wf('close_session', { session_id: 'nightly-batch' }));
    await fireDue({ db, now: new Date(soon.getTime() + 1000), limit: 100, limits: TEST_LIMITS });
    await ok(ctx.proceduresRevisionId, wf('reopen_session', { session_id: 'nightly-batch' }));
    const letters = await ok(rev, sch('list_dead_letters'));
    const letter = letters.dead_letters.find((d: { schedule_id: string }) => d.schedule_id === once.schedule.id);
    expect(letter).toMatchObject({ attempts: 1, exhausted: 'maximum_retry_attempts', status: 'invocation_error' });
    const replayed = await ok(rev, sch('replay_dead_letter', { dead_letter_id: letter.id }));
    expect(replayed.execution).toMatchObject({ trigger: 'manual', status: 'success', dead_letter_id: letter.id });
    await ok(rev, sch('dismiss_dead_letter', { dead_letter_id: letter.id }));
    expect((await ok(rev, sch('list_dead_letters'))).dead_letters.some((d: { id: string }) => d.id === letter.id)).toBe(false);
    // SPEC §15: the replay and the dismissal are in the schedule's activity, with the dead letter.
    const activity = (await ok(rev, sch('list_activity', { schedule_id: once.schedule.id }))).activity;
    expect(activity.slice(0, 2).map((e: { action: string; dead_letter_id?: string }) => [e.action, e.dead_letter_id])).toEqual([
      ['dismiss_dead_letter', letter.id],
      ['replay_dead_letter', letter.id],
    ]);
    await ok(rev, sch('delete_schedule', { schedule_id: rate.schedule.id }));
    await ok(rev, sch('delete_schedule', { schedule_id: once.schedule.id }));
  });

  it('the §18 backfill commands: backfill_schedule (and its dry run), get, list, cancel; catch_up on a schedule', async () => {
    const rev = ctx.schedulerRevisionId;
    const { schedule } = await ok(rev, sch('create_schedule', {
      alias: 'contract-backfill', repeat: 'recurring_cron', cron_expression: '* * * * ? *', timezone: 'UTC', invocation_target: TARGET,
      catch_up: { window_seconds: 600, mode: 'all', max_burst: 3 },
    }));
    expect(schedule.catch_up).toEqual({ window_seconds: 600, mode: 'all', max_burst: 3 });
    const to = new Date(Math.floor(Date.now() / 60_000) * 60_000 - 60_000);
    const range = { schedule_id: 'contract-backfill', from: new Date(to.getTime() - 30 * 60_000).toISOString(), to: to.toISOString() };
    expect(await ok(rev, sch('backfill_schedule', { ...range, dry_run: true }))).toMatchObject({ dry_run: true, total: 30 });
    const { backfill } = await ok(rev, sch('backfill_schedule', { ...range, max_concurrency: 2, order: 'newest_first', reprocess: 'all' }));
    expect(backfill).toMatchObject({ state: 'running', total: 30, fired: 0, order: 'newest_first' });
    await ok(rev, sch('get_backfill', { backfill_id: backfill.id }));
    expect((await ok(rev, sch('list_backfills', { schedule_id: schedule.id }))).backfills).toHaveLength(1);
    expect((await ok(rev, sch('cancel_backfill', { backfill_id: backfill.id }))).backfill.state).toBe('cancelled');
    const tooLarge = await command(rev, sch('backfill_schedule', { ...range, from: new Date(to.getTime() - 10_001 * 60_000).toISOString() }));
    expect([tooLarge.status, tooLarge.body.error.code]).toEqual([400, 'backfill_too_large']);
    await ok(rev, sch('delete_schedule', { schedule_id: schedule.id }));
  });

  it('the signing secret commands (admins): shown once, then its hint; a rotation shows the new one', async () => {
    const rev = ctx.schedulerRevisionId;
    const first = await ok(rev, sch('get_signing_secret'));
    expect(first.signing_secret).toMatchObject({ secret: expect.stringMatching(/^whsec_/), previous: [] });
    const again = await ok(rev, sch('get_signing_secret'));
    expect(again.signing_secret.secret).toBeUndefined();
    expect(again.signing_secret.hint).toBe(first.signing_secret.hint);
    const rotated = await ok(rev, sch('rotate_signing_secret'));
    expect(rotated.signing_secret.secret).not.toBe(first.signing_secret.secret);
    expect(rotated.signing_secret.previous).toHaveLength(1);
  });

  it('the alert commands (SPEC §17): rules on the scheduler and on a schedule, the alert log', async () => {
    const rev = ctx.schedulerRevisionId;
    const channel = await db.alertChannel.create({ data: { orgId: ctx.orgId, name: 'contract-hook', type: 'webhook', config: { url: 'https://hooks.example.com/x' }, sealed: {}, createdAt: new Date(), updatedAt: new Date() } });
    const made = await ok(rev, sch('create_alert_rule', { events: ['failure', 'recovered'], channels: [channel.id], failure_tolerance: 2, realert_interval_seconds: 600 }));
    expect(made.rule).toMatchObject({ events: ['failure', 'recovered'], failure_tolerance: 2, realert_interval_seconds: 600, channels: [{ id: channel.id, name: 'contract-hook', type: 'webhook' }] });
    const updated = await ok(rev, sch('update_alert_rule', { rule_id: made.rule.id, events: ['silence'], silence_seconds: 3600, realert_interval_seconds: null }));
    expect(updated.rule).toMatchObject({ events: ['silence'], silence_seconds: 3600 });
    expect(updated.rule.realert_interval_seconds).toBeUndefined();
    expect((await ok(rev, sch('list_alert_rules'))).rules.map((r: { id: string }) => r.id)).toContain(made.rule.id);
    expect(await ok(rev, sch('list_alerts'))).toEqual({ alerts: [], last_alert_id: null });
    expect((await command(rev, sch('create_alert_rule', { events: ['silence'], channels: [channel.id] }))).body.error).toMatchObject({ code: 'invalid_request_body', path: 'silence_seconds' });
    await ok(rev, sch('delete_alert_rule', { rule_id: made.rule.id }));
  });

  it('refusals answer the error body of SPEC §3', async () => {
    const rev = ctx.schedulerRevisionId;
    const cases: [Record<string, unknown>, number, string][] = [
      [sch('create_schedule', { repeat: 'recurring_cron', cron_expression: '0 9 ? * 8 *', timezone: 'UTC', invocation_target: TARGET }), 400, 'invalid_cron_expression'],
      [sch('create_schedule', { repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', invocation_target: { ...TARGET, workflow: { definition: 'no-such-definition' } }, dry_run: true }), 400, 'invalid_invocation_target'],
      [sch('update_schedule', { schedule_id: 'no-such-schedule', dry_run: 'yes' }), 400, 'invalid_request_body'],
      [sch('get_schedule', { schedule_id: 'no-such-schedule' }), 404, 'schedule_not_found'],
      [sch('launch_rockets'), 400, 'unknown_command'],
      [wf('get_session', { session_id: 'nightly-batch' }), 400, 'unknown_command'],
    ];
    for (const [body, status, code] of cases) {
      const r = await command(rev, body);
      expect([r.status, r.body.error.code], JSON.stringify(body)).toEqual([status, code]);
    }
    const missing = await command('8f14e45f-cee4-4b0b-8f8a-8e3b1a2c3d4e', sch('list_schedules'));
    expect(missing.body).toEqual({ error: { code: 'not_found', message: 'revision not found' } });
  });
});

describe('§3.3 blob routes answer BLOB_ROUTES', () => {
  it('list and describe', async () => {
    const list = await checkedJson(await listBlobsResponse(operator, 'acme-corp', db), BLOB_ROUTES.list_blobs.answer, 'list_blobs');
    expect(list.body.blobs.map((b: { alias?: string }) => b.alias)).toEqual(expect.arrayContaining(['ops-scheduler', 'procedures']));
    await checkedJson(await describeBlobResponse(operator, 'acme-corp', 'ops-scheduler', db), BLOB_ROUTES.describe_blob.answer, 'describe_blob');
  });
});

describe('coverage', () => {
  it('every command of both tables (and every blob route) had its answer checked', () => {
    // The handler tables are typed against the contract tables; at run time they hold the same names.
    expect(Object.keys(schedulerCommands)).toEqual(Object.keys(SCHEDULER_COMMANDS));
    expect(Object.keys(workflowCommands)).toEqual(Object.keys(WORKFLOW_COMMANDS));
    const all = [...Object.keys(SCHEDULER_COMMANDS), ...Object.keys(WORKFLOW_COMMANDS), ...Object.keys(BLOB_ROUTES)];
    expect(all.filter((c) => !checked.has(c))).toEqual([]);
  });
});
