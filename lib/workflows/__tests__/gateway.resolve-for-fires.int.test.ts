/**
 * The fire path's set-based resolution (`resolveForFires`) against its oracle, the general path
 * (`resolveTarget`, then `resolveWorkflow`, then `create_execution`'s checks), on a real catalog:
 * for random batches of keys (actors of every standing, references in every form a schedule can
 * store, catalog rows in every state), whatever `resolveForFires` decides is exactly the general
 * path's success, and every key the general path resolves with a bare workflow reference is decided.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { makeOrg, makeUser, makeWorld, T0, type World } from '../../testing/catalog-world';
import { createTestDb, type TestDb } from '../../testing/test-db';
import {
  closeSession,
  commitRevision,
  createSchedulerBlob,
  createSession,
  createWorkflowBlob,
  embeddedGateway as gw,
  type FireKey,
  type TargetRef,
  type WorkflowRef,
} from '..';
import { checkExecution } from '../executions/create-execution';

let t: TestDb;
let db: Db;
let w: World;
let actors: Actor[];
let orgRefs: (string | undefined)[];
let blobRefs: string[];
let revisionRefs: string[];
let sessionRefs: string[];
let workflowRefs: WorkflowRef[];

beforeAll(async () => {
  t = await createTestDb();
  db = t.db;
  w = await makeWorld(db);
  const other = await makeOrg(db, 'other-org');
  // A workflow blob whose default revision is committed (a pinned target may name it: the general
  // path resolves it, then create_execution refuses it).
  const frozen = await createWorkflowBlob(db, { actor: w.writer, org: 'acme-corp', alias: 'frozen-bot', now: T0 });
  await createSession(db, { actor: w.writer, revisionId: frozen.default_revision_id!, alias: 'nightly-batch', now: T0 });
  await commitRevision(db, { actor: w.writer, revisionId: frozen.default_revision_id!, now: T0 });
  const closed = await createSession(db, { actor: w.writer, revisionId: w.revisionId, alias: 'closed-batch', now: T0 });
  await closeSession(db, { actor: w.writer, revisionId: w.revisionId, session: closed.id });
  const scheduler = await createSchedulerBlob(db, { actor: w.writer, org: 'acme-corp', alias: 'ops-sched' });
  const granted = await makeUser(db, 'granted@example.test');
  await db.blobGrant.create({ data: { blobId: w.blobId, granteeType: 'user', granteeId: granted.id, role: 'write' } });
  const readGrant = await makeUser(db, 'read-grant@example.test');
  await db.blobGrant.create({ data: { blobId: w.blobId, granteeType: 'user', granteeId: readGrant.id, role: 'read' } });
  actors = [
    w.writer,
    w.reader,
    w.stranger,
    granted,
    readGrant,
    { type: 'org', id: w.org.id, roleCap: null },
    { type: 'org', id: other.id, roleCap: null },
    { ...w.writer, roleCap: 'read' },
    { type: 'org', id: w.org.id, roleCap: 'write' },
  ];
  orgRefs = [undefined, 'acme-corp', ' ACME-Corp ', w.org.id, w.org.id.toUpperCase(), 'other-org', other.id, 'missing-org', ''];
  blobRefs = ['support-bot', ' Support-Bot', w.blobId, 'frozen-bot', frozen.id, 'ops-sched', scheduler.id, 'missing-bot', '00000000-0000-0000-0000-000000000000', ''];
  revisionRefs = ['default', ' DEFAULT ', w.revisionId, frozen.default_revision_id!, '00000000-0000-0000-0000-000000000000', 'not-an-id'];
  sessionRefs = ['nightly-batch', ' Nightly-Batch ', w.sessionId, 'closed-batch', closed.id, 'missing-batch', ''];
  workflowRefs = [
    { definition: 'triage' },
    { definition: ' TRIAGE ' },
    { definition: w.definitionId },
    { definition: 'missing-def' },
    { definition: '' },
    { definition: 'triage', revision: 'default' },
    { org: 'acme-corp', blob: 'support-bot', definition: 'triage' },
  ];
});
afterAll(() => t.cleanup());

/** The oracle: the general path's full success (resolution and every create_execution check), or null. */
async function general(key: FireKey) {
  const target = await gw.resolveTarget(db, key.actor, key.target, 'write');
  if (!target.ok) return null;
  const workflow = await gw.resolveWorkflow(db, key.actor, key.workflow, target.revisionId);
  if (!workflow.ok) return null;
  try {
    const checked = await checkExecution(db, { actor: key.actor, revisionId: target.revisionId, sessionId: target.sessionId, definitionId: workflow.definitionId });
    return { target, workflow, checked };
  } catch {
    return null;
  }
}

