/**
 * The guard of the time engine's callers (docs/decisions.md 139): a claimed schedule whose next
 * occurrence cannot be computed — a zone the tz database no longer has, an expression that no longer
 * parses, an expression past the time engine's work budget — is paused with the reason in the claim's
 * transaction. The schedules claimed with it fire as usual, and it is not claimed again on the next
 * tick. Runs on the dialect of TEST_DATABASE.
 */
import { expect, it } from 'vitest';
import { fireDue } from '../../schedules';
import { insertSchedules } from '../../testing/insert-schedules';
import { TEST_LIMITS } from '../../testing/limits';
import { SEEDED_TARGET, useSeededScheduler } from '../../testing/seeded-scheduler';

const w = useSeededScheduler();
const MINUTE = 60_000;

it('a schedule that cannot be planned is paused with the reason; the others of its batch fire, and the next tick does not claim it', async () => {
  const { ctx } = w;
  const due = new Date(Math.floor(Date.now() / MINUTE) * MINUTE - MINUTE);
  const base = { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'user' as const, id: ctx.userId }, invocationTarget: SEEDED_TARGET, nextFireAt: due };
  const [good, badZone, badExpression, alsoGood] = await insertSchedules(w.db, [
    { ...base, cronExpression: '0 0 1 1 ? *' },
    { ...base, cronExpression: '0 0 1 1 ? *', timezone: 'Mars/Olympus_Mons' },
    { ...base, cronExpression: 'not a cron expression' },
    { ...base, cronExpression: '0 0 1 1 ? *' },
  ]);

  const outcomes = await fireDue({ db: w.db, now: new Date(due.getTime() + 1_000), limit: 100, limits: TEST_LIMITS });
  const kinds = new Map(outcomes.map((o) => [o.scheduleId, o.kind]));
  expect([good, badZone, badExpression, alsoGood].map((id) => kinds.get(id))).toEqual(['fired', 'error', 'error', 'fired']);

  const rows = await w.db.schedule.findMany({ where: { id: { in: [badZone, badExpression, good] } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const id of [badZone, badExpression]) {
    const r = byId.get(id)!;
    expect([r.enabled, r.nextFireAt, r.pausedByType]).toEqual([false, null, 'system']);
    expect(r.pauseNote).toMatch(/^paused: its next occurrence could not be computed \(\w+: .+\)$/);
  }
  expect(byId.get(badZone)!.pauseNote).toContain('Mars/Olympus_Mons');
  // Not fired: no run for either; the good ones ran once and moved on.
  expect(await w.db.run.count({ where: { scheduleId: { in: [badZone, badExpression] } } })).toBe(0);
  expect(await w.db.run.count({ where: { scheduleId: { in: [good, alsoGood] } } })).toBe(2);
  expect(byId.get(good)!.enabled).toBe(true);
  // In the activity log, by `system`, like any automatic pause.
  const activity = await w.db.activityEntry.findMany({ where: { scheduleId: { in: [badZone, badExpression] } } });
  expect(activity.map((a) => [a.action, a.actorType]).sort()).toEqual([
    ['auto_pause', 'system'],
    ['auto_pause', 'system'],
  ]);

  // The next tick claims none of them again.
  const again = await fireDue({ db: w.db, now: new Date(due.getTime() + 2_000), limit: 100, limits: TEST_LIMITS });
  expect(again.filter((o) => [good, badZone, badExpression, alsoGood].includes(o.scheduleId))).toEqual([]);
});
