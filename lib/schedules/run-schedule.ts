import type { Actor } from '../auth';
import type { Limits } from '../config';
import { inTransaction, type Db } from '../db';
import { DomainError } from '../errors';
import { requireSchedulerRole } from './access';
import type { Run } from './contract';
import { getScheduleRow } from './find-schedule';
import { invokeAndRecord } from './invoke-target';
import { toRun } from './serialize';

/**
 * `run_schedule` (SPEC §3.1): fire now, recorded with `trigger: "manual"`. Keyed apart from
 * occurrences, so it never consumes, blocks or duplicates one; `next_fire_at` is untouched.
 * Throws `404 schedule_not_found`, `409 schedule_completed`.
 */
export interface RunScheduleOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  /** Id or alias. */
  scheduleRef: string;
  /** The fire's instant (UTC): the run's `scheduled_for` and `created_at`. */
  now: Date;
  /** SPEC §9 limits (the per-session execution limit applies to a manual fire too). */
  limits: Limits;
}

export async function runSchedule(opts: RunScheduleOptions): Promise<Run> {
  const { db, actor, revision, now, limits } = opts;
  return inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const row = await getScheduleRow(tx, revision.id, opts.scheduleRef);
    if (row.state === 'completed') throw new DomainError('schedule_completed', 'this schedule is completed; it can no longer fire');
    const out = await invokeAndRecord(tx, { schedule: row, trigger: 'manual', scheduledFor: now, attempt: 1, now }, limits);
    const run = await tx.run.findUniqueOrThrow({ where: { id: out.runId } });
    return toRun(run);
  });
}
