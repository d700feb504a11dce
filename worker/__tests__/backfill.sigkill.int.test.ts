/**
 * SPEC §18.1 through crashes, on the dialect of TEST_DATABASE: a backfill of 500 minutely occurrences
 * with `max_concurrency: 5`, fired by real worker processes (`worker/main.ts`) to an after-commit
 * target (the test-only `memory` type, each delivery holding its pool slot 100 ms), while the worker
 * is SIGKILLed 5 times and restarted. Meanwhile the same schedule's own minutely occurrences fall due.
 * The workers' clock runs 10 times faster (a minute is 6 s; a dead worker's 61 s lease ends in about
 * 6 s); the catch-up window is an hour of it, so a slow restart skips nothing. Afterwards: 500 backfill runs, one per occurrence, none duplicated; never more than 5 of the
 * backfill's attempts in flight (sampled every 20 ms); each interrupted delivery repeated at most once
 * and said so; and every own occurrence fired once, on time while a worker was up, none skipped.
 */
import { readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { ChildProcess } from 'node:child_process';
import { expect, it } from 'vitest';
import { workerClock } from '../../lib/config';
import { backfillSchedule } from '../../lib/schedules';
import { insertSchedules } from '../../lib/testing/insert-schedules';
import { MEMORY_TARGET, type MemoryDelivery } from '../../lib/testing/memory-target';
import { repeatedDeliveries } from '../../lib/testing/repeated-deliveries';
import { exited, sleep, spawnWorker, useTestDatabase } from '../../lib/testing/worker-process';
import { seed } from '../../prisma/seed';

const RATE = 10;
const MINUTE = 60_000;
const OCCURRENCES = 500;
const MAX_CONCURRENCY = 5;
const KILLS = 5;

const t = useTestDatabase();

it('§18.1 500 backfill occurrences, max_concurrency 5, SIGKILL ×5: 500 runs, no duplicate, ≤ 5 in flight, own occurrences on time', async () => {
  const log = path.join(tmpdir(), `backfill-sigkill-${randomUUID()}.jsonl`);
  const epochMs = Date.now();
  const clock = workerClock({ epochMs, rate: RATE });
  const startWorker = (): ChildProcess =>
    spawnWorker(
      t.url,
      { WORKER_POLL_INTERVAL_MS: '50', WORKER_BATCH_SIZE: '10', LOG_LEVEL: 'error', WORKER_TEST_CLOCK: `${epochMs}:${RATE}`, SCHEDULER_CATCHUP_WINDOW_SECONDS: '3600', SCHEDULER_DELIVERY_CONCURRENCY: '16', MEMORY_TARGET_LOG: log, MEMORY_TARGET_HOLD_MS: '100' },
      ['lib/testing/memory-target-worker.ts'],
    );
  const delivered = (): MemoryDelivery[] => {
    try {
      return readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as MemoryDelivery);
    } catch {
      return [];
    }
  };
  const db = t.db;
  try {
    const ctx = await seed(db, undefined);
    await db.schedule.updateMany({ data: { enabled: false, nextFireAt: null } });
    const firstOwn = new Date(Math.ceil((clock().getTime() + 1) / MINUTE) * MINUTE);
    const [scheduleId] = await insertSchedules(db, [
      { revisionId: ctx.schedulerRevisionId, createdBy: { type: 'org', id: ctx.orgId }, invocationTargetType: MEMORY_TARGET.type, invocationTarget: { inbox: 'backfill' }, cronExpression: '* * * * ? *', nextFireAt: firstOwn },
    ]);
    const rev = await db.revision.findUniqueOrThrow({ where: { id: ctx.schedulerRevisionId } });
    const to = new Date(Math.floor(clock().getTime() / MINUTE) * MINUTE - 60 * MINUTE);
    const from = new Date(to.getTime() - OCCURRENCES * MINUTE);
    const backfill = await backfillSchedule({
      db,
      actor: { type: 'org', id: ctx.orgId, roleCap: null },
      revision: { id: rev.id, blobId: rev.blobId },
      scheduleRef: scheduleId,
      from,
      to,
      maxConcurrency: MAX_CONCURRENCY,
      now: clock(),
    });
    expect(backfill.total).toBe(OCCURRENCES);
    const trigger = `backfill:${backfill.id}`;

    // Sample the backfill's attempts in flight (in-flight rows, a dead worker's included) all along.
    let sampling = true;
    let maxInFlight = 0;
    let samples = 0;
    const sampler = (async () => {
      while (sampling) {
        maxInFlight = Math.max(maxInFlight, await db.pendingAttempt.count({ where: { scheduleId, trigger } }));
        samples++;
        await sleep(20);
      }
    })();

    // Up intervals (in the workers' clock): from a worker's first heartbeat to its kill.
    const up: [number, number][] = [];
    const waitUp = async (since: Date) => {
      for (const until = Date.now() + 30_000; Date.now() < until; await sleep(25)) {
        if ((await db.workerHeartbeat.count({ where: { lastSeenAt: { gte: since } } })) > 0) return clock().getTime();
      }
      throw new Error('the worker did not start');
    };
    let kills = 0;
    const firedAtKills: number[] = [];
    while (kills < KILLS) {
      const spawnedAt = clock();
      const w = startWorker();
      const ready = await waitUp(spawnedAt);
      // Kill it while the backfill is under way (after it fired a few more).
      await sleep(1000 + Math.random() * 1500);
      w.kill('SIGKILL');
      await exited(w);
      up.push([ready, clock().getTime()]);
      firedAtKills.push((await db.backfill.findUniqueOrThrow({ where: { id: backfill.id } })).fired);
      kills++;
    }
    // A last worker finishes the backfill.
    const spawnedAt = clock();
    const last = startWorker();
    const ready = await waitUp(spawnedAt);
    let state = '';
    for (const until = Date.now() + 90_000; Date.now() < until && state !== 'completed'; await sleep(100)) {
      state = (await db.backfill.findUniqueOrThrow({ where: { id: backfill.id } })).state;
    }
    // Four more own occurrences after the backfill completed, then stop: however soon the backfill
    // ended, the last worker's own up time holds at least two occurrences measured for lateness below
    // (one minute of this clock is 6 s real; the earlier workers live 1–2.5 s real each).
    const lastOwn = Math.floor(clock().getTime() / MINUTE) * MINUTE + 4 * MINUTE;
    for (const until = Date.now() + 45_000; Date.now() < until; await sleep(100)) {
      if ((await db.run.count({ where: { scheduleId, trigger: 'schedule', scheduledFor: new Date(lastOwn) } })) > 0) break;
    }
    last.kill('SIGTERM');
    expect(await exited(last)).toBe(0);
    up.push([ready, clock().getTime()]);
    sampling = false;
    await sampler;

    expect(state).toBe('completed');
    // The kills landed while the backfill was under way.
    expect(firedAtKills.filter((n) => n > 0 && n < OCCURRENCES).length).toBeGreaterThanOrEqual(3);

    // 500 runs, one per occurrence: no duplicate, no loss.
    const runs = await db.run.findMany({ where: { scheduleId, trigger }, select: { scheduledFor: true, attempt: true, status: true, result: true, scheduleId: true, trigger: true } });
    expect(runs).toHaveLength(OCCURRENCES);
    expect(new Set(runs.map((r) => r.scheduledFor.toISOString())).size).toBe(OCCURRENCES);
    // Each one delivered, or (a delivery interrupted twice by kills) recorded `delivery_interrupted` without a third send.
    const notDelivered = runs.filter((r) => r.attempt !== 1 || (r.status !== 'success' && (r.result as { error?: string }).error !== 'delivery_interrupted'));
    expect(notDelivered).toEqual([]);
    const expected = Array.from({ length: OCCURRENCES }, (_, i) => new Date(from.getTime() + (i + 1) * MINUTE).toISOString());
    expect(runs.map((r) => r.scheduledFor.toISOString()).sort()).toEqual(expected);
    // At least once to the receiver, at most twice, a repeat always said on its run.
    const backfillDeliveries = delivered().filter((d) => d.scheduledFor < firstOwn.toISOString());
    const { problems } = repeatedDeliveries(runs, backfillDeliveries.map((d) => d.deliveryId));
    expect(problems).toEqual([]);
    // Never more than max_concurrency in flight.
    expect(samples).toBeGreaterThan(100);
    expect(maxInFlight).toBeLessThanOrEqual(MAX_CONCURRENCY);
    expect(maxInFlight).toBe(MAX_CONCURRENCY);

    // The schedule's own occurrences: each fired once, none skipped, and on time while a worker was up.
    const own = await db.run.findMany({ where: { scheduleId, trigger: 'schedule' }, orderBy: { scheduledFor: 'asc' } });
    const ownExpected: string[] = [];
    for (let at = firstOwn.getTime(); at <= lastOwn; at += MINUTE) ownExpected.push(new Date(at).toISOString());
    const ownFired = own.map((r) => r.scheduledFor.toISOString());
    expect(ownExpected.filter((at) => !ownFired.includes(at)), `own occurrences missing (up: ${JSON.stringify(up.map(([a, b]) => [new Date(a).toISOString(), new Date(b).toISOString()]))})`).toEqual([]);
    expect(ownFired).toEqual(ownExpected);
    expect(ownExpected.length).toBeGreaterThanOrEqual(5);
    expect((await db.schedule.findUniqueOrThrow({ where: { id: scheduleId } })).skippedOccurrences).toBe(0);
    const whileUp = own.filter((r) => up.some(([a, b]) => r.scheduledFor.getTime() >= a + 2_000 && r.scheduledFor.getTime() <= b - 12_000));
    expect(whileUp.length).toBeGreaterThanOrEqual(2);
    // Recorded (delivered, 100 ms real = 1 s of this clock, included) within 10 s of the clock: 1 s real.
    const late = whileUp.map((r) => ({ at: r.scheduledFor.toISOString(), ms: r.createdAt.getTime() - r.scheduledFor.getTime() }));
    expect(late.filter((l) => l.ms > 10_000)).toEqual([]);
  } finally {
    rmSync(log, { force: true });
  }
}, 180_000);
