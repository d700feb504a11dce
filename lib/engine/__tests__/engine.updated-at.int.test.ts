/**
 * `updated_at` is when the schedule last changed (SPEC §5, §15; docs/decisions.md 260): it moves with
 * `version` — an edit, an automatic pause — and never with a fire or a completion. Runs on the
 * dialect of TEST_DATABASE.
 */
import { expect, it } from 'vitest';
import { fireDue } from '../../testing/fire-and-deliver';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';

const w = useSeededScheduler();
const MINUTE = 60_000;

it('a fire and a completion leave updated_at and version as they were; an automatic pause moves both', async () => {
  const { ctx } = w;
  const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE);
  const created = new Date(due.getTime() - 3_600_000);
  const base = { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'user' as const, id: ctx.userId }, invocationTarget: SEEDED_TARGET, nextFireAt: due };
  const [minutely, once, unplannable] = await insertSchedules(
    w.db,
    [
      { ...base, cronExpression: '* * * * ? *' },
      { ...base, repeat: 'one_time', invocationTime: due.toISOString().slice(0, 19) },
      { ...base, cronExpression: '* * * * ? *', timezone: 'Mars/Olympus_Mons' },
    ],
    created,
  );
  const firedAt = new Date(due.getTime() + 1_000);
  const outcomes = await fireDue({ db: w.db, now: firedAt, limit: 100, limits: TEST_LIMITS });
  expect(new Map(outcomes.map((o) => [o.scheduleId, o.kind]))).toEqual(new Map([[minutely, 'fired'], [once, 'fired'], [unplannable, 'error']]));

  const rows = new Map((await w.db.schedule.findMany({ where: { id: { in: [minutely, once, unplannable] } } })).map((r) => [r.id, r]));
  // Fired and moved on: the row changed, the schedule did not.
  expect(rows.get(minutely)!.nextFireAt!.getTime()).toBe(due.getTime() + MINUTE);
  expect([rows.get(minutely)!.updatedAt.getTime(), rows.get(minutely)!.version]).toEqual([created.getTime(), 1]);
  // Completed by its one fire: neither moves.
  expect(rows.get(once)!.state).toBe('completed');
  expect([rows.get(once)!.updatedAt.getTime(), rows.get(once)!.version]).toEqual([created.getTime(), 1]);
  // Paused by the system: a change, at the instant of the pause.
  expect(rows.get(unplannable)!.enabled).toBe(false);
  expect([rows.get(unplannable)!.updatedAt.getTime(), rows.get(unplannable)!.version]).toEqual([firedAt.getTime(), 2]);
});
