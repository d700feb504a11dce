/**
 * Step 2 of a fire, PLAN (SPEC §8, §12.4, §12.5): the one place that decides what becomes of each
 * claimed occurrence — fire it, skip it (due before the catch-up window), or advance it without
 * firing (it already has a first attempt) — and what follows it: the next occurrence and when it is
 * due, or none (the schedule completes, unless its last attempt may still be retried or is delivered
 * after commit). Pure but for one read (which occurrences already fired); nothing is written here.
 */
import type { Limits } from '../config';
import { findFiredOccurrences, findInProgress, type ClaimedSchedule, type InProgress, type Tx } from '../db';
import { toError } from '../errors';
import { driverOf } from '../targets';
import { fireAtOf, nextOccurrenceInWindow } from './occurrences';
import { retryPolicyOf } from './retry-policy';

/** Most occurrences counted one by one when skipping a long outage; beyond it we jump ahead. */
const MAX_SKIP_WALK = 100_000;

/** The occurrence that follows a claimed one, and when it is due (with its flexible-window offset). */
export interface NextOccurrence {
  scheduledFor: Date;
  fireAt: Date;
}

/**
 * What becomes of one claimed occurrence. `state`: the schedule's state once advanced — `completed`
 * when nothing follows and nothing more can fire, else `active`.
 */
export type Plan =
  | { kind: 'fire'; row: ClaimedSchedule; next: NextOccurrence | null; state: 'active' | 'completed' }
  | { kind: 'already-fired'; row: ClaimedSchedule; next: NextOccurrence | null; state: 'active' | 'completed' }
  | { kind: 'skip'; row: ClaimedSchedule; next: NextOccurrence | null; skipped: number; state: 'active' | 'completed' }
  /**
   * SPEC §16.2: due while run `inProgressRunId` is in progress: recorded `skipped` (`skip`, or
   * `buffer_one` with one already waiting), or kept waiting until it ends (`buffer`).
   */
  | { kind: 'overlap'; row: ClaimedSchedule; next: NextOccurrence | null; action: 'skip' | 'buffer'; inProgressRunId: string; state: 'active' | 'completed' }
  /** The following occurrence could not be computed: the row is neither advanced nor fired. */
  | { kind: 'error'; row: ClaimedSchedule; error: Error };

/**
 * Plan every claimed occurrence at instant `now` under `limits` (the catch-up window, SPEC §8). One
 * read: which occurrences inside the window already have a first attempt.
 */
export async function planOccurrences(tx: Tx, rows: ClaimedSchedule[], now: Date, limits: Limits): Promise<Plan[]> {
  const windowStart = new Date(now.getTime() - limits.catchupWindowSeconds * 1000);
  const inWindow = rows.filter((r) => r.nextFireAt >= windowStart);
  const alreadyFired = await findFiredOccurrences(tx, inWindow.map((r) => ({ scheduleId: r.id, scheduledFor: r.nextScheduledFor })));
  // SPEC §16.2: only a schedule that expects completion can have a run in progress; `allow_all` ignores it.
  const guarded = inWindow.filter((r) => r.completionExpectSeconds !== null && r.overlapPolicy !== 'allow_all' && !alreadyFired.has(r.id));
  const inProgress = await findInProgress(tx, guarded.map((r) => r.id));
  return rows.map((row) => plan(row, windowStart, alreadyFired.has(row.id), inProgress.get(row.id)));
}

/**
 * What to do with one claimed occurrence. Beyond the catch-up window (SPEC §8, counted from the
 * offset instant, §12.4): count every occurrence due before the window and continue from the first
 * one due inside it (which may itself be due now and then fires late on the next tick). A `one_time`
 * schedule missed that way completes with no run.
 */
function plan(row: ClaimedSchedule, windowStart: Date, alreadyFired: boolean, inProgress: InProgress | undefined): Plan {
  try {
    const following = (after: Date): NextOccurrence | null => {
      const scheduledFor = nextOccurrenceInWindow(row, after);
      return scheduledFor ? { scheduledFor, fireAt: fireAtOf(row.id, row.flexibleWindowMinutes, scheduledFor) } : null;
    };
    if (row.nextFireAt < windowStart) {
      let skipped = 0;
      let next: NextOccurrence | null = { scheduledFor: row.nextScheduledFor, fireAt: row.nextFireAt };
      while (next && next.fireAt < windowStart && skipped < MAX_SKIP_WALK) {
        skipped++;
        next = following(next.scheduledFor);
      }
      // A flexible offset is under one day: jumping to a day before the window lands before it.
      if (next && next.fireAt < windowStart) next = following(new Date(windowStart.getTime() - 86_400_000 - 1));
      while (next && next.fireAt < windowStart) next = following(next.scheduledFor);
      return { kind: 'skip', row, next, skipped, state: next ? 'active' : 'completed' };
    }
    // Strictly after the occurrence: next_fire_at only ever moves forward.
    const next = following(row.nextScheduledFor);
    if (alreadyFired) return { kind: 'already-fired', row, next, state: next ? 'active' : 'completed' };
    if (inProgress?.runId) {
      const buffer = row.overlapPolicy === 'buffer_one' && !inProgress.buffered;
      // A waiting occurrence keeps its schedule active until it is delivered.
      return { kind: 'overlap', row, next, action: buffer ? 'buffer' : 'skip', inProgressRunId: inProgress.runId, state: next || buffer ? 'active' : 'completed' };
    }
    // A last occurrence that may still be retried, or whose attempt is delivered after this
    // transaction (SPEC §13), keeps the schedule active until it ends.
    const endsLater = retryPolicyOf(row) !== null || driverOf(row.invocationTargetType)?.mode === 'after-commit';
    return { kind: 'fire', row, next, state: next || endsLater ? 'active' : 'completed' };
  } catch (e) {
    // Validated at save, so not expected (a zone dropped from the tz database, an expression past
    // the time engine's work budget: CronWorkBudgetExceeded). The row is neither advanced nor fired;
    // settle's `pauseUnplanned` pauses it with the reason, so it never comes back every tick.
    return { kind: 'error', row, error: toError(e) };
  }
}
