/**
 * SPEC §12.3 in a schedule's history: an exhausted occurrence is "in the dead letters" only while its
 * dead letter is listed. `listedDeadLettersOfRuns` answers the exhausting run's dead letter, and
 * nothing once it is dismissed (the history's grouping, components/run-groups.ts, then says
 * `dismissed`: its unit test). Real database (TEST_DATABASE dialect), real fires.
 */
import { expect, it } from 'vitest';
import { TEST_LIMITS } from '../../testing/limits';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';
import { createSchedule, dismissDeadLetter, fireDue, listedDeadLettersOfRuns, listRuns } from '..';

const w = useSeededScheduler();

it('§12.3 an exhausted occurrence\'s run is answered with its dead letter until that is dismissed', async () => {
  const actor = w.actor();
  const revision = await w.scheduler();
  const t0 = new Date('2031-05-01T09:00:00Z');
  const schedule = await createSchedule({
    db: w.db, actor, revision, limits: TEST_LIMITS, now: t0,
    input: { alias: 'exhausts-once', repeat: 'one_time', invocation_time: '2031-05-01T09:01:00', timezone: 'UTC', invocation_target: SEEDED_TARGET, retry_policy: { maximum_retry_attempts: 0, maximum_event_age_seconds: 3600 } },
  });
  await w.db.workflowSession.updateMany({ where: { revisionId: w.ctx.proceduresRevisionId, alias: 'nightly-batch' }, data: { state: 'closed' } });
  await fireDue({ db: w.db, now: new Date('2031-05-01T09:01:00.500Z'), limit: 10, limits: TEST_LIMITS });

  const { executions } = await listRuns({ db: w.db, actor, revision, scheduleId: schedule.id });
  expect(executions.map((r) => [r.attempt, r.status, r.exhausted])).toEqual([[1, 'invocation_error', 'maximum_retry_attempts']]);
  const letter = await w.db.deadLetter.findFirstOrThrow({ where: { scheduleId: schedule.id } });
  const runIds = executions.map((r) => r.id);

  const listed = await listedDeadLettersOfRuns({ db: w.db, actor, revision, runIds });
  expect([...listed]).toEqual([[executions[0].id, letter.id]]);

  await dismissDeadLetter({ db: w.db, actor, revision, deadLetterRef: letter.id, now: new Date('2031-05-01T09:05:00Z') });
  const after = await listedDeadLettersOfRuns({ db: w.db, actor, revision, runIds });
  expect(after.size).toBe(0);
});
