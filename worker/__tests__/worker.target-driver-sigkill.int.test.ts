/**
 * STYLE §7, SPEC §13 through crashes, on the dialect of TEST_DATABASE: a target type no engine file
 * names — the test-only `memory` type, registered in each worker process by a preload
 * (lib/testing/memory-target-worker.ts), delivered after commit — fired by real worker processes
 * (`worker/main.ts`). 20 schedules due at once; each delivery holds its pool slot 1.5 s; the first
 * worker is SIGKILLed while deliveries are in flight, a second one recovers them once their leases end
 * (the workers' clock runs 20 times faster: the 61 s lease ends in about 3 s). Afterwards every
 * occurrence has exactly one run, no occurrence id was delivered more than twice, and every id
 * delivered twice belongs to a run that says so (`repeated_delivery`).
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { workerClock } from '../../lib/config';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { MEMORY_TARGET, type MemoryDelivery } from '../../lib/testing/memory-target';
import { repeatedDeliveries } from '../../lib/testing/repeated-deliveries';
import { exited, sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';
import { seed } from '../../prisma/seed';

const SCHEDULES = 20;
const RATE = 20;

const t = useTestDatabase();

it('§13 a test-registered after-commit target type, SIGKILL during its deliveries: every occurrence has one run; at most one repeated delivery per interrupted attempt, said on its run', async () => {
  const log = path.join(tmpdir(), `memory-target-${randomUUID()}.jsonl`);
  const epochMs = Date.now();
  const clock = workerClock({ epochMs, rate: RATE });
  const startWorker = (holdMs: number) =>
    spawnWorker(
      t.url,
      { WORKER_POLL_INTERVAL_MS: '100', WORKER_BATCH_SIZE: '10', LOG_LEVEL: 'error', WORKER_TEST_CLOCK: `${epochMs}:${RATE}`, SCHEDULER_CATCHUP_WINDOW_SECONDS: '3600', SCHEDULER_DELIVERY_CONCURRENCY: '4', MEMORY_TARGET_LOG: log, MEMORY_TARGET_HOLD_MS: String(holdMs) },
      ['lib/testing/memory-target-worker.ts'],
    );
  const delivered = (): MemoryDelivery[] => {
    try {
      return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as MemoryDelivery);
    } catch {
      return [];
    }
  };
  const waitFor = async (what: () => boolean | Promise<boolean>, ms: number) => {
    for (const until = Date.now() + ms; Date.now() < until; await sleep(25)) if (await what()) return true;
    return false;
  };
  const db = t.db;
  try {
    const ctx = await seed(db, undefined);
    await db.schedule.updateMany({ data: { enabled: false, nextFireAt: null } });
    const due = new Date(clock().getTime() - 1_000);
    const ids = await insertSchedules(
      db,
      Array.from({ length: SCHEDULES }, (_, i) => ({
        revisionId: ctx.schedulerRevisionId,
        createdBy: { type: 'org' as const, id: ctx.orgId },
        invocationTargetType: MEMORY_TARGET.type,
        invocationTarget: { inbox: `inbox-${i}` },
        cronExpression: '0 0 1 1 ? *',
        nextFireAt: due,
      })),
    );

    // 1. Killed while its first deliveries hold their slots (sent, not answered, not recorded).
    let w = startWorker(1_500);
    expect(await waitFor(() => delivered().length >= 4, 60_000)).toBe(true);
    w.kill('SIGKILL');
    await exited(w);
    const beforeKill = delivered().length;
    expect(await db.run.count({ where: { scheduleId: { in: ids } } })).toBeLessThan(SCHEDULES);
    // 2. Restarted: it recovers the dead worker's attempts once their leases end, and delivers the rest.
    w = startWorker(0);
    const done = await waitFor(async () => (await db.run.count({ where: { scheduleId: { in: ids } } })) >= SCHEDULES && (await db.pendingAttempt.count({ where: { scheduleId: { in: ids } } })) === 0, 90_000);
    w.kill('SIGKILL');
    await exited(w);
    expect(done).toBe(true);

    const runs = await db.run.findMany({ where: { scheduleId: { in: ids } } });
    expect(runs.length).toBe(SCHEDULES);
    expect(new Set(runs.map((r) => r.scheduleId)).size).toBe(SCHEDULES);
    const { problems, repeated } = repeatedDeliveries(runs, delivered().map((d) => d.deliveryId));
    expect(problems).toEqual([]);
    // The kill did interrupt deliveries in flight: the ones it held were delivered again.
    expect(beforeKill).toBeGreaterThanOrEqual(4);
    expect(repeated).toBeGreaterThanOrEqual(1);
    expect(runs.every((r) => r.status === 'success')).toBe(true);
  } finally {
    rmSync(log, { force: true });
  }
}, 240_000);
