/**
 * The scheduler's seam (SPEC §6, §8, §8.1) against a real SQLite catalog: every failure name is
 * produced by a real catalog change, never by a hand-made row.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../../db';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb, type TestDb } from '../../testing/test-db';
import {
  branchRevision,
  checkInvocationTarget,
  closeSession,
  commitRevision,
  createDefinition,
  createSession,
  createWorkflowBlob,
  deleteSession,
  embeddedGateway as gw,
  listWorkflowExecutions,
  reopenSession,
  setDefaultRevision,
  updateDefinition,
  type TargetRef,
} from '..';
import { makeWorld, T0, type World } from '../../testing/catalog-world';

let t: TestDb;
let db: Db;
let w: World;

beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
});
afterAll(() => t.cleanup());

beforeEach(async () => {
  // A clean catalog per test: delete in child → parent order (orgs cascade to blobs, revisions, …).
  await db.execution.deleteMany();
  await db.org.deleteMany();
  await db.user.deleteMany();
  w = await makeWorld(db);
});

const following: TargetRef = { org: 'acme-corp', blob: 'support-bot', revision: 'default', session: 'nightly-batch' };
const pinned = (): TargetRef => ({ blob: w.blobId, revision: w.revisionId, session: w.sessionId });

describe('§8 following target resolves afresh at every fire', () => {
  it('resolves blob alias → default revision → session alias, then a bare definition in it, and runs', async () => {
    const target = await gw.resolveTarget(db, w.writer, following, 'write');
    expect(target).toEqual({
      ok: true,
      blobId: w.blobId,
      orgId: w.org.id,
      revisionId: w.revisionId,
      sessionId: w.sessionId,
      pinned: false,
      revisionState: 'draft',
    });
    const workflow = await gw.resolveWorkflow(db, w.writer, { definition: 'TRIAGE ' }, w.revisionId);
    expect(workflow).toEqual({ ok: true, definitionId: w.definitionId, revisionId: w.revisionId, blobId: w.blobId });
    const created = await gw.createExecution(db, {
      actor: w.writer,
      revisionId: w.revisionId,
      sessionId: w.sessionId,
      definitionId: w.definitionId,
      inputData: [{ alias: 'ticket_window', value: { hours: 24 } }],
      description: 'nightly',
      scheduleId: '11111111-1111-4111-8111-111111111111',
      runId: '22222222-2222-4222-8222-222222222222',
      now: T0,
    }, TEST_LIMITS);
    expect(created.ok).toBe(true);
    const page = await listWorkflowExecutions(db, { actor: w.reader, revisionId: w.revisionId });
    expect(page.executions).toEqual([
      {
        id: created.ok ? created.executionId : '',
        revision_id: w.revisionId,
        session_id: w.sessionId,
        definition_id: w.definitionId,
        description: 'nightly',
        input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
        created_by: { type: 'user', id: w.writer.id },
        created_at: '2026-03-08T12:00:00.000Z',
        schedule_id: '11111111-1111-4111-8111-111111111111',
        run_id: '22222222-2222-4222-8222-222222222222',
      },
    ]);
  });

  it('§8.1 default_revision_committed: committing the default revision', async () => {
    await commitRevision(db, { actor: w.writer, revisionId: w.revisionId, now: T0 });
    expect(await gw.resolveTarget(db, w.writer, following, 'write')).toMatchObject({ ok: false, error: 'default_revision_committed' });
  });

  it('§8.1 target_not_found: deleting the target blob (following); a pinned target then reports session_not_found', async () => {
    await db.blob.delete({ where: { id: w.blobId } });
    expect(await gw.resolveTarget(db, w.writer, following, 'write')).toMatchObject({ ok: false, error: 'target_not_found' });
    expect(await gw.resolveTarget(db, w.writer, pinned(), 'write')).toMatchObject({ ok: false, error: 'session_not_found' });
  });

  it('§8.1 session_not_found: deleting the session (following and pinned)', async () => {
    await deleteSession(db, { actor: w.writer, revisionId: w.revisionId, session: 'nightly-batch' });
    expect(await gw.resolveTarget(db, w.writer, following, 'write')).toMatchObject({ ok: false, error: 'session_not_found' });
    expect(await gw.resolveTarget(db, w.writer, pinned(), 'write')).toMatchObject({ ok: false, error: 'session_not_found' });
  });

  it('§8.1 session_not_open: closing the session; reopening it resolves again', async () => {
    await closeSession(db, { actor: w.writer, revisionId: w.revisionId, session: w.sessionId });
    expect(await gw.resolveTarget(db, w.writer, following, 'write')).toMatchObject({ ok: false, error: 'session_not_open' });
    expect(await gw.resolveTarget(db, w.writer, pinned(), 'write')).toMatchObject({ ok: false, error: 'session_not_open' });
    await reopenSession(db, { actor: w.writer, revisionId: w.revisionId, session: 'nightly-batch' });
    expect(await gw.resolveTarget(db, w.writer, following, 'write')).toMatchObject({ ok: true, sessionId: w.sessionId });
  });

  it('§8.1 workflow_not_found: removing the definition alias (no fall back to the id)', async () => {
    await updateDefinition(db, { actor: w.writer, revisionId: w.revisionId, definition: 'triage', alias: null });
    expect(await gw.resolveWorkflow(db, w.writer, { definition: 'triage' }, w.revisionId)).toMatchObject({
      ok: false,
      error: 'workflow_not_found',
    });
    const qualified = { org: 'acme-corp', blob: 'support-bot', definition: 'triage' };
    expect(await gw.resolveWorkflow(db, w.writer, qualified, w.revisionId)).toMatchObject({ ok: false, error: 'workflow_not_found' });
  });

  it('§8.1 access_denied: removing the creator\'s membership (target needs write)', async () => {
    await db.membership.deleteMany({ where: { userId: w.writer.id } });
    expect(await gw.resolveTarget(db, w.writer, following, 'write')).toMatchObject({ ok: false, error: 'access_denied' });
    expect(await gw.resolveTarget(db, w.writer, pinned(), 'write')).toMatchObject({ ok: false, error: 'access_denied' });
    // A reader's standing does not reach a target either: write is needed.
    expect(await gw.resolveTarget(db, w.reader, following, 'write')).toMatchObject({ ok: false, error: 'access_denied' });
  });

  it('§8.1 access_denied: a qualified source blob the creator can no longer read', async () => {
    // A second org's blob holds the definition; the writer reads it through a blob grant.
    const globex = await db.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
    const globexAdmin = { type: 'org' as const, id: globex.id, roleCap: null };
    const source = await createWorkflowBlob(db, { actor: globexAdmin, org: 'globex-corp', alias: 'procedures', now: T0 });
    const def = await createDefinition(db, {
      actor: globexAdmin,
      revisionId: source.default_revision_id!,
      alias: 'escalate',
      name: 'Escalate',
      now: T0,
    });
    const grant = await db.blobGrant.create({ data: { blobId: source.id, granteeType: 'user', granteeId: w.writer.id, role: 'read' } });
    const ref = { org: 'globex-corp', blob: 'procedures', revision: 'default', definition: 'escalate' };
    expect(await gw.resolveWorkflow(db, w.writer, ref, w.revisionId)).toEqual({
      ok: true,
      definitionId: def.id,
      revisionId: source.default_revision_id,
      blobId: source.id,
    });
    await db.blobGrant.delete({ where: { id: grant.id } });
    expect(await gw.resolveWorkflow(db, w.writer, ref, w.revisionId)).toMatchObject({ ok: false, error: 'access_denied' });
  });

  it('§9 limit_exceeded: the per-session limit refuses at the limit and frees up after 60 s', async () => {
    // The caller's limits decide (the worker's or the API's), not the environment.
    const limits = { ...TEST_LIMITS, executionsPerSessionPerMinute: 3 };
    const request = (now: Date) => ({
      actor: w.writer,
      revisionId: w.revisionId,
      sessionId: w.sessionId,
      definitionId: w.definitionId,
      inputData: [],
      now,
    });
    for (let i = 0; i < 3; i++) expect((await gw.createExecution(db, request(new Date(T0.getTime() + i * 1000)), limits)).ok).toBe(true);
    const refused = await gw.createExecution(db, request(new Date(T0.getTime() + 59_000)), limits);
    expect(refused).toMatchObject({ ok: false, status: 'limit_exceeded', limit: 'workflow.executions_per_session_per_minute' });
    expect(refused).toMatchObject({ message: expect.stringContaining('workflow.executions_per_session_per_minute (3) reached') });
    expect(await db.execution.count()).toBe(3); // the refusal wrote nothing
    // Window is (now − 60 s, now]: at T0+60s the execution of T0 no longer counts.
    expect((await gw.createExecution(db, request(new Date(T0.getTime() + 60_000)), limits)).ok).toBe(true);
  });

  it('§8.1 invocation_failed: a pinned revision that is committed since; createExecution carries the refusal', async () => {
    await commitRevision(db, { actor: w.writer, revisionId: w.revisionId, now: T0 });
    const target = await gw.resolveTarget(db, w.writer, pinned(), 'write');
    expect(target).toMatchObject({ ok: true, pinned: true, revisionState: 'committed' });
    const created = await gw.createExecution(db, {
      actor: w.writer,
      revisionId: w.revisionId,
      sessionId: w.sessionId,
      definitionId: w.definitionId,
      inputData: [],
      now: T0,
    }, TEST_LIMITS);
    expect(created).toEqual({
      ok: false,
      status: 'invocation_error',
      error: 'invocation_failed',
      message: `revision ${w.revisionId} is committed; only a draft revision accepts writes and runs executions`,
    });
  });
});

describe('§1 branching and the default pointer', () => {
  it('branch copies definitions and sessions with NEW ids and the SAME aliases and states', async () => {
    await createSession(db, { actor: w.writer, revisionId: w.revisionId, alias: 'closed-one', now: T0 });
    await closeSession(db, { actor: w.writer, revisionId: w.revisionId, session: 'closed-one' });
    await commitRevision(db, { actor: w.writer, revisionId: w.revisionId, now: T0 });
    const branch = await branchRevision(db, { actor: w.writer, revisionId: w.revisionId, now: T0 });
    expect(branch).toMatchObject({ state: 'draft', is_default: false, parent_revision_id: w.revisionId, blob_id: w.blobId });
    const sessions = await db.workflowSession.findMany({ where: { revisionId: branch.id }, orderBy: { alias: 'asc' } });
    expect(sessions.map((s) => [s.alias, s.state])).toEqual([
      ['closed-one', 'closed'],
      ['nightly-batch', 'open'],
    ]);
    expect(sessions.map((s) => s.id)).not.toContain(w.sessionId);
    const defs = await db.definition.findMany({ where: { revisionId: branch.id } });
    expect(defs.map((d) => [d.alias, d.name, d.spec])).toEqual([['triage', 'Triage', { steps: 1 }]]);
    expect(defs[0].id).not.toBe(w.definitionId);
  });

  it('following moves to the new default after branch + set-default; pinned stays on its revision', async () => {
    await commitRevision(db, { actor: w.writer, revisionId: w.revisionId, now: T0 });
    const branch = await branchRevision(db, { actor: w.writer, revisionId: w.revisionId, now: T0 });
    // Until the default moves, a following target still sees the committed default.
    expect(await gw.resolveTarget(db, w.writer, following, 'write')).toMatchObject({ ok: false, error: 'default_revision_committed' });
    await setDefaultRevision(db, { actor: w.writer, revisionId: branch.id });
    const moved = await gw.resolveTarget(db, w.writer, following, 'write');
    const newSession = await db.workflowSession.findFirstOrThrow({ where: { revisionId: branch.id, alias: 'nightly-batch' } });
    expect(moved).toMatchObject({ ok: true, revisionId: branch.id, sessionId: newSession.id, pinned: false });
    const newDef = await db.definition.findFirstOrThrow({ where: { revisionId: branch.id, alias: 'triage' } });
    expect(await gw.resolveWorkflow(db, w.writer, { definition: 'triage' }, branch.id)).toMatchObject({ ok: true, definitionId: newDef.id });
    // The pinned target keeps the old revision and session ids.
    expect(await gw.resolveTarget(db, w.writer, pinned(), 'write')).toMatchObject({
      ok: true,
      revisionId: w.revisionId,
      sessionId: w.sessionId,
      pinned: true,
    });
  });

  it('a pinned revision id that is not the blob\'s is session_not_found, never a fall back', async () => {
    const other = await createWorkflowBlob(db, { actor: w.writer, org: 'acme-corp', alias: 'other-bot', now: T0 });
    const target = { blob: w.blobId, revision: other.default_revision_id!, session: w.sessionId };
    expect(await gw.resolveTarget(db, w.writer, target, 'write')).toMatchObject({ ok: false, error: 'session_not_found' });
    // An org given with a blob id must be that blob's org.
    await db.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
    expect(await gw.resolveTarget(db, w.writer, { ...pinned(), org: 'globex-corp' }, 'write')).toMatchObject({
      ok: false,
      error: 'session_not_found',
    });
  });
});

describe('§6.3 save-time check (checkInvocationTarget)', () => {
  it('accepts a pinned draft target with a session alias and returns the ids to store', async () => {
    const r = await checkInvocationTarget(gw, db, w.writer, {
      target: { blob: w.blobId, revision: w.revisionId, session: 'nightly-batch' },
      workflow: { definition: w.definitionId },
    });
    expect(r).toMatchObject({ ok: true, target: { sessionId: w.sessionId, pinned: true }, workflow: { definitionId: w.definitionId } });
  });

  it('refuses a pinned committed revision and a saver without write', async () => {
    expect(await checkInvocationTarget(gw, db, w.reader, { target: following, workflow: { definition: 'triage' } })).toMatchObject({
      ok: false,
      error: 'access_denied',
    });
    await commitRevision(db, { actor: w.writer, revisionId: w.revisionId, now: T0 });
    expect(await checkInvocationTarget(gw, db, w.writer, { target: pinned(), workflow: { definition: 'triage' } })).toMatchObject({
      ok: false,
      error: 'invocation_failed',
    });
  });
});
