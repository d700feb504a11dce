/**
 * SPEC §6.3: a target that does not resolve is refused with ONE message whatever failed (no
 * disclosure), and that message must be true for every failure: a session that exists but is closed
 * is not "an existing session" the message would deny; the message asks for an open one.
 */
import { expect, it } from 'vitest';
import { TEST_LIMITS } from '../../testing/limits';
import { closeSession } from '../../workflows';
import { useSchedulerWorld } from '../../testing/catalog-world';
import { createSchedule } from '../save/create-schedule';

const REFUSAL = 'invocation_target does not resolve to a writable draft revision, an open session in it, and a workflow definition you can read';

const world = useSchedulerWorld();

const body = (session: string) => ({
  repeat: 'recurring_cron',
  cron_expression: '0 9 * * ? *',
  timezone: 'UTC',
  invocation_target: { target: { org: 'acme-corp', blob: 'support-bot', revision: 'default', session }, workflow: { definition: 'triage' }, input_data: [] },
});

it('a closed session and a missing one get the same refusal, which asks for an open session', async () => {
  const { db, w, ops: revision } = world;
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
