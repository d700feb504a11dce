/**
 * A claimed row that can never fire (hand-edited: a state no save writes, or disabled, yet holding a
 * due next_fire_at) is refused by the advance's ownership check and fires nothing; its next_fire_at
 * is then cleared in the same transaction, so it is not claimed and refused again at every tick
 * (lib/db/sql/advance-next-fire.ts RELEASE_UNFIREABLE_SQL). Runs on the dialect of TEST_DATABASE.
 */
import { expect, it } from 'vitest';
import { fireDue } from '../../schedules';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';

const w = useSeededScheduler();
const MINUTE = 60_000;

it('an archived or disabled row with a due next_fire_at fires nothing, is released, and is not claimed again; the others fire', async () => {
  const { ctx } = w;
  const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE);
  const base = { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'user' as const, id: ctx.userId }, invocationTarget: SEEDED_TARGET, nextFireAt: due, cronExpression: '0 0 1 1 ? *' };
  const [archived, disabled, good] = await insertSchedules(w.db, [base, base, base]);
  // Hand edits no save makes: the rows keep their due next_fire_at.
  await w.db.schedule.update({ where: { id: archived }, data: { state: 'archived' } });
  await w.db.schedule.update({ where: { id: disabled }, data: { enabled: false } });

  const now = new Date(due.getTime() + 1_000);
  const outcomes = await fireDue({ db: w.db, now, limit: 100, limits: TEST_LIMITS });
  const kinds = new Map(outcomes.map((o) => [o.scheduleId, o.kind]));
  expect([archived, disabled, good].map((id) => kinds.get(id))).toEqual(['lost-race', 'lost-race', 'fired']);

  const rows = new Map((await w.db.schedule.findMany({ where: { id: { in: [archived, disabled, good] } } })).map((r) => [r.id, r]));
  expect([rows.get(archived)!.nextFireAt, rows.get(archived)!.state]).toEqual([null, 'archived']);
  expect([rows.get(disabled)!.nextFireAt, rows.get(disabled)!.enabled]).toEqual([null, false]);
  expect(rows.get(good)!.nextFireAt!.getTime()).toBeGreaterThan(due.getTime());
  expect(await w.db.run.count({ where: { scheduleId: { in: [archived, disabled] } } })).toBe(0);
  expect(await w.db.run.count({ where: { scheduleId: good } })).toBe(1);

  // The next tick claims neither again.
  const again = await fireDue({ db: w.db, now: new Date(now.getTime() + 1_000), limit: 100, limits: TEST_LIMITS });
  expect(again.filter((o) => o.scheduleId === archived || o.scheduleId === disabled)).toEqual([]);
});

it('a stored workflow target without input_data (a row written by hand or by an older version) fires with [] as its input', async () => {
  const { ctx } = w;
  const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE);
  const { input_data: omitted, ...bare } = SEEDED_TARGET;
  expect(omitted.length).toBe(1);
  const [id] = await insertSchedules(w.db, [
    { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'user' as const, id: ctx.userId }, invocationTarget: bare, nextFireAt: due, cronExpression: '0 0 1 1 ? *' },
  ]);
  const outcomes = await fireDue({ db: w.db, now: new Date(due.getTime() + 1_000), limit: 100, limits: TEST_LIMITS });
  expect(outcomes.filter((o) => o.scheduleId === id).map((o) => o.kind)).toEqual(['fired']);
  const run = await w.db.run.findFirstOrThrow({ where: { scheduleId: id } });
  expect(run.status).toBe('success');
  const execution = await w.db.execution.findFirstOrThrow({ where: { runId: run.id } });
  expect(execution.inputData).toEqual([]);
});
