/**
 * A worker draining a backlog (every tick full) does its housekeeping between ticks at most once a
 * second of its clock (docs/decisions.md 411): here a run's completion deadline passes while the loop
 * fires a 30-occurrence backlog in batches of 10. `timed_out` is decided at the first loop a second
 * after the last housekeeping — before the third tick, not the second — and nothing is left undecided.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../lib/db';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { TEST_LIMITS } from '../../lib/testing/limits';
import { createTestDb } from '../../lib/testing/test-db';
import { seed } from '../../prisma/seed';
import { Worker } from '../worker';

const TARGET = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] };

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

it('§16.1 while every tick is full, timed_out waits for the once-a-second housekeeping, then is decided once', async () => {
  const ctx = await seed(db, undefined);
  const t0 = new Date('2030-11-01T00:00:30Z');
  const at = (ms: number) => new Date(t0.getTime() + ms);
  const base = { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: TARGET };
  const backlog = await insertSchedules(db, Array.from({ length: 30 }, (_, i) => ({ ...base, nextFireAt: at(-20_000 + i) })));
  // A run fired earlier, still `pending`, whose completion deadline passes 500 ms into the drain.
  const [waiting] = await insertSchedules(db, [{ ...base, nextFireAt: new Date('2099-01-01T00:00:00Z') }]);
  const run = await db.run.create({
    data: { scheduleId: waiting, scheduledFor: at(-60_000), trigger: 'schedule', attempt: 1, status: 'success', result: {}, invocationTargetType: 'workflow', invocationTarget: TARGET, createdAt: at(-60_000), outcome: 'pending', startedAt: at(-60_000), outcomeDueAt: at(500) },
  });

  let now = t0;
  const worker = new Worker({ db, limits: TEST_LIMITS, batchSize: 10, pollIntervalMs: 50, clock: () => now });
  let ticks = 0;
  const timedOutAtTick: number[] = [];
  worker.events.on('outcome:timed-out', (p) => {
    if (p.runs.some((r) => r.runId === run.id)) timedOutAtTick.push(ticks);
  });
  worker.events.on('tick:end', (p) => {
    ticks++;
    // The worker's clock moves on between ticks: 600 ms after tick 1 (deadline passed, under a
    // second since the housekeeping at t0), 1,100 ms after tick 2 (a second since it).
    if (ticks === 1) now = at(600);
    if (ticks === 2) now = at(1_100);
    if (p.claimed === 0) worker.stop('SIGTERM');
  });
  await worker.run();

  // Ticks 1–3 fired the backlog (10 each); the 4th found nothing due and stopped the worker.
  expect(ticks).toBe(4);
  expect(await db.run.count({ where: { scheduleId: { in: backlog } } })).toBe(30);
  // Decided before tick 3 (after tick 2), once: not before tick 2, although its deadline had passed.
  expect(timedOutAtTick).toEqual([2]);
  const decided = await db.run.findUniqueOrThrow({ where: { id: run.id } });
  expect(decided.outcome).toBe('timed_out');
  expect(decided.finishedAt?.toISOString()).toBe(at(1_100).toISOString());
});
