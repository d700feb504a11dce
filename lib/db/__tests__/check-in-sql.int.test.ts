/**
 * A check-in's SQL (lib/db/sql/check-in.ts) computes a run's duration in the database from the row
 * it changes. Property: on both dialects it equals the ms between the stored start (the `/start`
 * instant, else the delivery) and the check-in, capped to the 32-bit column, and only an open or
 * absent outcome moves, once.
 */
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { endRunOutcome, inTransaction, insertRuns, lockScheduleOfRun, startRunOutcome } from '..';
import { insertSchedules } from '../../testing/insert-schedules';
import { createTestDb, type TestDb } from '../../testing/test-db';
import { seed } from '../../../prisma/seed';

let t: TestDb;
let scheduleId: string;
beforeAll(async () => {
  t = await createTestDb();
  const ctx = await seed(t.db, undefined);
  [scheduleId] = await insertSchedules(t.db, [{ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: {}, nextFireAt: null }]);
});
afterAll(() => t.cleanup());

const BASE = Date.UTC(2030, 0, 15, 10, 0, 0);
const MAX = 2_147_483_647;
/** Each run its own occurrence (runs are unique by schedule, occurrence, trigger and attempt). */
let occurrences = 0;
const nextOccurrence = () => new Date(BASE - ++occurrences * 60_000);

async function openRun(createdAt: Date, startedAt: Date | null): Promise<string> {
  const id = randomUUID();
  await t.db.$transaction((tx) => insertRuns(tx, [{ id, scheduleId, scheduledFor: nextOccurrence(), trigger: 'schedule', status: 'success', result: {}, executionId: null, createdAt }]));
  await t.db.run.update({ where: { id }, data: { outcome: startedAt ? 'running' : 'pending', startedAt, outcomeDueAt: new Date(BASE + 86_400_000) } });
  return id;
}

it('a terminal check-in stores finished − started in ms (capped), moves the run once, and locks the schedule of a run that exists only', async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.integer({ min: 0, max: 40 * 86_400_000 }),
      fc.option(fc.integer({ min: 0, max: 3_600_000 }), { nil: null }),
      fc.integer({ min: -5_000, max: 40 * 86_400_000 }),
      fc.constantFrom('succeeded' as const, 'failed' as const),
      async (createdOffset, startOffset, after, outcome) => {
        const created = new Date(BASE + createdOffset);
        const started = startOffset === null ? null : new Date(created.getTime() + startOffset);
        const id = await openRun(created, started);
        const now = new Date((started ?? created).getTime() + after);
        const first = await inTransaction(t.db, async (tx) => {
          expect((await lockScheduleOfRun(tx, id))?.id).toBe(scheduleId);
          return endRunOutcome(tx, id, { outcome, exitCode: outcome === 'failed' ? 3 : null, message: null, now });
        });
        const again = await inTransaction(t.db, (tx) => endRunOutcome(tx, id, { outcome: 'succeeded', exitCode: 0, message: 'late', now: new Date(now.getTime() + 1) }));
        expect(again).toBeNull();
        const run = await t.db.run.findUniqueOrThrow({ where: { id } });
        expect(run).toMatchObject({ outcome, finishedAt: now, startedAt: started ?? created, outcomeDueAt: null, exitCode: outcome === 'failed' ? 3 : null, outcomeMessage: null });
        expect(run.durationMs).toBe(Math.min(MAX, Math.max(0, after)));
        // The moving call answers the run's trigger, occurrence and attempt (alerts name them, SPEC §17).
        expect(first).toEqual({ trigger: 'schedule', scheduledFor: run.scheduledFor, attempt: 1 });
      },
    ),
    { numRuns: 40 },
  );
  expect(await inTransaction(t.db, (tx) => lockScheduleOfRun(tx, randomUUID()))).toBeNull();
});

it('/start moves only a pending run, keeps an existing message unless one is sent, and sets the deadline only where one was', async () => {
  const id = await openRun(new Date(BASE), null);
  const now = new Date(BASE + 2_000);
  expect(await inTransaction(t.db, (tx) => startRunOutcome(tx, id, { dueAt: new Date(BASE + 62_000), message: 'began', now }))).toBe(true);
  expect(await inTransaction(t.db, (tx) => startRunOutcome(tx, id, { dueAt: new Date(BASE + 99_000), message: null, now: new Date(BASE + 3_000) }))).toBe(false);
  expect(await t.db.run.findUniqueOrThrow({ where: { id } })).toMatchObject({ outcome: 'running', startedAt: now, outcomeDueAt: new Date(BASE + 62_000), outcomeMessage: 'began' });
  await inTransaction(t.db, (tx) => endRunOutcome(tx, id, { outcome: 'succeeded', exitCode: null, message: null, now: new Date(BASE + 4_500) }));
  expect(await t.db.run.findUniqueOrThrow({ where: { id } })).toMatchObject({ outcome: 'succeeded', durationMs: 2_500, outcomeMessage: 'began' });
  // A run without a deadline (its schedule had no completion when it was recorded) gets none at /start.
  const plain = randomUUID();
  const plainAt = nextOccurrence();
  await t.db.$transaction((tx) => insertRuns(tx, [{ id: plain, scheduleId, scheduledFor: plainAt, trigger: 'manual', status: 'success', result: {}, executionId: null, createdAt: new Date(BASE) }]));
  expect(await inTransaction(t.db, (tx) => startRunOutcome(tx, plain, { dueAt: new Date(BASE + 60_000), message: null, now }))).toBe(true);
  expect(await t.db.run.findUniqueOrThrow({ where: { id: plain } })).toMatchObject({ outcome: 'running', outcomeDueAt: null });
  expect(await inTransaction(t.db, (tx) => endRunOutcome(tx, plain, { outcome: 'failed', exitCode: 1, message: 'x', now }))).toEqual({ trigger: 'manual', scheduledFor: plainAt, attempt: 1 });
});
