/**
 * SPEC §8 / §8.1: what a fire records. One test per `status` and per `result.error` name, each produced
 * by a real change to the catalog between save and fire, against a real database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { createTestDb } from '../../testing/test-db';
import { branchRevision, closeSession, commitRevision, createDefinition, createSession, deleteSession, reopenSession, setDefaultRevision, updateDefinition } from '../../workflows';
import { seed } from '../../../prisma/seed';
import { createSchedule, fireOccurrence, runSchedule, toRun, type Run } from '..';
import { TEST_LIMITS } from '../../testing/limits';

const LIMITS = TEST_LIMITS;

let db: Db;
let cleanup: () => Promise<void>;
let ctx: Awaited<ReturnType<typeof seed>>;
let user: Actor;
let scheduler: { id: string; blobId: string };

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  ctx = await seed(db, undefined);
  user = { type: 'user', id: ctx.userId, roleCap: null };
  const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
  scheduler = { id: rev.id, blobId: rev.blobId };
});
afterAll(async () => cleanup());

/** A fresh workflow blob `alias` with a draft default revision, session `work-session`, definition `work-def`. */
async function freshWorkflow(alias: string) {
  const blob = await db.blob.create({ data: { orgId: ctx.orgId, alias, type: 'workflow', name: alias } });
  const revision = await db.revision.create({ data: { blobId: blob.id, state: 'draft' } });
  await db.blob.update({ where: { id: blob.id }, data: { defaultRevisionId: revision.id } });
  await createSession(db, { actor: user, revisionId: revision.id, alias: 'work-session' });
  await createDefinition(db, { actor: user, revisionId: revision.id, alias: 'work-def', name: 'Work' });
  return { blobId: blob.id, revisionId: revision.id };
}

const following = (blob: string) => ({
  target: { org: 'acme-corp', blob, revision: 'default', session: 'work-session' },
  workflow: { definition: 'work-def' },
  input_data: [{ alias: 'n', value: 1 }],
});

async function save(invocationTarget: object, description = 'fire result test') {
  return createSchedule({
    db, actor: user, revision: scheduler, limits: LIMITS, now: new Date(),
    input: { repeat: 'recurring_cron', cron_expression: '0 * * * ? *', timezone: 'UTC', description, invocation_target: invocationTarget },
  });
}

/** Fire the schedule's due occurrence as the worker would. */
async function fireNext(scheduleId: string): Promise<Run> {
  const row = await db.schedule.findUniqueOrThrow({ where: { id: scheduleId } });
  const out = await fireOccurrence({ db, scheduleId, scheduledFor: row.nextFireAt!, now: new Date(row.nextFireAt!.getTime() + 200), limits: LIMITS });
  expect(out.kind).toBe('fired');
  return toRun(await db.run.findFirstOrThrow({ where: { scheduleId }, orderBy: { createdAt: 'desc' } }));
}

