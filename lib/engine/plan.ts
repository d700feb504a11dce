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
import type { SkipReason } from './outcomes';

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
  | { kind: 'skip'; row: ClaimedSchedule; next: NextOccurrence | null; skipped: number; reason: SkipReason; skippedOutsideWindow: number; state: 'active' | 'completed' }
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
  // SPEC §8, §18.2: first what catching up decides (pure); only the occurrences it fires now are read about.
  const caught = new Map(rows.map((r) => [r.id, catchUp(r, now, limits)]));
  const firing = rows.filter((r) => caught.get(r.id)?.kind === 'fire');
  const alreadyFired = await findFiredOccurrences(tx, firing.map((r) => ({ scheduleId: r.id, scheduledFor: r.nextScheduledFor })));
  // SPEC §16.2: only a schedule that expects completion can have a run in progress; `allow_all` ignores it.
  const guarded = firing.filter((r) => r.completionExpectSeconds !== null && r.overlapPolicy !== 'allow_all' && !alreadyFired.has(r.id));
  const inProgress = await findInProgress(tx, guarded.map((r) => r.id));
  return rows.map((row) => plan(row, caught.get(row.id)!, alreadyFired.has(row.id), inProgress.get(row.id)));
}

/**
 * How late an occurrence may be and still count as on time (a busy worker's tick, not a backlog), in
 * ms: a later one was missed, and the schedule's catch-up policy decides whether it fires (SPEC §18.2,
 * docs/decisions.md 296). A catch-up window shorter than this is this long.
 */
export const ON_TIME_GRACE_MS = 10_000;

/** SPEC §18.2: the schedule's `catch_up`, or the scheduler-wide window with `all` and no cap. */
export interface CatchUpPolicy {
  windowMs: number;
  mode: 'all' | 'latest' | 'none';
  maxBurst: number | null;
}

export function catchUpPolicyOf(row: Pick<ClaimedSchedule, 'catchUpMode' | 'catchUpWindowSeconds' | 'catchUpMaxBurst'>, limits: Pick<Limits, 'catchupWindowSeconds'>): CatchUpPolicy {
  if (row.catchUpMode === null) return { windowMs: limits.catchupWindowSeconds * 1000, mode: 'all', maxBurst: null };
  return { windowMs: (row.catchUpWindowSeconds ?? 0) * 1000, mode: row.catchUpMode, maxBurst: row.catchUpMaxBurst };
}

/** What catching up decides for a claimed occurrence: fire it (on time, or a missed one kept), or skip to `next`. */
type CaughtUp = { kind: 'fire' } | { kind: 'skip'; next: NextOccurrence | null; skipped: number; reason: SkipReason; skippedOutsideWindow: number } | { kind: 'error'; error: Error };

const MODE_SKIP_REASON = { all: 'catchup-max-burst', latest: 'catchup-latest', none: 'catchup-none' } as const satisfies Record<string, SkipReason>;

/**
 * The occurrence of `row` strictly after `after` (UTC) and when it fires (its flexible offset
 * applied), or null when the schedule has none. A module function, not a closure per row: the
 * worker runs through tsx, whose kept names cost ~0.8 µs per closure made (docs/performance.md).
 */
function following(row: ClaimedSchedule, after: Date): NextOccurrence | null {
  const scheduledFor = nextOccurrenceInWindow(row, after);
  return scheduledFor ? { scheduledFor, fireAt: fireAtOf(row.id, row.flexibleWindowMinutes, scheduledFor) } : null;
}

/**
 * SPEC §8, §18.2 for one claimed occurrence at `now`. On time (at most ON_TIME_GRACE_MS late): fire.
 * Otherwise the worker was down or behind, and every occurrence due since is looked at, oldest first:
 * those due before the window (`window_seconds`, counted from each offset instant, §12.4) are skipped;
 * of the missed ones inside it, `all` keeps every one (at most the `max_burst` most recent), `latest`
 * only the most recent (none when an on-time one follows it: that one is the latest), `none` none.
 * Every occurrence not kept is skipped, counted; the schedule continues from the first one kept (it
 * fires now, or on the next tick), else from the first one not missed: it never stops for a backlog.
 */
