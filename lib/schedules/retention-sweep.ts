/**
 * The retention sweep (SPEC §9 `scheduler.run_retention_days`, default 30): run records whose fire
 * time (`created_at`) is older than the retention are deleted, a bounded batch at a time, and so are
 * activity entries (SPEC §15: the activity log is swept with the runs).
 * The worker calls `sweepExpiredRuns` repeatedly (one batch between two ticks) once at start and
 * every 24 h; see lib/db/sql/delete-expired-runs.ts for why a deleted run never fires again and why
 * several workers sweeping at once is harmless.
 */
import { deleteExpiredRows, type Db } from '../db';

/** Rows one sweep statement deletes at most. */
export const RUN_SWEEP_BATCH = 1000;

export interface SweepExpiredRunsOptions {
  db: Db;
  now: Date;
  /** Runs created more than this many days before `now` are deleted (≥ 1). */
  retentionDays: number;
  /** Most rows this call deletes. Default RUN_SWEEP_BATCH. */
  batchSize?: number;
}

/** The instant before which runs expire: `now − retentionDays × 24 h` (exclusive bound). */
export function retentionCutoff(now: Date, retentionDays: number): Date {
  return new Date(now.getTime() - retentionDays * 86_400_000);
}

/**
 * Delete one batch of expired runs and one of expired activity entries (each its own bounded
 * statement). `deleted` counts runs, `deletedActivity` entries; `done` is true when both had fewer
 * than a full batch left, i.e. the sweep has caught up (call again until it is).
 */
export async function sweepExpiredRuns(opts: SweepExpiredRunsOptions): Promise<{ deleted: number; deletedActivity: number; done: boolean; cutoff: Date }> {
  const batchSize = opts.batchSize ?? RUN_SWEEP_BATCH;
  const cutoff = retentionCutoff(opts.now, opts.retentionDays);
  const deleted = await deleteExpiredRows(opts.db, 'runs', cutoff, batchSize);
  const deletedActivity = await deleteExpiredRows(opts.db, 'activity', cutoff, batchSize);
  return { deleted, deletedActivity, done: deleted < batchSize && deletedActivity < batchSize, cutoff };
}