describe('§8.1 run status and result', () => {
  it('success: the resolved ids, the description sent, the target as stored', async () => {
    const wf = await freshWorkflow('wf-success');
    const s = await save(following('wf-success'), 'nightly triage');
    const run = await fireNext(s.id);
    expect(run.status).toBe('success');
    const result = run.result as { execution_id: string; revision_id: string; session_id: string; definition_id: string };
    expect(result.revision_id).toBe(wf.revisionId);
    const execution = await db.execution.findUniqueOrThrow({ where: { id: result.execution_id } });
    expect(execution).toMatchObject({ description: 'nightly triage', sessionId: result.session_id, definitionId: result.definition_id, scheduleId: s.id, runId: run.id, createdByType: 'user', createdById: ctx.userId });
    expect(run.description).toBe('nightly triage');
    expect(run.invocation_target).toEqual(s.invocation_target);
    // The schedule advanced to its next occurrence and stays active.
    const row = await db.schedule.findUniqueOrThrow({ where: { id: s.id } });
    expect(row.nextFireAt!.getTime() - new Date(run.scheduled_for).getTime()).toBe(3_600_000);
  });

  it('default_revision_committed: the following target\'s default revision was committed', async () => {
    const wf = await freshWorkflow('wf-committed');
    const s = await save(following('wf-committed'));
    await commitRevision(db, { actor: user, revisionId: wf.revisionId });
    const run = await fireNext(s.id);
    expect(run.status).toBe('invocation_error');
    expect(run.result).toMatchObject({ error: 'default_revision_committed' });
    expect(await db.execution.count({ where: { scheduleId: s.id } })).toBe(0);
    // A refused fire does not stop a recurring schedule (SPEC §8).
    expect((await db.schedule.findUniqueOrThrow({ where: { id: s.id } })).state).toBe('active');
  });

  it('target_not_found: the target blob was deleted', async () => {
    const wf = await freshWorkflow('wf-deleted');
    const s = await save(following('wf-deleted'));
    await db.blob.delete({ where: { id: wf.blobId } });
    const run = await fireNext(s.id);
    expect(run.result).toMatchObject({ error: 'target_not_found' });
  });

  it('session_not_found: the session was deleted', async () => {
    const wf = await freshWorkflow('wf-nosession');
    const s = await save(following('wf-nosession'));
    await deleteSession(db, { actor: user, revisionId: wf.revisionId, session: 'work-session' });
    expect((await fireNext(s.id)).result).toMatchObject({ error: 'session_not_found' });
  });

  it('session_not_open: the session was closed; reopening makes the next fire succeed', async () => {
    const wf = await freshWorkflow('wf-closed');
    const s = await save(following('wf-closed'));
    await closeSession(db, { actor: user, revisionId: wf.revisionId, session: 'work-session' });
    expect((await fireNext(s.id)).result).toMatchObject({ error: 'session_not_open' });
    await reopenSession(db, { actor: user, revisionId: wf.revisionId, session: 'work-session' });
    expect((await fireNext(s.id)).status).toBe('success');
  });

  it('workflow_not_found: the definition alias was removed', async () => {
    const wf = await freshWorkflow('wf-nodef');
    const s = await save(following('wf-nodef'));
    await updateDefinition(db, { actor: user, revisionId: wf.revisionId, definition: 'work-def', alias: null });
    expect((await fireNext(s.id)).result).toMatchObject({ error: 'workflow_not_found' });
  });

  it('access_denied: the creator\'s membership was revoked; restoring it makes the next fire succeed', async () => {
    await freshWorkflow('wf-access');
    const s = await save(following('wf-access'));
    const membership = await db.membership.findUniqueOrThrow({ where: { userId_orgId: { userId: ctx.userId, orgId: ctx.orgId } } });
    await db.membership.delete({ where: { id: membership.id } });
    try {
      expect((await fireNext(s.id)).result).toMatchObject({ error: 'access_denied' });
    } finally {
      await db.membership.create({ data: { userId: ctx.userId, orgId: ctx.orgId, role: membership.role } });
    }
    expect((await fireNext(s.id)).status).toBe('success');
  });

  it('invocation_failed: create_execution refuses (the pinned revision was committed), with its message', async () => {
    const wf = await freshWorkflow('wf-pinned');
    const s = await save({ target: { org: 'acme-corp', blob: 'wf-pinned', revision: wf.revisionId, session: 'work-session' }, workflow: { definition: 'work-def' } });
    await commitRevision(db, { actor: user, revisionId: wf.revisionId });
    const run = await fireNext(s.id);
    expect(run.status).toBe('invocation_error');
    expect(run.result).toMatchObject({ error: 'invocation_failed' });
    expect((run.result as { message?: string }).message).toMatch(/committed|draft/);
  });

  it('limit_exceeded: the per-session limit refuses; the schedule keeps firing', async () => {
    const limits = { ...LIMITS, executionsPerSessionPerMinute: 2 };
    await freshWorkflow('wf-limit');
    const s = await save(following('wf-limit'));
    const now = new Date();
    const manual = [];
    for (let i = 0; i < 3; i++) manual.push(await runSchedule({ db, actor: user, revision: scheduler, scheduleRef: s.id, now: new Date(now.getTime() + i), limits }));
    expect(manual.map((r) => r.status)).toEqual(['success', 'success', 'limit_exceeded']);
    expect(manual[2].result).toMatchObject({ error: 'limit_exceeded', limit: 'workflow.executions_per_session_per_minute' });
    expect(manual[2].trigger).toBe('manual');
    expect((await db.schedule.findUniqueOrThrow({ where: { id: s.id } })).state).toBe('active');
  });

  it('20 concurrent run-nows in the same millisecond record 20 manual runs, 1 ms apart, none refused', async () => {
    await freshWorkflow('wf-burst');
    const s = await save(following('wf-burst'));
    const now = new Date(Date.UTC(2031, 0, 1, 12, 0, 0, 500));
    const limits = { ...LIMITS, executionsPerSessionPerMinute: 100 };
    const runs = await Promise.all(Array.from({ length: 20 }, () => runSchedule({ db, actor: user, revision: scheduler, scheduleRef: s.id, now, limits })));
    expect(runs.map((r) => r.status)).toEqual(Array(20).fill('success'));
    expect(new Set(runs.map((r) => r.id)).size).toBe(20);
    const stored = await db.run.findMany({ where: { scheduleId: s.id, trigger: 'manual' }, orderBy: { scheduledFor: 'asc' } });
    expect(stored.map((r) => r.scheduledFor.getTime() - now.getTime())).toEqual(Array.from({ length: 20 }, (_, i) => i));
    expect(new Set(stored.map((r) => r.createdAt.getTime()))).toEqual(new Set([now.getTime()]));
    // The next run-now a millisecond later still finds its slot after the burst.
    const after = await runSchedule({ db, actor: user, revision: scheduler, scheduleRef: s.id, now: new Date(now.getTime() + 1), limits });
    expect(Date.parse(after.scheduled_for) - now.getTime()).toBe(20);
  });

  it('internal_error: an unforeseen exception is recorded with its message', async () => {
    await freshWorkflow('wf-broken');
    const s = await save(following('wf-broken'));
    // Injected fault: a stored target the resolver cannot read.
    await db.schedule.update({ where: { id: s.id }, data: { invocationTarget: { target: null, workflow: null } } });
    const run = await fireNext(s.id);
    expect(run.status).toBe('invocation_error');
    expect(run.result).toMatchObject({ error: 'internal_error' });
    expect((run.result as { message?: string }).message).toBeTruthy();
  });
});

