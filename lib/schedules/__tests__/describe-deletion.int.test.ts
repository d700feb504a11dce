/**
 * What a delete takes with it, for its confirmation: a schedule's runs (SPEC §3.1: its history goes
 * with it) and the executions it created (kept); a scheduler's schedules and runs; and, for a
 * schedule's history, which executions its runs created are gone (with their session or revision).
 */
import { expect, it } from 'vitest';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { createSession, deleteSession, findDeletedExecutions } from '../../workflows';
import { useSchedulerWorld } from '../../testing/catalog-world';
import { describeScheduleDeletion, describeSchedulerDeletion } from '../save/describe-schedule-deletion';
import { runSchedule } from '../runs/run-schedule';

const world = useSchedulerWorld();

it('counts the runs a schedule delete takes and the executions it keeps; a scheduler delete counts schedules and runs', async () => {
  const { db, w, ops } = world;
  await createSession(db, { actor: w.writer, revisionId: w.revisionId, alias: 'doomed-session' });
  const target = (session: string) => ({ target: { org: 'acme-corp', blob: 'support-bot', revision: 'default', session }, workflow: { definition: 'triage' }, input_data: [] });
  const [a, b] = await insertSchedules(db, [
    { revisionId: ops.id, alias: 'first-one', createdBy: { type: 'user', id: w.writer.id }, invocationTarget: target('nightly-batch'), nextFireAt: null },
    { revisionId: ops.id, alias: 'second-one', createdBy: { type: 'user', id: w.writer.id }, invocationTarget: target('doomed-session'), nextFireAt: null },
  ]);
  const runs = [];
  for (let i = 0; i < 3; i++) runs.push(await runSchedule({ db, actor: w.writer, revision: ops, scheduleRef: a, now: new Date(), limits: TEST_LIMITS }));
  const doomed = await runSchedule({ db, actor: w.writer, revision: ops, scheduleRef: b, now: new Date(), limits: TEST_LIMITS });
  expect(await describeScheduleDeletion({ db, actor: w.reader, revision: ops, scheduleRef: 'first-one' })).toEqual({ runs: 3, executions: 3 });
  expect(await describeSchedulerDeletion({ db, actor: w.reader, revision: ops })).toEqual({ schedules: 2, runs: 4 });
  await expect(describeScheduleDeletion({ db, actor: w.stranger, revision: ops, scheduleRef: 'first-one' })).rejects.toMatchObject({ code: 'not_found' });

  // The execution of `second-one`'s run goes with its session; the others stay.
  await deleteSession(db, { actor: w.writer, revisionId: w.revisionId, session: 'doomed-session' });
  const refs = [...runs, doomed].map((r) => {
    const result = r.result as { execution_id: string; revision_id: string };
    return { executionId: result.execution_id, revisionId: result.revision_id };
  });
  const gone = await findDeletedExecutions(db, [...refs, { executionId: '00000000-0000-4000-8000-000000000000', revisionId: '00000000-0000-4000-8000-000000000001' }]);
  expect([...gone.entries()]).toEqual([
    [refs[3].executionId, 'session_deleted'],
    ['00000000-0000-4000-8000-000000000000', 'revision_deleted'],
  ]);
  expect(await describeScheduleDeletion({ db, actor: w.writer, revision: ops, scheduleRef: 'second-one' })).toEqual({ runs: 1, executions: 0 });
});
