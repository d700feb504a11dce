/**
 * Graceful shutdown (SIGTERM/SIGINT call `stop`): the worker finishes the batch in hand — it commits
 * whole — then leaves the loop and marks its heartbeat stopped (the row stays until a live worker prunes it). `worker/main.ts` then exits 0 (checked with
 * real signals in worker.sigkill and worker.scale-out).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Db } from '../../lib/db';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { createTestDb } from '../../lib/testing/test-db';
import { seed } from '../../prisma/seed';
import { Worker } from '../worker';
import { TEST_LIMITS } from '../../lib/testing/limits';

const LIMITS = TEST_LIMITS;
const TARGET = { target: { org: 'acme-corp', blob: 'procedures', revision: 'default', session: 'nightly-batch' }, workflow: { definition: 'triage' }, input_data: [] };

let db: Db;
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ db, cleanup } = await createTestDb());
});
afterAll(async () => cleanup());

it('stop() during a tick: the batch in hand commits whole, nothing more is claimed, the heartbeat is marked stopped', async () => {
  const ctx = await seed(db, undefined);
  const now = new Date('2030-11-01T00:00:30Z');
  const ids = await insertSchedules(
    db,
    Array.from({ length: 30 }, (_, i) => ({ revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org' as const, id: ctx.orgId }, invocationTarget: TARGET, nextFireAt: new Date(now.getTime() - 20_000 + i) })),
  );
  const worker = new Worker({ db, limits: LIMITS, batchSize: 10, pollIntervalMs: 50, clock: () => now });
  let ticks = 0;
  worker.events.on('tick:start', () => {
    ticks++;
    worker.stop('SIGTERM'); // arrives while the first batch is in hand
  });
  await worker.run();
  expect(ticks).toBe(1);
  expect(await db.run.count({ where: { scheduleId: { in: ids } } })).toBe(10);
  expect(await db.execution.count({ where: { scheduleId: { in: ids } } })).toBe(10);
  expect(await db.schedule.count({ where: { id: { in: ids }, nextFireAt: { lte: now } } })).toBe(20);
  const beat = await db.workerHeartbeat.findUniqueOrThrow({ where: { id: worker.id } });
  expect(beat.stoppedAt?.toISOString()).toBe(now.toISOString());
});