describe('§6 following vs pinned across a branch', () => {
  it('a following schedule fires into the new default revision after branch + set-default and runs whatever holds the alias; a pinned one keeps its revision', async () => {
    const wf = await freshWorkflow('wf-branch');
    const follow = await save(following('wf-branch'));
    const pinned = await save({ target: { org: 'acme-corp', blob: 'wf-branch', revision: wf.revisionId, session: 'work-session' }, workflow: { definition: 'work-def' } });
    await commitRevision(db, { actor: user, revisionId: wf.revisionId });
    const branch = await branchRevision(db, { actor: user, revisionId: wf.revisionId });
    await setDefaultRevision(db, { actor: user, revisionId: branch.id });
    // Move the alias to a different definition in the new draft.
    await updateDefinition(db, { actor: user, revisionId: branch.id, definition: 'work-def', alias: 'old-work-def' });
    const newDef = await createDefinition(db, { actor: user, revisionId: branch.id, alias: 'work-def', name: 'New work' });

    const f = await fireNext(follow.id);
    expect(f.status).toBe('success');
    expect(f.result).toMatchObject({ revision_id: branch.id, definition_id: newDef.id });
    const p = await fireNext(pinned.id);
    // The pinned target still points at the (now committed) original revision: create_execution refuses.
    expect(p.result).toMatchObject({ error: 'invocation_failed' });
    expect((await db.schedule.findUniqueOrThrow({ where: { id: pinned.id } })).invocationTarget).toMatchObject({ target: { revision: wf.revisionId } });
  });
});
