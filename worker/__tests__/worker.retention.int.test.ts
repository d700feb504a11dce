/**
 * SPEC §9 `scheduler.run_retention_days`: the worker's daily sweep deletes run records older than
 * the retention, one bounded statement between two ticks (its limit sized by time, at most doubling
 * from 100), and a swept run never makes its occurrence fire again (next_fire_at only moves forward).
 * Runs on the TEST_DATABASE dialect.
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

it('§9 retention: runs older than 30 days are swept in bounded batches; the swept occurrences never fire again', async () => {
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
  const swept: { phase: string; limit: number; deleted: number; done: boolean; cutoff: string | null }[] = [];
  worker.events.on('retention:swept', (p) => swept.push({ phase: p.phase, limit: p.limit, deleted: p.deleted, done: p.done, cutoff: p.cutoff?.toISOString() ?? null }));
  for (let i = 0; i < 100 && (i === 0 || worker.sweeping); i++) await worker.sweepStep(now);
  expect(worker.sweeping).toBe(false);
  const runBatches = swept.filter((b) => b.phase === 'runs');
  // Bounded: the first statement deletes at most 100 runs, each next limit at most doubles, no batch exceeds its limit.
  expect(runBatches[0].limit).toBe(100);
  for (const [i, b] of runBatches.entries()) {
    expect(b.deleted).toBeLessThanOrEqual(b.limit);
    if (i > 0) expect(b.limit).toBeLessThanOrEqual(2 * runBatches[i - 1].limit);
    expect(b.cutoff).toBe('2031-01-01T12:00:30.000Z');
  }
  expect(runBatches.reduce((n, b) => n + b.deleted, 0)).toBe(2500);
  expect(runBatches.length).toBeGreaterThanOrEqual(5); // 100 + 200 + 400 + 800 < 2500
  // Phases in order, one `done` at the very end.
  const order = [...new Set(swept.map((b) => b.phase))];
  expect(order.slice(0, 3)).toEqual(['runs', 'activity', 'executions']);
  expect(swept.filter((b) => b.done)).toEqual([swept.at(-1)]);
  const left = await db.run.findMany({ where: { scheduleId }, orderBy: { createdAt: 'asc' }, select: { createdAt: true } });
  expect(left.length).toBe(6);
  expect(left[0].createdAt.toISOString()).toBe('2031-01-01T12:00:30.000Z'); // exactly at the cutoff: kept

  // The deleted runs' occurrences are long past next_fire_at, which never moves back: nothing is due.
  expect(await fireDue({ db, now, limit: 100, limits: LIMITS })).toEqual([]);
  const row = await db.schedule.findUniqueOrThrow({ where: { id: scheduleId } });
  expect(row.nextFireAt?.toISOString()).toBe('2031-01-31T12:01:00.000Z');

  // 24 h later the next daily sweep runs: the run that sat at the old cutoff has expired now.
  const before = swept.length;
  await worker.sweepStep(new Date(now.getTime() + DAY - 1));
  expect(swept.length).toBe(before);
  await worker.sweepStep(new Date(now.getTime() + DAY));
  expect(swept.at(-1)).toMatchObject({ phase: 'runs', deleted: 1, cutoff: '2031-01-02T12:00:30.000Z' });
  while (worker.sweeping) await worker.sweepStep(new Date(now.getTime() + DAY));
  expect(await db.run.count({ where: { scheduleId } })).toBe(5);
});
