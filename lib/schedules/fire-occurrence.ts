/**
 * The worker's fire of one due occurrence (SPEC §8), with the catch-up window. One transaction:
 * claim (compare-and-set on next_fire_at), invoke, record the run, advance or complete.
 */
import type { Limits } from '../config';
import type { Db, Tx } from '../db';
import { invokeTarget, type InvokeOutcome } from './invoke-target';
import { nextOccurrenceInWindow, type ScheduleTiming } from './occurrences';

/** Most occurrences counted one by one when skipping a long outage; beyond it we jump ahead. */
const MAX_SKIP_WALK = 100_000;

export type FireOutcome =
  | { kind: 'fired'; scheduleId: string; scheduledFor: Date; lateMs: number; run: InvokeOutcome; completed: boolean }
  | { kind: 'skipped'; scheduleId: string; scheduledFor: Date; skipped: number; completed: boolean }
  /** Another worker (or a save) moved next_fire_at first: nothing was written. */
  | { kind: 'lost-race'; scheduleId: string; scheduledFor: Date };

export interface FireOccurrenceOptions {
  db: Db;
  scheduleId: string;
  /** The occurrence the caller saw as due (the schedule's next_fire_at when it was listed). */
  scheduledFor: Date;
  now: Date;
  limits: Limits;
}

function timingOf(row: { repeat: string; cronExpression: string | null; invocationTime: string | null; timezone: string; startDate: Date | null; endDate: Date | null }): ScheduleTiming {
  return { ...row, repeat: row.repeat as ScheduleTiming['repeat'] };
}

/**
 * Fire the occurrence `scheduledFor` of schedule `scheduleId`, or skip it when it is later than the
 * catch-up window (SPEC §8: skipped occurrences are counted on the schedule; the schedule continues
 * from the first occurrence inside the window). Never fires an occurrence twice; see the CAS below.
 */
export async function fireOccurrence(opts: FireOccurrenceOptions): Promise<FireOutcome> {
  const { db, scheduleId, scheduledFor, now, limits } = opts;
  // Read and compute outside the transaction; the claim below re-checks that the row is unchanged.
  const row = await db.schedule.findUnique({ where: { id: scheduleId } });
  if (!row || row.state !== 'active' || !row.enabled || row.nextFireAt?.getTime() !== scheduledFor.getTime()) {
    return { kind: 'lost-race', scheduleId, scheduledFor };
  }
  const timing = timingOf(row);
  const lateMs = now.getTime() - scheduledFor.getTime();
  const windowStart = new Date(now.getTime() - limits.catchupWindowSeconds * 1000);
  const seen = { id: scheduleId, scheduledFor, updatedAt: row.updatedAt };

  if (scheduledFor < windowStart) {
    // Missed beyond the catch-up window: count every occurrence older than the window, continue from
    // the first one inside it (which may still be due now and then fires late on the next tick).
    let skipped = 0;
    let next: Date | null = scheduledFor;
    while (next && next < windowStart && skipped < MAX_SKIP_WALK) {
      skipped++;
      next = nextOccurrenceInWindow(timing, next);
    }
    if (next && next < windowStart) next = nextOccurrenceInWindow(timing, new Date(windowStart.getTime() - 1));
    const claimed = await db.$transaction((tx) => claim(tx, seen, next, now, skipped));
    if (!claimed) return { kind: 'lost-race', scheduleId, scheduledFor };
    return { kind: 'skipped', scheduleId, scheduledFor, skipped, completed: next === null };
  }

  const next = nextOccurrenceInWindow(timing, scheduledFor);
  return db.$transaction(async (tx): Promise<FireOutcome> => {
    if (!(await claim(tx, seen, next, now, 0))) return { kind: 'lost-race', scheduleId, scheduledFor };
    const run = await invokeTarget(tx, { schedule: row, trigger: 'schedule', scheduledFor, now });
    return { kind: 'fired', scheduleId, scheduledFor, lateMs, run, completed: next === null };
  });
}

/**
 * Exactly once (SPEC §8): this compare-and-set on next_fire_at is the claim. A second worker (or a
 * restarted one re-reading an old listing) matches 0 rows for the same scheduled_for and fires
 * nothing. It is the first statement of the transaction, so SQLite takes the write lock here, before
 * any read snapshot can go stale; keep it first, and in the same transaction as the run insert.
 */
async function claim(
  tx: Tx,
  seen: { id: string; scheduledFor: Date; updatedAt: Date },
  next: Date | null,
  now: Date,
  skipped: number,
): Promise<boolean> {
  const { count } = await tx.schedule.updateMany({
    // `updatedAt` proves the row is the one `next` was computed from (no save in between).
    where: { id: seen.id, nextFireAt: seen.scheduledFor, updatedAt: seen.updatedAt, state: 'active', enabled: true },
    data: {
      nextFireAt: next,
      ...(next === null ? { state: 'completed' } : {}),
      ...(skipped ? { skippedOccurrences: { increment: skipped } } : {}),
      updatedAt: now,
    },
  });
  return count === 1;
}

/**
 * Due occurrences: schedules whose next_fire_at ≤ now, oldest first, through the next_fire_at index
 * (never a scan of every schedule). Disabled and completed schedules have next_fire_at null.
 */
export async function listDueOccurrences(db: Db, now: Date, limit: number): Promise<{ scheduleId: string; scheduledFor: Date }[]> {
  const rows = await db.schedule.findMany({
    where: { nextFireAt: { lte: now } },
    orderBy: { nextFireAt: 'asc' },
    take: limit,
    select: { id: true, nextFireAt: true },
  });
  return rows.flatMap((r) => (r.nextFireAt ? [{ scheduleId: r.id, scheduledFor: r.nextFireAt }] : []));
}
