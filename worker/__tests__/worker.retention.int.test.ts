/**
 * SPEC §9 `scheduler.run_retention_days`: the worker's daily sweep deletes run records older than
 * the retention, a bounded batch (1000 rows) per statement, and a swept run never makes its
 * occurrence fire again (next_fire_at only moves forward). Runs on the TEST_DATABASE dialect.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { insertRuns, type Db } from '../../lib/db';
import { fireDue } from '../../lib/schedules';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { createTestDb } from '../../lib/testing/test-db';
import { seed } from '../../prisma/seed';
import { Worker } from '../worker';
import { TEST_LIMITS } from '../../lib/testing/limits';

const LIMITS = TEST_LIMITS;
const TARGET = {
  target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' },
  workflow: { definition: 'triage' },
  input_data: [],
};
const DAY = 86_400_000;

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

it('§9 retention: runs older than 30 days are swept 1000 per statement; the swept occurrences never fire again', async () => {
  const ctx = await seed(db, undefined);
  const now = new Date('2031-01-31T12:00:30Z');
  const cutoff = new Date(now.getTime() - 30 * DAY); // 2031-01-01T12:00:30Z
  const [scheduleId] = await insertSchedules(db, [
    { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org', id: ctx.orgId }, invocationTarget: TARGET, nextFireAt: new Date('2031-01-31T12:01:00Z') },
  ], new Date('2030-12-01T00:00:00Z'));
  const run = (scheduledFor: Date, createdAt: Date) => ({
    id: randomUUID(), scheduleId, scheduledFor, trigger: 'schedule', status: 'success', result: {}, executionId: null, createdAt,
  });
  // 2,500 minutely runs that end 1 ms before the cutoff, one exactly at the cutoff, five recent ones.
  const old = Array.from({ length: 2500 }, (_, i) => {
    const at = new Date(cutoff.getTime() - 1 - i * 60_000);
    return run(at, at);
  });
  await db.$transaction(async (tx) => {
    await insertRuns(tx, old);
    await insertRuns(tx, [run(cutoff, cutoff)]);
    await insertRuns(tx, Array.from({ length: 5 }, (_, i) => run(new Date(now.getTime() - (i + 1) * 60_000), new Date(now.getTime() - (i + 1) * 60_000))));
  });

  const worker = new Worker({ db, limits: LIMITS, batchSize: 100, pollIntervalMs: 1000, clock: () => now });
  const swept: { deleted: number; done: boolean; cutoff: string }[] = [];
  worker.events.on('retention:swept', (p) => swept.push({ deleted: p.deleted, done: p.done, cutoff: p.cutoff.toISOString() }));
  for (let i = 0; i < 5; i++) await worker.sweepStep(now);
  // Once at start: three bounded batches, then nothing until 24 h have passed.
  expect(swept).toEqual([
    { deleted: 1000, done: false, cutoff: '2031-01-01T12:00:30.000Z' },
    { deleted: 1000, done: false, cutoff: '2031-01-01T12:00:30.000Z' },
    { deleted: 500, done: true, cutoff: '2031-01-01T12:00:30.000Z' },
  ]);
  const left = await db.run.findMany({ where: { scheduleId }, orderBy: { createdAt: 'asc' }, select: { createdAt: true } });
  expect(left.length).toBe(6);
  expect(left[0].createdAt.toISOString()).toBe('2031-01-01T12:00:30.000Z'); // exactly at the cutoff: kept

  // The deleted runs' occurrences are long past next_fire_at, which never moves back: nothing is due.
  expect(await fireDue({ db, now, limit: 100, limits: LIMITS })).toEqual([]);
  const row = await db.schedule.findUniqueOrThrow({ where: { id: scheduleId } });
  expect(row.nextFireAt?.toISOString()).toBe('2031-01-31T12:01:00.000Z');

  // 24 h later the next daily sweep runs: the run that sat at the old cutoff has expired now.
  await worker.sweepStep(new Date(now.getTime() + DAY - 1));
  expect(swept.length).toBe(3);
  await worker.sweepStep(new Date(now.getTime() + DAY));
  expect(swept.at(-1)).toEqual({ deleted: 1, done: true, cutoff: '2031-01-02T12:00:30.000Z' });
});
