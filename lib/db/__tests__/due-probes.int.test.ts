/**
 * The worker's between-tick reads on the driver (lib/db/sql/due-probes.ts), on both dialects: the
 * earliest thing due across schedules and pending attempts, and the runs past their completion
 * deadline, each against what is stored.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { findEarliestDue, findRunsPastOutcomeDue } from '..';
import { insertSchedules } from '../../testing/insert-schedules';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';

let t: TestDb;
let ctx: Awaited<ReturnType<typeof seed>>;
beforeAll(async () => {
  t = await createTestDb();
  ctx = await seed(t.db, undefined);
  // The seed's own schedules would be the earliest: nothing is scheduled until this test says so.
  await t.db.schedule.updateMany({ data: { enabled: false, nextFireAt: null } });
});
afterAll(() => t.cleanup());

const fixture = (nextFireAt: Date | null) => ({ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: {}, nextFireAt });

it('findEarliestDue: null when nothing is scheduled, else the earliest next_fire_at or pending due_at (ms exact)', async () => {
  expect(await findEarliestDue(t.db)).toBeNull();
  const [a] = await insertSchedules(t.db, [fixture(new Date('2031-03-01T10:00:00.250Z')), fixture(new Date('2031-03-01T10:00:00.125Z')), fixture(null)]);
  expect(await findEarliestDue(t.db)).toEqual(new Date('2031-03-01T10:00:00.125Z'));
  // A pending attempt due earlier than every occurrence wins…
  await t.db.pendingAttempt.create({ data: { scheduleId: a, scheduledFor: new Date('2031-03-01T09:00:00Z'), attempt: 2, dueAt: new Date('2031-03-01T09:59:59.999Z') } });
  expect(await findEarliestDue(t.db)).toEqual(new Date('2031-03-01T09:59:59.999Z'));
  // …and alone, it is the answer.
  await t.db.schedule.updateMany({ data: { nextFireAt: null } });
  expect(await findEarliestDue(t.db)).toEqual(new Date('2031-03-01T09:59:59.999Z'));
  await t.db.pendingAttempt.deleteMany({});
  expect(await findEarliestDue(t.db)).toBeNull();
});

it('findRunsPastOutcomeDue: the runs whose deadline is at or before now, oldest deadline first, at most limit', async () => {
  const [s] = await insertSchedules(t.db, [fixture(null)]);
  const run = (i: number, outcomeDueAt: Date | null) =>
    t.db.run.create({
      data: { scheduleId: s, scheduledFor: new Date(Date.UTC(2031, 0, 1, 0, i)), attempt: 1, trigger: i === 2 ? 'manual' : 'schedule', status: 'success', invocationTargetType: 'workflow', invocationTarget: {}, result: {}, outcomeDueAt },
      select: { id: true },
    });
  const now = new Date('2031-06-01T12:00:00.000Z');
  const late = await run(1, new Date(now.getTime() - 5_000));
  const earliest = await run(2, new Date(now.getTime() - 60_000));
  const exactlyNow = await run(3, now);
  await run(4, new Date(now.getTime() + 1));
  await run(5, null);
  const due = await findRunsPastOutcomeDue(t.db, now, 10);
  expect(due.map((r) => r.id)).toEqual([earliest.id, late.id, exactlyNow.id]);
  expect(due[0]).toEqual({ id: earliest.id, scheduleId: s, trigger: 'manual', scheduledFor: new Date(Date.UTC(2031, 0, 1, 0, 2)), attempt: 1 });
  expect((await findRunsPastOutcomeDue(t.db, now, 2)).map((r) => r.id)).toEqual([earliest.id, late.id]);
});
