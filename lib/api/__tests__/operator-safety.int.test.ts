/**
 * SPEC §15 through the product API's real request handler on a real database (SQLite, and PostgreSQL
 * with TEST_DATABASE=postgresql): `version` + `expected_version` (a stale one is 409 and writes
 * nothing), `client_token` on create (a retry answers the first result; another body is 409), and the
 * activity log (`list_activity` names who did each change, per schedule and per scheduler, and is
 * swept with the runs).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { RetentionSweep } from '../../schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';
import { errorResponse } from '../http';
import { handleRevisionCommand } from '../revision-command';

let db: Db;
let cleanup: () => Promise<void>;
let ctx: Awaited<ReturnType<typeof seed>>;
let user: Actor;
let orgKey: Actor;

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  ctx = await seed(db, undefined);
  user = { type: 'user', id: ctx.userId, roleCap: null };
  orgKey = { type: 'org', id: ctx.orgId, roleCap: 'write' };
});
afterAll(async () => cleanup());

const TARGET = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] };
const daily = (extra: Record<string, unknown> = {}) => ({ repeat: 'recurring_cron', cron_expression: '0 9 * * ? *', timezone: 'UTC', invocation_target: TARGET, ...extra });

/** One scheduler command as `actor`; the answer's status and JSON. */
async function sch(command: string, params: Record<string, unknown>, actor: Actor = user): Promise<{ status: number; body: any }> {
  const req = new Request(`http://127.0.0.1/api/v1/revisions/${ctx.schedulerRevisionId}/data`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ engine: 'scheduler_blobhub', command, ...params }),
  });
  let res: Response;
  try {
    res = await handleRevisionCommand(req, actor, ctx.schedulerRevisionId, { db, limits: TEST_LIMITS });
  } catch (e) {
    res = errorResponse(e);
  }
  return { status: res.status, body: await res.json() };
}

async function ok(command: string, params: Record<string, unknown>, actor: Actor = user): Promise<any> {
  const r = await sch(command, params, actor);
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  return r.body;
}

/** Entries are ordered by their instant: keep two changes out of one millisecond. */
const tick = () => new Promise((r) => setTimeout(r, 3));

describe('SPEC §15 version and expected_version', () => {
  it('each change increments version; a stale expected_version is 409 version_conflict and writes nothing', async () => {
    const { schedule } = await ok('create_schedule', daily({ alias: 'versioned-report', description: 'first' }));
    expect(schedule.version).toBe(1);
    const edited = (await ok('update_schedule', { schedule_id: schedule.id, expected_version: 1, description: 'second' })).schedule;
    expect([edited.version, edited.description]).toEqual([2, 'second']);
    const activityBefore = (await ok('list_activity', { schedule_id: schedule.id })).activity.length;

    // A second editor still holding version 1.
    const stale = await sch('update_schedule', { schedule_id: schedule.id, expected_version: 1, description: 'stale tab', cron_expression: '0 10 * * ? *' });
    expect([stale.status, stale.body.error.code, stale.body.error.path]).toEqual([409, 'version_conflict', 'expected_version']);
    expect(stale.body.error.message).toContain('version 2');
    const after = (await ok('get_schedule', { schedule_id: schedule.id })).schedule;
    expect(after).toEqual(edited);
    expect((await ok('list_activity', { schedule_id: schedule.id })).activity).toHaveLength(activityBefore);

    // A disable (update with enabled) and pause/resume all are changes too.
    expect((await ok('update_schedule', { schedule_id: schedule.id, expected_version: 2, enabled: false })).schedule.version).toBe(3);
    await ok('update_schedule', { schedule_id: schedule.id, enabled: true });
    await ok('set_all_enabled', { enabled: false });
    expect((await ok('get_schedule', { schedule_id: schedule.id })).schedule.version).toBe(5);
    await ok('set_all_enabled', { enabled: true });
    expect((await ok('get_schedule', { schedule_id: schedule.id })).schedule.version).toBe(6);

    // delete_schedule: stale → 409 and the schedule stays; current → deleted.
    const staleDelete = await sch('delete_schedule', { schedule_id: schedule.id, expected_version: 5 });
    expect([staleDelete.status, staleDelete.body.error.code]).toEqual([409, 'version_conflict']);
    expect((await ok('get_schedule', { schedule_id: schedule.id })).schedule.version).toBe(6);
    await ok('delete_schedule', { schedule_id: schedule.id, expected_version: 6 });
    expect((await sch('get_schedule', { schedule_id: schedule.id })).status).toBe(404);
  });

  it('a run now is not a change of the schedule: its version stays', async () => {
    const { schedule } = await ok('create_schedule', daily());
    await ok('run_schedule', { schedule_id: schedule.id });
    expect((await ok('get_schedule', { schedule_id: schedule.id })).schedule.version).toBe(1);
    await ok('delete_schedule', { schedule_id: schedule.id });
  });

  it('expected_version and client_token are checked for shape', async () => {
    const r = await sch('update_schedule', { schedule_id: 'no-such', expected_version: 'two' });
    expect([r.status, r.body.error.code, r.body.error.path]).toEqual([400, 'invalid_request_body', 'expected_version']);
    const t = await sch('create_schedule', daily({ client_token: 'x'.repeat(65) }));
    expect([t.status, t.body.error.code, t.body.error.path]).toEqual([400, 'invalid_request_body', 'client_token']);
    const v = await sch('update_schedule', { schedule_id: 'no-such', version: 3 });
    expect([v.status, v.body.error.code]).toEqual([400, 'invalid_request_body']);
  });
});

