import type { Actor } from '../../auth';
import type { Limits } from '../../config';
import { inTransaction, lockSchedule, type Db } from '../../db';
import { DomainError } from '../../errors';
import { requireSchedulerRole } from '../access';
import type { Run } from '../contract';
import { getScheduleRow } from '../read/find-schedule';
import type { Engine } from '../../engine';
import type { DeliveryDeps } from '../../targets';
import { recordActivity } from '../activity';
import { schedulerEngine } from '../engine';
import { toRun } from '../read/serialize';

/**
 * `run_schedule` (SPEC §3.1): fire now, recorded with `trigger: "manual"`. Keyed apart from
 * occurrences, so it never consumes, blocks or duplicates one; `next_fire_at` is untouched. Concurrent
 * calls for one schedule each record their own run (docs/decisions.md 101).
 * Throws `404 schedule_not_found`, `409 schedule_completed`.
 */
export interface RunScheduleOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  /** Id or alias. */
  scheduleRef: string;
  /**
   * The fire's instant (UTC): the run's `created_at`, and its `scheduled_for` unless another manual run
   * of the schedule already holds that millisecond (then the next free one after it).
   */
  now: Date;
  /** SPEC §9 limits (the per-session execution limit applies to a manual fire too). */
  limits: Limits;
  /** The process's delivery pool and destination rules, for an after-commit target (SPEC §13). */
  delivery?: DeliveryDeps;
  /** The fire engine with the process's facades (default: the product's, `schedulerEngine`). */
  engine?: Engine;
  /** SPEC §16.2: `skip` records the run `skipped` (not delivered) while one is in progress. Default `allow_all`. */
  overlap?: 'allow_all' | 'skip';
}

export async function runSchedule(opts: RunScheduleOptions): Promise<Run> {
  const { db, actor, revision, now, limits } = opts;
  const engine = opts.engine ?? schedulerEngine;
  const started = await inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const found = await getScheduleRow(tx, revision.id, opts.scheduleRef);
    // Manual fires of one schedule take turns: the row lock (PostgreSQL FOR UPDATE; SQLite's
    // BEGIN IMMEDIATE already holds the write lock) makes the read of the latest manual run below
    // current until this transaction commits.
    const row = (await lockSchedule(tx, found.id)) ?? found;
    if (row.state === 'completed') throw new DomainError('schedule_completed', 'this schedule is completed; it can no longer fire');
    // A manual run is keyed (schedule, scheduled_for, "manual", 1): two run-nows in the same
    // millisecond would collide on it. Each takes `now`, or 1 ms after the latest manual run (or
    // manual attempt in flight) at or after `now`, so concurrent run-nows all record, in the order
    // they took the lock.
    const [latestRun, latestInFlight] = await Promise.all([
      tx.run.findFirst({ where: { scheduleId: row.id, trigger: 'manual', scheduledFor: { gte: now } }, orderBy: { scheduledFor: 'desc' }, select: { scheduledFor: true } }),
      tx.pendingAttempt.findFirst({ where: { scheduleId: row.id, trigger: 'manual', scheduledFor: { gte: now } }, orderBy: { scheduledFor: 'desc' }, select: { scheduledFor: true } }),
    ]);
    const latest = Math.max(latestRun?.scheduledFor.getTime() ?? -Infinity, latestInFlight?.scheduledFor.getTime() ?? -Infinity);
    const scheduledFor = Number.isFinite(latest) ? new Date(latest + 1) : now;
    const started = await engine.startManualFire(tx, row, { scheduledFor, now, limits, overlap: opts.overlap ?? 'allow_all' });
    // SPEC §15: who pressed Run now, in the transaction that fires (an external target's run follows its delivery).
    await recordActivity(tx, { revisionId: revision.id, schedule: { id: row.id, name: row.name, alias: row.alias }, action: 'run_now', executionId: started.runId, by: actor, at: now });
    return started;
  });
  // SPEC §13: an after-commit target is delivered after commit, outside any transaction.
  await engine.finishManualFire(db, started, opts.delivery);
  const run = await db.run.findUnique({ where: { id: started.runId } });
  if (!run) throw new DomainError('schedule_not_found', 'the schedule was deleted while its manual fire was delivered; the delivery was not recorded');
  return toRun(run);
}