/** An index into a list of `n` references, mostly one of its first `good` (the forms that resolve). */
const ref = (n: number, good: number[]) =>
  fc.oneof({ arbitrary: fc.constantFrom(...good), weight: 3 }, { arbitrary: fc.integer({ min: 0, max: n - 1 }), weight: 1 });

const keyArb = () =>
  fc.record({
    actor: ref(actors.length, [0, 3, 5, 8]),
    org: ref(orgRefs.length, [1, 2, 3, 4]),
    blob: ref(blobRefs.length, [0, 1, 2]),
    revision: ref(revisionRefs.length, [0, 1, 2]),
    session: ref(sessionRefs.length, [0, 1, 2]),
    workflow: ref(workflowRefs.length, [0, 1, 2]),
  });

function keyOf(k: { actor: number; org: number; blob: number; revision: number; session: number; workflow: number }): FireKey {
  const org = orgRefs[k.org];
  const target: TargetRef = { ...(org === undefined ? {} : { org }), blob: blobRefs[k.blob], revision: revisionRefs[k.revision], session: sessionRefs[k.session] };
  return { actor: actors[k.actor], target, workflow: workflowRefs[k.workflow] };
}

const bare = (ref: WorkflowRef) => ref.blob === undefined && ref.org === undefined && ref.revision === undefined;

describe('resolveForFires decides exactly the general path’s successes (SPEC §6, §8 step 1)', () => {
  it('on random batches of keys, against resolveTarget + resolveWorkflow + checkExecution', async () => {
    let decided = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(keyArb(), { minLength: 1, maxLength: 25 }), async (raw) => {
        const keys = raw.map(keyOf);
        const fast = await gw.resolveForFires(db, keys);
        expect(fast).toHaveLength(keys.length);
        for (const [i, key] of keys.entries()) {
          const oracle = await general(key);
          if (fast[i]) {
            decided++;
            expect(oracle, JSON.stringify(key)).not.toBeNull();
            expect(fast[i]!.target).toEqual(oracle!.target);
            expect(fast[i]!.workflow).toEqual(oracle!.workflow);
            expect(fast[i]!.checked).toEqual(oracle!.checked);
          } else if (oracle && bare(key.workflow)) {
            throw new Error(`a key the general path resolves was not decided: ${JSON.stringify(key)}`);
          }
        }
      }),
      { numRuns: 60, seed: 20261202 },
    );
    // The catalog above makes successes reachable: the property did not hold vacuously.
    expect(decided).toBeGreaterThan(20);
  });

  it('resolves the seed-shaped following target of an org creator in one batch with many sessions', async () => {
    const org: Actor = { type: 'org', id: w.org.id, roleCap: null };
    const keys: FireKey[] = [
      { actor: org, target: { org: 'acme-corp', blob: 'support-bot', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
      { actor: org, target: { org: 'acme-corp', blob: 'support-bot', revision: 'default', session: 'closed-batch' }, workflow: { definition: 'triage' } },
      { actor: w.stranger, target: { org: 'acme-corp', blob: 'support-bot', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' } },
    ];
    const [ok, closed, denied] = await gw.resolveForFires(db, keys);
    expect(ok).toEqual({
      target: { ok: true, blobId: w.blobId, orgId: w.org.id, revisionId: w.revisionId, sessionId: w.sessionId, pinned: false, revisionState: 'draft' },
      workflow: { ok: true, definitionId: w.definitionId, revisionId: w.revisionId, blobId: w.blobId },
      checked: { revision: { id: w.revisionId, blobId: w.blobId }, session: { id: w.sessionId, alias: 'nightly-batch' } },
    });
    // Not decided here: the general path names these failures (session_not_open, access_denied).
    expect(closed).toBeNull();
    expect(denied).toBeNull();
  });
});