function catchUp(row: ClaimedSchedule, now: Date, limits: Limits): CaughtUp {
  const lateMs = now.getTime() - row.nextFireAt.getTime();
  if (lateMs <= ON_TIME_GRACE_MS) return { kind: 'fire' };
  try {
    const policy = catchUpPolicyOf(row, limits);
    const windowStart = new Date(now.getTime() - Math.max(policy.windowMs, ON_TIME_GRACE_MS));
    const onTimeFrom = new Date(now.getTime() - ON_TIME_GRACE_MS);
    // Beyond the window: skipped, whatever the mode.
    let skipped = 0;
    let cur: NextOccurrence | null = { scheduledFor: row.nextScheduledFor, fireAt: row.nextFireAt };
    while (cur && cur.fireAt < windowStart && skipped < MAX_SKIP_WALK) {
      skipped++;
      cur = following(row, cur.scheduledFor);
    }
    // A flexible offset is under one day: jumping to a day before the window lands before it.
    if (cur && cur.fireAt < windowStart) cur = following(row, new Date(windowStart.getTime() - 86_400_000 - 1));
    while (cur && cur.fireAt < windowStart) cur = following(row, cur.scheduledFor);
    const keep = policy.mode === 'all' ? (policy.maxBurst ?? Infinity) : policy.mode === 'latest' ? 1 : 0;
    if (keep === Infinity) return skipped === 0 ? { kind: 'fire' } : { kind: 'skip', next: cur, skipped, reason: 'outside-catchup-window', skippedOutsideWindow: skipped };
    const outside = skipped;
    // Missed inside the window: the `keep` most recent are kept (a ring of them), the rest skipped.
    const kept: NextOccurrence[] = [];
    let missed = 0;
    while (cur && cur.fireAt < onTimeFrom && missed < MAX_SKIP_WALK) {
      missed++;
      if (keep > 0) {
        kept.push(cur);
        if (kept.length > keep) kept.shift();
      }
      cur = following(row, cur.scheduledFor);
    }
    if (cur && cur.fireAt < onTimeFrom) {
      // Past the walk's bound (a window of months of minutely occurrences): keep none of them, jump.
      kept.length = 0;
      cur = following(row, new Date(onTimeFrom.getTime() - 86_400_000 - 1));
      while (cur && cur.fireAt < onTimeFrom) cur = following(row, cur.scheduledFor);
    }
    // `latest`: an on-time occurrence after the missed ones is the most recent: it alone fires.
    if (policy.mode === 'latest' && cur && cur.fireAt.getTime() <= now.getTime()) kept.length = 0;
    const byMode = missed - kept.length;
    skipped += byMode;
    if (skipped === 0) return { kind: 'fire' };
    return { kind: 'skip', next: kept[0] ?? cur, skipped, reason: byMode > 0 ? MODE_SKIP_REASON[policy.mode] : 'outside-catchup-window', skippedOutsideWindow: outside };
  } catch (e) {
    return { kind: 'error', error: toError(e) };
  }
}

/**
 * What to do with one claimed occurrence, once catching up decided (`catchUp`): skipped ones are
 * counted and the schedule continues from `next` (which may itself be due now and then fires late on
 * the next tick; a `one_time` schedule missed that way completes with no run); otherwise it fires,
 * unless it already fired or a run is in progress (SPEC §16.2).
 */
function plan(row: ClaimedSchedule, caught: CaughtUp, alreadyFired: boolean, inProgress: InProgress | undefined): Plan {
  if (caught.kind === 'error') return { kind: 'error', row, error: caught.error };
  try {
    if (caught.kind === 'skip') return { kind: 'skip', row, next: caught.next, skipped: caught.skipped, reason: caught.reason, skippedOutsideWindow: caught.skippedOutsideWindow, state: caught.next ? 'active' : 'completed' };
    // Strictly after the occurrence: next_fire_at only ever moves forward.
    const next = following(row, row.nextScheduledFor);
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