describe('SPEC §15 client_token on create_schedule', () => {
  const count = () => db.schedule.count({ where: { revisionId: ctx.schedulerRevisionId } });

  it('the same token and body twice is one schedule and one answer; another body is 409 client_token_reused', async () => {
    const before = await count();
    const body = daily({ alias: 'token-once', client_token: 'form-3f9a1c' });
    const first = await ok('create_schedule', body);
    const again = await ok('create_schedule', body);
    expect(again).toEqual(first);
    expect(await count()).toBe(before + 1);
    const other = await sch('create_schedule', daily({ alias: 'token-other', client_token: 'form-3f9a1c' }));
    expect([other.status, other.body.error.code, other.body.error.path]).toEqual([409, 'client_token_reused', 'client_token']);
    expect(await count()).toBe(before + 1);
    expect(await db.schedule.count({ where: { alias: 'token-other' } })).toBe(0);
    // Only the first create is in the activity log.
    const entries = (await ok('list_activity', { schedule_id: first.schedule.id })).activity;
    expect(entries.map((e: { action: string }) => e.action)).toEqual(['create']);
    // The token is the caller's: another caller's same token is another token.
    const byOrg = await ok('create_schedule', daily({ alias: 'token-org', client_token: 'form-3f9a1c' }), orgKey);
    expect(byOrg.schedule.id).not.toBe(first.schedule.id);
  });

  it('concurrent retries with one token create one schedule and all answer it', async () => {
    const before = await count();
    const body = daily({ description: 'double submit', client_token: 'form-concurrent-7' });
    const answers = await Promise.all(Array.from({ length: 6 }, () => sch('create_schedule', body)));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.schedule.id)).size).toBe(1);
    expect(await count()).toBe(before + 1);
  });
});

describe('SPEC §15 activity log: list_activity names who did each change', () => {
  it('create, edit, disable, enable, run now, pause all, resume all, delete', async () => {
    const { schedule } = await ok('create_schedule', daily({ alias: 'audited-report' }));
    await tick();
    await ok('update_schedule', { schedule_id: schedule.id, description: 'by the org key', cron_expression: '0 7 * * ? *' }, orgKey);
    await tick();
    await ok('update_schedule', { schedule_id: schedule.id, enabled: false });
    await tick();
    await ok('update_schedule', { schedule_id: schedule.id, enabled: true }, orgKey);
    await tick();
    const { execution } = await ok('run_schedule', { schedule_id: schedule.id });
    await tick();
    const paused = await ok('set_all_enabled', { enabled: false }, orgKey);
    await tick();
    await ok('set_all_enabled', { enabled: true });
    await tick();

    const mine = (await ok('list_activity', { schedule_id: 'audited-report' })).activity;
    const U = { type: 'user', id: ctx.userId };
    const O = { type: 'org', id: ctx.orgId };
    expect(mine.map((e: any) => [e.action, e.by, e.fields ?? null])).toEqual([
      ['run_now', U, null],
      ['enable', O, ['enabled']],
      ['disable', U, ['enabled']],
      ['update', O, ['description', 'cron_expression']],
      ['create', U, null],
    ]);
    expect(mine[0]).toMatchObject({ schedule_id: schedule.id, schedule_name: 'audited-report', execution_id: execution.id });

    await ok('delete_schedule', { schedule_id: schedule.id }, orgKey);
    // The schedule is gone; the scheduler's log keeps its entries, the delete first.
    expect((await sch('list_activity', { schedule_id: schedule.id })).status).toBe(404);
    const all = (await ok('list_activity', {})).activity;
    expect(all.slice(0, 8).map((e: any) => [e.action, e.by, e.schedule_id ?? null, e.count ?? null])).toEqual([
      ['delete', O, schedule.id, null],
      ['resume_all', U, null, paused.updated],
      ['pause_all', O, null, paused.updated],
      ['run_now', U, schedule.id, null],
      ['enable', O, schedule.id, null],
      ['disable', U, schedule.id, null],
      ['update', O, schedule.id, null],
      ['create', U, schedule.id, null],
    ]);
    expect(all[0].schedule_name).toBe('audited-report');
    expect(paused.updated).toBeGreaterThanOrEqual(1);
  });

  it('pages newest first, 20 a page, with last_activity_id', async () => {
    const { schedule } = await ok('create_schedule', daily());
    for (let i = 0; i < 21; i++) await ok('update_schedule', { schedule_id: schedule.id, description: `edit ${i}` });
    const first = await ok('list_activity', { schedule_id: schedule.id });
    expect(first.activity).toHaveLength(20);
    expect(first.last_activity_id).toBe(first.activity[19].id);
    const second = await ok('list_activity', { schedule_id: schedule.id, start_activity_id: first.last_activity_id });
    expect(second.activity.map((e: any) => e.action)).toEqual(['update', 'create']);
    expect(second.last_activity_id).toBeNull();
    const at = [...first.activity, ...second.activity].map((e: any) => Date.parse(e.at));
    expect(at).toEqual([...at].sort((a, b) => b - a));
    const bad = await sch('list_activity', { start_activity_id: 'not-an-entry' });
    expect([bad.status, bad.body.error.code]).toEqual([400, 'invalid_request_body']);
  });

  it('is swept with the runs: entries older than run_retention_days go', async () => {
    const held = await db.activityEntry.count({ where: { revisionId: ctx.schedulerRevisionId } });
    expect(held).toBeGreaterThan(0);
    const later = new Date(Date.now() + (TEST_LIMITS.runRetentionDays + 1) * 86_400_000);
    const sweep = new RetentionSweep({ db, runRetentionDays: TEST_LIMITS.runRetentionDays, executionRetentionDays: TEST_LIMITS.executionRetentionDays, maxBatch: 50 });
    sweep.start(later);
    while (!(await sweep.step()).done);
    expect(await db.activityEntry.count({ where: { revisionId: ctx.schedulerRevisionId } })).toBe(0);
  });
});
