/**
 * Confirmations that name consequences (issue "Operator safety"): which schedules a catalog change
 * affects, and how. The oracle is the fire path itself: after each change is made, Run now on every
 * predicted schedule records exactly the predicted `result.error` (or success). Real SQLite /
 * PostgreSQL; schedules are inserted as stored (refs as written, any case and whitespace).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb } from '../../testing/test-db';
import {
  branchRevision,
  closeSession,
  commitRevision,
  createDefinition,
  createSchedulerBlob,
  createSession,
  createWorkflowBlob,
  deleteBlob,
  deleteSession,
  setDefaultRevision,
} from '../../workflows';
import { makeOrg, makeUser, makeWorld, T0, type World } from '../../testing/catalog-world';
import { blobDeleteImpact, revisionChangeImpacts, sessionDeleteImpacts, type ScheduleImpact } from '../read/catalog-impact';
import { runSchedule } from '../runs/run-schedule';

let db: Db;
let cleanup: () => Promise<void>;
let w: World;
let admin: Actor;
let ops: { id: string; blobId: string };
const ids: Record<string, string> = {};

/** `{label: outcome}` of an impact, for exact comparison. */
function summary(impact: ScheduleImpact | undefined) {
  expect(impact).toBeDefined();
  return {
    schedules: Object.fromEntries(
      impact!.schedules.map((s) => [s.label, `${s.aim} ${s.outcome.kind === 'fails' ? `fails ${s.outcome.error}` : s.outcome.kind}${s.enabled ? '' : ' (disabled)'}`]),
    ),
    hidden: impact!.hidden,
  };
}

/** Run now on `label`'s schedule: its run's `result.error`, or `success`. */
async function fire(label: string): Promise<string> {
  const run = await runSchedule({ db, actor: w.writer, revision: ops, scheduleRef: ids[label], now: new Date(), limits: TEST_LIMITS });
  return run.status === 'success' ? 'success' : (run.result as { error: string }).error;
}

beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  w = await makeWorld(db);
  admin = await makeUser(db, 'admin@example.test', w.org.id, 'admin');
  // A second session in the default revision, and a blob whose alias contains "support-bot".
  await createSession(db, { actor: w.writer, revisionId: w.revisionId, alias: 'weekly-batch', now: T0 });
  const other = await createWorkflowBlob(db, { actor: w.writer, org: 'acme-corp', alias: 'support-bot-2', now: T0 });
  await createSession(db, { actor: w.writer, revisionId: other.default_revision_id!, alias: 'nightly-batch', now: T0 });
  await createDefinition(db, { actor: w.writer, revisionId: other.default_revision_id!, alias: 'triage', name: 'Triage', spec: {}, now: T0 });

  const scheduler = await createSchedulerBlob(db, { actor: w.writer, org: 'acme-corp', alias: 'ops-sched', now: T0 });
  ops = { id: scheduler.default_revision_id!, blobId: scheduler.id };
  const by = { type: 'user' as const, id: w.writer.id };
  const target = (t: Record<string, string>, workflow: Record<string, string> = { definition: 'triage' }) => ({ target: t, workflow, input_data: [] });
  const fixtures = {
    // Following the default, refs as written (case and whitespace), org by alias.
    following: target({ org: ' ACME-CORP', blob: 'Support-Bot ', revision: 'DEFAULT', session: 'nightly-batch' }),
    // Following by blob id, no org; disabled.
    'by-id-disabled': target({ blob: w.blobId, revision: 'default', session: 'nightly-batch' }),
    // Pinned to the default revision's session (stored as its id).
    pinned: target({ org: 'acme-corp', blob: 'support-bot', revision: w.revisionId, session: w.sessionId }),
    // Following another session alias of the same blob.
    weekly: target({ org: 'acme-corp', blob: 'support-bot', revision: 'default', session: 'weekly-batch' }),
    // Aims at support-bot-2, runs support-bot's default "triage": only its workflow names the blob.
    'workflow-only': target({ org: 'acme-corp', blob: 'support-bot-2', revision: 'default', session: 'nightly-batch' }, { org: 'acme-corp', blob: 'support-bot', definition: 'triage' }),
    // support-bot-2 only: caught by the loose pre-filter ("support-bot" is in "support-bot-2"), then left out.
    unrelated: target({ org: 'acme-corp', blob: 'support-bot-2', revision: 'default', session: 'nightly-batch' }),
    // Completed: never fires again, never affected.
    completed: target({ org: 'acme-corp', blob: 'support-bot', revision: 'default', session: 'nightly-batch' }),
  };
  const labels = Object.keys(fixtures) as (keyof typeof fixtures)[];
  const made = await insertSchedules(
    db,
    labels.map((alias) => ({ revisionId: ops.id, alias, createdBy: by, invocationTarget: fixtures[alias], nextFireAt: new Date('2030-01-01T00:00:00Z'), enabled: alias !== 'by-id-disabled' })),
  );
  labels.forEach((l, i) => (ids[l] = made[i]));
  await db.schedule.update({ where: { id: ids.completed }, data: { state: 'completed', nextFireAt: null } });

  // Another org's scheduler aims at support-bot too: the writer cannot read it.
  const globex = await makeOrg(db, 'globex-corp');
  const globexAdmin = await makeUser(db, 'g@example.test', globex.id, 'admin');
  const foreign = await createSchedulerBlob(db, { actor: globexAdmin, org: 'globex-corp', alias: 'globex-sched', now: T0 });
  await insertSchedules(db, [
    { revisionId: foreign.default_revision_id!, alias: 'foreign', createdBy: { type: 'user', id: globexAdmin.id }, invocationTarget: fixtures.following, nextFireAt: null },
  ]);
});
afterAll(async () => cleanup());

