/**
 * The `workflow_blobhub` commands (SPEC §3.2) and the blob handlers (SPEC §3.3) against real SQLite:
 * strict bodies, alias grammar, access, draft-only writes, create_execution by reference, paging.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CommandContext } from '../command-context';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { createBlobHandler, getBlobHandler, listBlobsHandler, workflowCommands as cmd } from '..';
import { makeUser, makeWorld, T0, type World } from '../../testing/catalog-world';

let t: TestDb;
let db: Db;
let w: World;

beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
});
afterAll(() => t.cleanup());

beforeEach(async () => {
  await db.execution.deleteMany();
  await db.org.deleteMany();
  await db.user.deleteMany();
  w = await makeWorld(db);
});

function ctx(actor: Actor, params: Record<string, unknown>, revisionId = w.revisionId, now = T0): CommandContext {
  return { db, actor, revision: { id: revisionId, blobId: w.blobId, orgId: w.org.id, state: 'draft' }, params, limits: TEST_LIMITS, now };
}

describe('§3.2 sessions', () => {
  it('create_session answers the session with its alias; a session without alias omits the key', async () => {
    const { session } = await cmd.create_session(ctx(w.writer, { alias: 'daily_report' }));
    expect(session).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      alias: 'daily_report',
      revision_id: w.revisionId,
      state: 'open',
      created_at: '2026-03-08T12:00:00.000Z',
      updated_at: '2026-03-08T12:00:00.000Z',
    });
    const bare = (await cmd.create_session(ctx(w.writer, {}))).session as Record<string, unknown>;
    expect('alias' in bare).toBe(false);
  });

  it('§4 alias grammar → 400 invalid_alias; a taken alias → 409 alias_taken', async () => {
    for (const alias of ['main', 'Primary', '00000000-0000-0000-0000-000000000000', 'has space!']) {
      await expect(cmd.create_session(ctx(w.writer, { alias }))).rejects.toMatchObject({ code: 'invalid_alias', path: 'alias' });
    }
    await expect(cmd.create_session(ctx(w.writer, { alias: 'nightly-batch' }))).rejects.toMatchObject({ code: 'alias_taken', status: 409 });
  });

  it('unknown keys → 400 invalid_request_body naming the key', async () => {
    await expect(cmd.create_session(ctx(w.writer, { alias: 'primary', colour: 'red' }))).rejects.toMatchObject({
      code: 'invalid_request_body',
      path: 'colour',
    });
    await expect(cmd.get_session(ctx(w.writer, {}))).rejects.toMatchObject({ code: 'invalid_request_body', path: 'session_id' });
  });

  it('get/update/close/reopen/delete accept an id or an alias (trimmed, lowercased)', async () => {
    expect((await cmd.get_session(ctx(w.reader, { session_id: ' Nightly-Batch ' }))).session).toMatchObject({ id: w.sessionId });
    expect((await cmd.get_session(ctx(w.reader, { session_id: w.sessionId }))).session).toMatchObject({ alias: 'nightly-batch' });
    const renamed = await cmd.update_session(ctx(w.writer, { session_id: 'nightly-batch', alias: 'nightly-run' }));
    expect(renamed.session).toMatchObject({ id: w.sessionId, alias: 'nightly-run' });
    expect((await cmd.close_session(ctx(w.writer, { session_id: 'nightly-run' }))).session).toMatchObject({ state: 'closed' });
    expect((await cmd.reopen_session(ctx(w.writer, { session_id: w.sessionId }))).session).toMatchObject({ state: 'open' });
    const unaliased = await cmd.update_session(ctx(w.writer, { session_id: 'nightly-run', alias: null }));
    expect('alias' in (unaliased.session as object)).toBe(false);
    expect(await cmd.delete_session(ctx(w.writer, { session_id: w.sessionId }))).toEqual({});
    await expect(cmd.get_session(ctx(w.writer, { session_id: w.sessionId }))).rejects.toMatchObject({
      code: 'session_not_found',
      status: 404,
    });
  });

  it('a reader may read but a write is 403 forbidden; a stranger gets 404 not_found', async () => {
    await expect(cmd.create_session(ctx(w.reader, { alias: 'primary' }))).rejects.toMatchObject({ code: 'forbidden', status: 403 });
    await expect(cmd.close_session(ctx(w.reader, { session_id: 'nightly-batch' }))).rejects.toMatchObject({ code: 'forbidden' });
    await expect(cmd.list_sessions(ctx(w.stranger, {}))).rejects.toMatchObject({ code: 'not_found', status: 404 });
    // An API key's read cap caps a writer.
    const capped = { ...w.writer, roleCap: 'read' as const };
    await expect(cmd.create_session(ctx(capped, { alias: 'primary' }))).rejects.toMatchObject({ code: 'forbidden' });
  });

  it('writes on a committed revision → 409 revision_not_writable; reads still work', async () => {
    await cmd.commit_revision(ctx(w.writer, {}));
    await expect(cmd.create_session(ctx(w.writer, { alias: 'primary' }))).rejects.toMatchObject({
      code: 'revision_not_writable',
      status: 409,
    });
    await expect(cmd.create_definition(ctx(w.writer, { name: 'x' }))).rejects.toMatchObject({ code: 'revision_not_writable' });
    await expect(cmd.delete_session(ctx(w.writer, { session_id: 'nightly-batch' }))).rejects.toMatchObject({
      code: 'revision_not_writable',
    });
    expect((await cmd.list_sessions(ctx(w.reader, {}))).sessions).toHaveLength(1);
  });

  it('list_sessions pages 50 at a time, oldest first, with an exclusive cursor and a state filter', async () => {
    for (let i = 0; i < 55; i++) {
      await cmd.create_session(ctx(w.writer, { alias: `batch-${String(i).padStart(3, '0')}` }, w.revisionId, new Date(T0.getTime() + (i + 1) * 1000)));
    }
    await cmd.close_session(ctx(w.writer, { session_id: 'batch-054' }));
    const first = await cmd.list_sessions(ctx(w.reader, {}));
    expect((first.sessions as unknown[]).length).toBe(50);
    expect(first.last_session_id).toEqual((first.sessions as { id: string }[])[49].id);
    const second = await cmd.list_sessions(ctx(w.reader, { start_session_id: first.last_session_id }));
    expect((second.sessions as { alias: string }[]).map((s) => s.alias)).toEqual([
      'batch-049',
      'batch-050',
      'batch-051',
      'batch-052',
      'batch-053',
      'batch-054',
    ]);
    expect(second.last_session_id).toBeNull();
    const closed = await cmd.list_sessions(ctx(w.reader, { state: 'closed' }));
    expect((closed.sessions as { alias: string }[]).map((s) => s.alias)).toEqual(['batch-054']);
  });
});

describe('§3.2 definitions', () => {
  it('create/update/list definitions; alias rename and removal', async () => {
    const T1 = new Date(T0.getTime() + 1000); // after the fixture's `triage`, so list order is fixed
    const { definition } = await cmd.create_definition(
      ctx(w.writer, { alias: 'escalate', name: 'Escalate', spec: { a: [1, 2] } }, w.revisionId, T1),
    );
    expect(definition).toMatchObject({ alias: 'escalate', name: 'Escalate', spec: { a: [1, 2] }, revision_id: w.revisionId });
    await expect(cmd.create_definition(ctx(w.writer, { alias: 'triage', name: 'Again' }))).rejects.toMatchObject({ code: 'alias_taken' });
    const updated = await cmd.update_definition(ctx(w.writer, { definition_id: 'escalate', alias: 'escalate-v2', spec: null }));
    expect(updated.definition).toMatchObject({ alias: 'escalate-v2', name: 'Escalate', spec: null });
    const listed = await cmd.list_definitions(ctx(w.reader, {}));
    expect((listed.definitions as { alias: string }[]).map((d) => d.alias)).toEqual(['triage', 'escalate-v2']);
    expect(listed.last_definition_id).toBeNull();
    await expect(cmd.update_definition(ctx(w.writer, { definition_id: 'missing-one', name: 'x' }))).rejects.toMatchObject({
      code: 'definition_not_found',
    });
  });
});

describe('§3.2 create_execution', () => {
  const body = (extra: Record<string, unknown> = {}) => ({
    target: { session: 'nightly-batch' },
    workflow: { definition: 'triage' },
    input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
    ...extra,
  });

  it('resolves target.session and a bare workflow in the route revision', async () => {
    const { execution } = await cmd.create_execution(ctx(w.writer, body({ description: 'by hand' })));
    expect(execution).toEqual({
      id: expect.any(String),
      revision_id: w.revisionId,
      session_id: w.sessionId,
      definition_id: w.definitionId,
      description: 'by hand',
      input_data: [{ alias: 'ticket_window', value: { hours: 24 } }],
      created_by: { type: 'user', id: w.writer.id },
      created_at: '2026-03-08T12:00:00.000Z',
    });
  });

  it('runs a qualified definition from another blob the caller can read, not one it cannot', async () => {
    const globex = await db.org.create({ data: { alias: 'globex-corp', name: 'Globex' } });
    const globexKey: Actor = { type: 'org', id: globex.id, roleCap: 'write' };
    const source = await createBlobHandler({ db, actor: globexKey, org: 'globex-corp', params: { type: 'workflow', alias: 'procedures' }, now: T0 });
    const sourceCtx = { ...ctx(globexKey, { alias: 'escalate', name: 'Escalate' }, source.default_revision_id!), revision: { id: source.default_revision_id!, blobId: source.id, orgId: globex.id, state: 'draft' } };
    const { definition } = await cmd.create_definition(sourceCtx);
    const qualified = body({ workflow: { org: 'globex-corp', blob: 'procedures', definition: 'escalate' } });
    await expect(cmd.create_execution(ctx(w.writer, qualified))).rejects.toMatchObject({
      code: 'definition_not_found',
      path: 'workflow.definition',
    });
    await db.blobGrant.create({ data: { blobId: source.id, granteeType: 'user', granteeId: w.writer.id, role: 'read' } });
    const { execution } = await cmd.create_execution(ctx(w.writer, qualified));
    expect(execution).toMatchObject({ definition_id: (definition as { id: string }).id, revision_id: w.revisionId });
  });

  it('refuses: unknown session 404, closed session 409, bad reference 400, oversize input 400, long description 400', async () => {
    await expect(cmd.create_execution(ctx(w.writer, body({ target: { session: 'nowhere-1' } })))).rejects.toMatchObject({
      code: 'session_not_found',
      path: 'target.session',
    });
    await expect(cmd.create_execution(ctx(w.writer, body({ workflow: { blob: 'support-bot', definition: 'triage' } })))).rejects.toMatchObject({
      code: 'invalid_workflow_reference',
      path: 'workflow.org',
    });
    await expect(cmd.create_execution(ctx(w.writer, body({ workflow: { definition: 'triage', flavour: 1 } })))).rejects.toMatchObject({
      code: 'invalid_request_body',
      path: 'workflow.flavour',
    });
    const big = [{ alias: 'blob', value: 'x'.repeat(64 * 1024) }];
    await expect(cmd.create_execution(ctx(w.writer, body({ input_data: big })))).rejects.toMatchObject({
      code: 'invalid_request_body',
      path: 'input_data',
    });
    await expect(cmd.create_execution(ctx(w.writer, body({ description: 'd'.repeat(257) })))).rejects.toMatchObject({
      code: 'invalid_request_body',
      path: 'description',
    });
    await cmd.close_session(ctx(w.writer, { session_id: 'nightly-batch' }));
    await expect(cmd.create_execution(ctx(w.writer, body()))).rejects.toMatchObject({ code: 'session_not_open', status: 409 });
    expect(await db.execution.count()).toBe(0);
  });

  it('list_workflow_executions: newest first, session filter, exclusive cursor, null on the last page', async () => {
    const other = (await cmd.create_session(ctx(w.writer, { alias: 'other-batch' }))).session as { id: string };
    const ids: string[] = [];
    for (let i = 0; i < 52; i++) {
      const now = new Date(T0.getTime() + i * 1000);
      const { execution } = await cmd.create_execution(ctx(w.writer, body(), w.revisionId, now));
      ids.push((execution as { id: string }).id);
    }
    await cmd.create_execution(ctx(w.writer, body({ target: { session: 'other-batch' } }), w.revisionId, new Date(T0.getTime() + 100_000)));
    const first = await cmd.list_workflow_executions(ctx(w.reader, { session_id: w.sessionId }));
    const firstIds = (first.executions as { id: string }[]).map((e) => e.id);
    expect(firstIds).toEqual([...ids].reverse().slice(0, 50));
    const second = await cmd.list_workflow_executions(ctx(w.reader, { session_id: w.sessionId, start_execution_id: first.last_execution_id }));
    expect((second.executions as { id: string }[]).map((e) => e.id)).toEqual([ids[1], ids[0]]);
    expect(second.last_execution_id).toBeNull();
    const all = await cmd.list_workflow_executions(ctx(w.reader, {}));
    expect((all.executions as { session_id: string }[])[0].session_id).toBe(other.id);
    await expect(cmd.list_workflow_executions(ctx(w.reader, { session_id: 'nightly-batch' }))).rejects.toMatchObject({
      code: 'session_not_found',
    });
  });
});

describe('§1 revision commands', () => {
  it('commit → branch → set_default; a second commit and branching a draft are 409 invalid_revision_state', async () => {
    const committed = await cmd.commit_revision(ctx(w.writer, {}));
    expect(committed.revision).toMatchObject({ id: w.revisionId, state: 'committed', is_default: true, committed_at: '2026-03-08T12:00:00.000Z' });
    await expect(cmd.commit_revision(ctx(w.writer, {}))).rejects.toMatchObject({ code: 'invalid_revision_state', status: 409 });
    const branched = (await cmd.branch_revision(ctx(w.writer, {}))).revision as { id: string };
    expect(branched).toMatchObject({ state: 'draft', is_default: false, parent_revision_id: w.revisionId });
    await expect(cmd.branch_revision(ctx(w.writer, {}, branched.id))).rejects.toMatchObject({ code: 'invalid_revision_state' });
    expect((await cmd.set_default_revision(ctx(w.writer, {}, branched.id))).revision).toMatchObject({ id: branched.id, is_default: true });
    await expect(cmd.set_default_revision(ctx(w.reader, {}, w.revisionId))).rejects.toMatchObject({ code: 'forbidden' });
    await expect(cmd.commit_revision(ctx(w.writer, { force: true }))).rejects.toMatchObject({ code: 'invalid_request_body', path: 'force' });
  });
});

describe('§3.3 blobs and discovery', () => {
  it('creates a workflow blob (draft default) and a scheduler blob (managed default); describes and lists them', async () => {
    const T1 = new Date(T0.getTime() + 1000); // 2026-03-08T12:00:01Z: after the fixture's blob
    const wf = await createBlobHandler({ db, actor: w.writer, org: 'ACME-CORP', params: { type: 'workflow', alias: 'ops-flows' }, now: T1 });
    expect(wf).toEqual({
      id: expect.any(String),
      alias: 'ops-flows',
      org: { id: w.org.id, alias: 'acme-corp' },
      type: 'workflow',
      default_revision_id: expect.any(String),
      revisions: [{ id: wf.default_revision_id, state: 'draft', is_default: true, created_at: '2026-03-08T12:00:01.000Z' }],
    });
    const T2 = new Date(T0.getTime() + 2000);
    const sch = await createBlobHandler({ db, actor: w.writer, org: w.org.id, params: { type: 'scheduler' }, now: T2 });
    expect('alias' in sch).toBe(false);
    expect(sch.revisions).toEqual([{ id: sch.default_revision_id, state: 'managed', is_default: true, created_at: '2026-03-08T12:00:02.000Z' }]);
    expect(await getBlobHandler({ db, actor: w.reader, org: 'acme-corp', blob: 'ops-flows', now: T0 })).toEqual(wf);
    expect(await getBlobHandler({ db, actor: w.reader, org: 'globex-corp', blob: sch.id, now: T0 }).catch((e) => e.code)).toBe('not_found');
    expect(await getBlobHandler({ db, actor: w.stranger, org: 'acme-corp', blob: 'ops-flows', now: T0 }).catch((e) => e.code)).toBe('not_found');
    const listed = await listBlobsHandler({ db, actor: w.reader, org: 'acme-corp', now: T0 });
    expect(listed.blobs.map((b) => b.type)).toEqual(['workflow', 'workflow', 'scheduler']);
    expect(await listBlobsHandler({ db, actor: w.stranger, org: 'acme-corp', now: T0 }).catch((e) => e.code)).toBe('not_found');
  });

  it('refuses: reader 403, alias grammar 400, alias taken 409, unknown key 400; a blob grant alone makes a blob listable', async () => {
    const create = (actor: Actor, params: Record<string, unknown>) => createBlobHandler({ db, actor, org: 'acme-corp', params, now: T0 });
    await expect(create(w.reader, { type: 'workflow' })).rejects.toMatchObject({ code: 'forbidden' });
    await expect(create(w.writer, { type: 'workflow', alias: 'ci' })).rejects.toMatchObject({ code: 'invalid_alias' });
    await expect(create(w.writer, { type: 'workflow', alias: 'support-bot' })).rejects.toMatchObject({ code: 'alias_taken' });
    await expect(create(w.writer, { type: 'workflow', owner: 'me' })).rejects.toMatchObject({ code: 'invalid_request_body', path: 'owner' });
    await expect(create(w.stranger, { type: 'workflow' })).rejects.toMatchObject({ code: 'not_found' });
    const guest = await makeUser(db, 'guest@example.test');
    await db.blobGrant.create({ data: { blobId: w.blobId, granteeType: 'user', granteeId: guest.id, role: 'read' } });
    const listed = await listBlobsHandler({ db, actor: guest, org: 'acme-corp', now: T0 });
    expect(listed.blobs.map((b) => b.id)).toEqual([w.blobId]);
  });
});
