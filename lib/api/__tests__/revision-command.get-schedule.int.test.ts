/**
 * `get_schedule` through the product API's request handler (SPEC §3, §3.1) on a real database (SQLite,
 * and PostgreSQL with TEST_DATABASE=postgresql). The router answers it in one statement that checks
 * the revision itself before it resolves the revision (docs/decisions.md 439); every other case takes
 * the command's usual path. Both must give the answers and refusals, in their order, the route always
 * gave: the schedule for a reader; `404 not_found` for a revision that is missing, malformed or
 * unreadable (before any parameter is looked at); `400 unknown_command` for a workflow revision or the
 * other engine; `400 invalid_request_body` for bad parameters; `404 schedule_not_found` for a reader
 * asking for a schedule that is not in this revision.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seed } from '../../../prisma/seed';
import type { Actor } from '../../auth';
import { getSchedule, schedulerDirectReads } from '../../schedules';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { errorResponse } from '../http';
import { handleRevisionCommand } from '../revision-command';

let t: TestDb;
let revisionId: string;
let workflowRevisionId: string;
let scheduleId: string;
let otherRevisionId: string;
let otherScheduleId: string;
let strayScheduleId: string;
const actors: Record<string, Actor> = {};

beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, undefined, 'get-schedule-route-password-1');
  revisionId = ctx.schedulerRevisionId;
  workflowRevisionId = ctx.proceduresRevisionId;
  const target = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } };
  const createdBy = { type: 'org' as const, id: ctx.orgId };
  [scheduleId] = await insertSchedules(t.db, [{ revisionId, alias: 'nightly', createdBy, invocationTarget: target, nextFireAt: new Date('2030-01-01T00:00:00Z'), description: 'Nightly' }]);
  const blob = await t.db.blob.create({ data: { orgId: ctx.orgId, type: 'scheduler', name: 'other', alias: 'other-scheduler' } });
  otherRevisionId = (await t.db.revision.create({ data: { blobId: blob.id, state: 'managed' } })).id;
  [otherScheduleId] = await insertSchedules(t.db, [{ revisionId: otherRevisionId, createdBy, invocationTarget: target, nextFireAt: null }]);
  // A schedule row under a WORKFLOW revision (no command makes one): the one-statement read must still
  // refuse the scheduler engine on a workflow revision, as the router's blob-type check does.
  [strayScheduleId] = await insertSchedules(t.db, [{ revisionId: workflowRevisionId, alias: 'stray-one', createdBy, invocationTarget: target, nextFireAt: null }]);
  const stranger = await t.db.user.create({ data: { email: 'stranger@example.test', name: 'Stranger' } });
  const granted = await t.db.user.create({ data: { email: 'granted@example.test', name: 'Granted' } });
  await t.db.blobGrant.create({ data: { blobId: (await t.db.revision.findUniqueOrThrow({ where: { id: revisionId } })).blobId, granteeType: 'user', granteeId: granted.id, role: 'read' } });
  actors.org = { type: 'org', id: ctx.orgId, roleCap: 'write' };
  actors.orgRead = { type: 'org', id: ctx.orgId, roleCap: 'read' };
  actors.operator = { type: 'user', id: ctx.userId, roleCap: null };
  actors.granted = { type: 'user', id: granted.id, roleCap: 'read' };
  actors.stranger = { type: 'user', id: stranger.id, roleCap: null };
});
afterAll(() => t.cleanup());

/** One request to the route as `actor`: its status and JSON. */
async function post(actor: Actor, revision: string, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  const req = new Request(`http://127.0.0.1/api/v1/revisions/${encodeURIComponent(revision)}/data`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let res: Response;
  try {
    res = await handleRevisionCommand(req, actor, revision, { db: t.db, limits: TEST_LIMITS });
  } catch (e) {
    res = errorResponse(e);
  }
  return { status: res.status, body: await res.json() };
}
const get = (actor: Actor, revision: string, params: Record<string, unknown>) => post(actor, revision, { engine: 'scheduler_blobhub', command: 'get_schedule', ...params });
const refusal = (r: { status: number; body: any }) => [r.status, r.body.error?.code, r.body.error?.path];

describe('get_schedule through the route', () => {
  it('answers the stored schedule to every reader, by id or alias, the revision id as sent (trimmed, any case)', async () => {
    const revision = await t.db.revision.findUniqueOrThrow({ where: { id: revisionId }, select: { id: true, blobId: true } });
    const expected = JSON.parse(JSON.stringify(await getSchedule({ db: t.db, actor: actors.org, revision, scheduleRef: scheduleId })));
    expect(expected).toMatchObject({ id: scheduleId, alias: 'nightly', description: 'Nightly' });
    for (const name of ['org', 'orgRead', 'operator', 'granted']) {
      for (const revision of [revisionId, ` ${revisionId.toUpperCase()} `]) {
        for (const ref of [scheduleId, ` ${scheduleId.toUpperCase()} `, 'NIGHTLY']) {
          const r = await get(actors[name], revision, { schedule_id: ref });
          expect([r.status, r.body], `${name} ${revision} ${ref}`).toEqual([200, { schedule: expected }]);
        }
      }
    }
    expect((await get(actors.org, otherRevisionId, { schedule_id: otherScheduleId })).body.schedule.id).toBe(otherScheduleId);
  });

  it('refuses a missing, malformed or unreadable revision with 404 not_found before it looks at the parameters', async () => {
    const cases: [Actor, string, Record<string, unknown>][] = [
      [actors.stranger, revisionId, { schedule_id: scheduleId }],
      [actors.stranger, revisionId, { schedule_id: 'no-such-alias' }],
      [actors.stranger, revisionId, {}],
      [actors.granted, otherRevisionId, { schedule_id: otherScheduleId }],
      [actors.org, randomUUID(), { schedule_id: scheduleId }],
      [actors.org, randomUUID(), { schedule_id: 5 }],
      [actors.org, 'not-a-revision-id', { schedule_id: scheduleId }],
    ];
    for (const [actor, revision, params] of cases) {
      const r = await get(actor, revision, params);
      expect(r, JSON.stringify(params)).toEqual({ status: 404, body: { error: { code: 'not_found', message: 'revision not found' } } });
    }
  });

  it('answers 400 unknown_command for a workflow revision (even with a schedule row under it) and for the other engine', async () => {
    const onWorkflow = await get(actors.org, workflowRevisionId, { schedule_id: strayScheduleId });
    expect(refusal(onWorkflow)).toEqual([400, 'unknown_command', 'engine']);
    expect(onWorkflow.body.error.message).toBe('engine "scheduler_blobhub" does not apply to a workflow revision');
    const otherEngine = await post(actors.org, revisionId, { engine: 'workflow_blobhub', command: 'get_schedule', schedule_id: scheduleId });
    expect(refusal(otherEngine)).toEqual([400, 'unknown_command', 'engine']);
  });

  it('answers 400 invalid_request_body for parameters the command refuses, on a readable revision', async () => {
    expect(refusal(await get(actors.org, revisionId, {}))).toEqual([400, 'invalid_request_body', 'schedule_id']);
    expect(refusal(await get(actors.org, revisionId, { schedule_id: 7 }))).toEqual([400, 'invalid_request_body', 'schedule_id']);
    const extra = await get(actors.org, revisionId, { schedule_id: scheduleId, include_runs: true });
    expect([extra.status, extra.body.error?.code]).toEqual([400, 'invalid_request_body']);
  });

  it('answers 404 schedule_not_found to a reader for a schedule not in this revision', async () => {
    for (const ref of [randomUUID(), 'no-such-alias', otherScheduleId, strayScheduleId]) {
      expect(refusal(await get(actors.org, revisionId, { schedule_id: ref })), ref).toEqual([404, 'schedule_not_found', 'schedule_id']);
    }
  });
  it('answers a reader from the direct read alone, and leaves every refusal to the usual path (null)', async () => {
    const direct = (actor: Actor, revision: string, params: Record<string, unknown>) => schedulerDirectReads.get_schedule!({ db: t.db, actor, revisionId: revision, params });
    for (const name of ['org', 'orgRead', 'operator', 'granted']) {
      expect((await direct(actors[name], ` ${revisionId.toUpperCase()} `, { schedule_id: 'Nightly' }))?.schedule, name).toMatchObject({ id: scheduleId, alias: 'nightly' });
    }
    const misses: [Actor, string, Record<string, unknown>][] = [
      [actors.stranger, revisionId, { schedule_id: scheduleId }],
      [actors.granted, otherRevisionId, { schedule_id: otherScheduleId }],
      [actors.org, randomUUID(), { schedule_id: scheduleId }],
      [actors.org, 'not-a-revision-id', { schedule_id: scheduleId }],
      [actors.org, workflowRevisionId, { schedule_id: strayScheduleId }],
      [actors.org, revisionId, {}],
      [actors.org, revisionId, { schedule_id: scheduleId, include_runs: true }],
      [actors.org, revisionId, { schedule_id: otherScheduleId }],
      [actors.org, revisionId, { schedule_id: 'no-such-alias' }],
    ];
    for (const [actor, revision, params] of misses) expect(await direct(actor, revision, params), `${revision} ${JSON.stringify(params)}`).toBeNull();
  });
});