describe('the consequences named, then checked by firing', () => {
  it('delete session: schedules following its alias in the default revision, and those pinned to it', async () => {
    const impacts = await sessionDeleteImpacts(db, { actor: w.writer, revisionId: w.revisionId });
    expect(summary(impacts.get(w.sessionId))).toEqual({
      schedules: { following: 'following fails session_not_found', 'by-id-disabled': 'following fails session_not_found (disabled)', pinned: 'pinned fails session_not_found' },
      hidden: 1,
    });
    const weekly = [...impacts.entries()].find(([id]) => id !== w.sessionId)!;
    expect(summary(weekly[1])).toEqual({ schedules: { weekly: 'following fails session_not_found' }, hidden: 0 });
  });

  it('commit the default revision: following schedules fail default_revision_committed, pinned ones invocation_failed', async () => {
    const impacts = await revisionChangeImpacts(db, { actor: w.writer, blobId: w.blobId });
    expect(summary(impacts.get(w.revisionId)?.commit)).toEqual({
      schedules: {
        following: 'following fails default_revision_committed',
        'by-id-disabled': 'following fails default_revision_committed (disabled)',
        pinned: 'pinned fails invocation_failed',
        weekly: 'following fails default_revision_committed',
      },
      hidden: 1,
    });
    // The current default: Set as default changes nothing.
    expect(summary(impacts.get(w.revisionId)?.setDefault)).toEqual({ schedules: {}, hidden: 0 });

    await commitRevision(db, { actor: w.writer, revisionId: w.revisionId });
    expect(await fire('following')).toBe('default_revision_committed');
    expect(await fire('weekly')).toBe('default_revision_committed');
    expect(await fire('pinned')).toBe('invocation_failed');
    expect(await fire('workflow-only')).toBe('success');
    expect(await fire('unrelated')).toBe('success');
  });

  it('set a new draft as default: following schedules fire into it (or fail where it lacks their session), workflow references run its definitions', async () => {
    const branch = await branchRevision(db, { actor: w.writer, revisionId: w.revisionId });
    const copies = await db.workflowSession.findMany({ where: { revisionId: branch.id } });
    await deleteSession(db, { actor: w.writer, revisionId: branch.id, session: 'weekly-batch' });
    const impacts = await revisionChangeImpacts(db, { actor: w.writer, blobId: w.blobId });
    const setDefault = impacts.get(branch.id)!.setDefault;
    expect(summary(setDefault)).toEqual({
      schedules: {
        following: 'following fires_into',
        'by-id-disabled': 'following fires_into (disabled)',
        weekly: 'following fails session_not_found',
        'workflow-only': 'workflow runs_definition',
      },
      hidden: 1,
    });
    const nightlyCopy = copies.find((s) => s.alias === 'nightly-batch')!;
    expect(setDefault.schedules.find((s) => s.label === 'following')!.outcome).toEqual({ kind: 'fires_into', sessionId: nightlyCopy.id });
    // A committed revision cannot be a good default: following schedules would fail.
    expect(summary(impacts.get(w.revisionId)!.setDefault).schedules).toEqual({});
    expect(summary(impacts.get(branch.id)!.commit).schedules).toEqual({});

    await setDefaultRevision(db, { actor: w.writer, revisionId: branch.id });
    expect(await fire('following')).toBe('success');
    expect(await fire('weekly')).toBe('session_not_found');
    expect(await fire('workflow-only')).toBe('success');
    expect(await fire('pinned')).toBe('invocation_failed');

    // Back to the committed one: its Set as default now names the failures.
    const again = await revisionChangeImpacts(db, { actor: w.writer, blobId: w.blobId });
    expect(summary(again.get(w.revisionId)!.setDefault)).toEqual({
      schedules: {
        following: 'following fails default_revision_committed',
        'by-id-disabled': 'following fails default_revision_committed (disabled)',
        weekly: 'following fails default_revision_committed',
        'workflow-only': 'workflow runs_definition',
      },
      hidden: 1,
    });
    // A closed session in the new default is named as such.
    await closeSession(db, { actor: w.writer, revisionId: branch.id, session: 'nightly-batch' });
    await setDefaultRevision(db, { actor: w.writer, revisionId: w.revisionId });
    const closed = await revisionChangeImpacts(db, { actor: w.writer, blobId: w.blobId });
    expect(summary(closed.get(branch.id)!.setDefault).schedules.following).toBe('following fails session_not_open');
    await setDefaultRevision(db, { actor: w.writer, revisionId: branch.id });
    expect(await fire('following')).toBe('session_not_open');
  });

  it('delete the blob: every schedule aiming at it fails, by how it aims; only an admin may delete it', async () => {
    expect(summary(await blobDeleteImpact(db, { actor: w.writer, blobId: w.blobId }))).toEqual({
      schedules: {
        following: 'following fails target_not_found',
        'by-id-disabled': 'following fails target_not_found (disabled)',
        pinned: 'pinned fails session_not_found',
        weekly: 'following fails target_not_found',
        'workflow-only': 'workflow fails workflow_not_found',
      },
      hidden: 1,
    });
    await expect(deleteBlob(db, { actor: w.writer, blobId: w.blobId })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(deleteBlob(db, { actor: w.stranger, blobId: w.blobId })).rejects.toMatchObject({ code: 'not_found' });
    await expect(blobDeleteImpact(db, { actor: w.stranger, blobId: w.blobId })).rejects.toMatchObject({ code: 'not_found' });
    expect(await deleteBlob(db, { actor: admin, blobId: w.blobId })).toEqual({ type: 'workflow', name: 'support-bot' });
    expect(await db.revision.count({ where: { blobId: w.blobId } })).toBe(0);
    expect(await fire('following')).toBe('target_not_found');
    expect(await fire('pinned')).toBe('session_not_found');
    expect(await fire('workflow-only')).toBe('workflow_not_found');
    expect(await fire('unrelated')).toBe('success');
  });

  it('deleting a scheduler blob takes its schedules and their runs with it', async () => {
    const before = await db.run.count({ where: { scheduleId: ids.following } });
    expect(before).toBeGreaterThan(0);
    await deleteBlob(db, { actor: admin, blobId: ops.blobId });
    expect(await db.schedule.count({ where: { revisionId: ops.id } })).toBe(0);
    expect(await db.run.count({ where: { scheduleId: ids.following } })).toBe(0);
  });
});
