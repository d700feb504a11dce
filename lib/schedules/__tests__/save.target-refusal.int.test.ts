/**
 * SPEC §6.3: a target that does not resolve is refused with ONE message whatever failed (no
 * disclosure), and that message must be true for every failure: a session that exists but is closed
 * is not "an existing session" the message would deny; the message asks for an open one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../db';
import { TEST_LIMITS } from '../../testing/limits';
import { createTestDb } from '../../testing/test-db';
import { closeSession, createSchedulerBlob } from '../../workflows';
import { makeWorld, type World } from '../../testing/catalog-world';
import { createSchedule } from '../create-schedule';

const REFUSAL = 'invocation_target does not resolve to a writable draft revision, an open session in it, and a workflow definition you can read';

let db: Db;
let cleanup: () => Promise<void>;
let w: World;
let revision: { id: string; blobId: string };
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
  w = await makeWorld(db);
  const s = await createSchedulerBlob(db, { actor: w.writer, org: 'acme-corp', alias: 'ops-sched' });
  revision = { id: s.default_revision_id!, blobId: s.id };
});
afterAll(async () => cleanup());

const body = (session: string) => ({
  repeat: 'recurring_cron',
  cron_expression: '0 9 * * ? *',
  timezone: 'UTC',
  invocation_target: { target: { org: 'acme-corp', blob: 'support-bot', revision: 'default', session }, workflow: { definition: 'triage' }, input_data: [] },
});

it('a closed session and a missing one get the same refusal, which asks for an open session', async () => {
  await closeSession(db, { actor: w.writer, revisionId: w.revisionId, session: 'nightly-batch' });
  const now = new Date();
  for (const session of ['nightly-batch', 'no-such-session']) {
    await expect(createSchedule({ db, actor: w.writer, revision, input: body(session), limits: TEST_LIMITS, now })).rejects.toMatchObject({
      code: 'invalid_invocation_target',
      message: REFUSAL,
      path: 'invocation_target',
    });
  }
  expect(await db.schedule.count({ where: { revisionId: revision.id } })).toBe(0);
});
