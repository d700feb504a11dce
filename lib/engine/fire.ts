/**
 * THE FIRE PATH (SPEC §8, §12, §13), one transaction per batch of due occurrences and due attempts:
 *
 *   claim.ts ─► plan.ts ─► advance.ts ─► attempt.ts ─► settle.ts ─► commit
 *   (lock due)  (decide)   (move next)   (drivers)     (runs and what they leave)
 *
 * Commit makes claims, advances, executions, runs, in-flight attempts, pending retries and dead
 * letters visible at once; a crash before it leaves every occurrence and attempt of the batch due, so
 * each fires exactly once. Attempts of after-commit drivers come back as `delivering` outcomes: the
 * caller delivers them after commit and records them (in-flight.ts).
 */
import type { Limits } from '../config';
import {
  BUFFERED_DUE_AT,
  cancelPendingAttempts,
  claimOccurrence,
  claimRetry,
  inTransaction,
  insertPendingAttempts,
  pauseUndecodable,
  UndecodableScheduleError,
  type ClaimedRetry,
  type ClaimedSchedule,
  type Db,
  type Tx,
} from '../db';
import { newId } from '../ids';
import { advance } from './advance';
import { makeAttempts, type FirstAttempt } from './attempt';
import { claimBatch, type Claimed } from './claim';
import type { EngineDeps, ScheduleFact } from './deps';
import { FIRE_TX, type FireOutcome } from './outcomes';
import { planOccurrences, type Plan } from './plan';
import { markCancelled, pauseUnplanned, recordRuns, settleAttempts } from './settle';

export interface FireDueOptions {
  db: Db;
  /** Occurrences with next_fire_at ≤ now and pending attempts with due_at ≤ now are due. */
  now: Date;
  /** Most occurrences, and most retries, claimed and fired in this one transaction (≥ 1 each). */
  limit: number;
  limits: Limits;
  /** The fire's instant (runs' `created_at`, lateness, catch-up), read once after the claim. Default: `now`. */
  clock?: () => Date;
}

/**
 * Claim up to `limit` due occurrences and up to `limit` due retries (oldest first) and fire them, in
 * one transaction. Returns one outcome per claimed occurrence or retry; an empty array when nothing
 * was due (or, on PostgreSQL, when every due row is held by other workers).
 */
export async function fireDue(deps: EngineDeps, opts: FireDueOptions): Promise<FireOutcome[]> {
  const { db, now, limit, limits } = opts;
  return inTransaction(db, async (tx) => {
    const unreadable: FireOutcome[] = [];
    let claimed: Claimed;
    for (;;) {
      try {
        // The claims are the transaction's first statements: see claim.ts for what they lock.
        claimed = await claimBatch(tx, now, limit);
        break;
      } catch (e) {
        // A due row the codec cannot read is held by this claim (PostgreSQL's row lock, SQLite's write
        // lock): it is paused here and the claim read again, so the batch's other rows fire in this
        // same transaction (decision 416). No SQL failed, so the transaction is intact.
        if (!(e instanceof UndecodableScheduleError) || !e.scheduledFor || unreadable.length >= limit) throw e;
        // A retry's schedule row is held by the retry claim whatever its next_fire_at.
        if (!(await pauseUnreadable(tx, e, e.retry ? null : e.scheduledFor, now))) throw e;
        unreadable.push(unreadableOutcome(e, e.scheduledFor));
      }
    }
    const { rows, retries } = claimed;
    if (rows.length === 0 && retries.length === 0) return unreadable;
    const outcomes = await fireClaimed(tx, deps, rows, retries, opts.clock?.() ?? now, limits);
    return unreadable.length ? [...unreadable, ...outcomes] : outcomes;
  }, FIRE_TX);
}

/**
 * Pause the schedule `e` names as the system, with the codec's reason, while its next_fire_at is
 * still `scheduledFor` (null: whatever it is), and cancel its pending retries (SPEC §12.2: disabling
 * cancels them); in `tx`.
 * True when it paused the row. No activity entry and no `paused` alert: both need the row's fields.
 */
async function pauseUnreadable(tx: Tx, e: UndecodableScheduleError, scheduledFor: Date | null, now: Date): Promise<boolean> {
  const note = `paused: the worker cannot read this schedule (${e.cause.message})`;
  if (!(await pauseUndecodable(tx, e.scheduleId, scheduledFor, note, now))) return false;
  await cancelPendingAttempts(tx, [e.scheduleId], { now, reason: 'the worker paused the schedule' });
  return true;
}

/** The `error` outcome of an occurrence whose schedule was paused as unreadable: its message says so. */
function unreadableOutcome(e: UndecodableScheduleError, scheduledFor: Date): FireOutcome {
  return { kind: 'error', scheduleId: e.scheduleId, scheduledFor, error: new Error(`${e.message}; the worker paused the schedule`, { cause: e }) };
}

export interface FireOccurrenceOptions {
  db: Db;
  scheduleId: string;
  /** When the occurrence the caller saw is due (the schedule's next_fire_at when it was listed). */
  scheduledFor: Date;
  now: Date;
  limits: Limits;
}

/**
 * Fire the one occurrence due at `scheduledFor` (next_fire_at) of `scheduleId` (or skip it beyond the
 * catch-up window), in its own transaction; `lost-race` when the schedule no longer waits for it. The
 * same path as `fireDue`, for one named occurrence (the worker's fallback when a batch fails, and tests).
 * A schedule row the engine cannot read (UndecodableScheduleError) is paused by the system with the
 * reason, in a transaction of its own, and comes back as an `error` outcome (docs/decisions.md 416);
 * `fireDue` does the same inside its batch.
 */
export async function fireOccurrence(deps: EngineDeps, opts: FireOccurrenceOptions): Promise<FireOutcome> {
  const { db, scheduleId, scheduledFor, now, limits } = opts;
  try {
    const [outcome] = await inTransaction(db, async (tx) => {
      const row = await claimOccurrence(tx, scheduleId, scheduledFor);
      if (!row) return [{ kind: 'lost-race', scheduleId, scheduledFor } as const];
      return fireClaimed(tx, deps, [row], [], now, limits);
    }, FIRE_TX);
    return outcome;
  } catch (e) {
    if (!(e instanceof UndecodableScheduleError) || e.scheduleId !== scheduleId) throw e;
    // Left due, the row would fail every batch that claims it. Paused only while still due at
    // `scheduledFor`; nothing was fired or recorded for it.
    const paused = await inTransaction(db, (tx) => pauseUnreadable(tx, e, scheduledFor, now), FIRE_TX);
    return paused ? unreadableOutcome(e, scheduledFor) : { kind: 'error', scheduleId, scheduledFor, error: e };
  }
}

/**
 * Fire the one pending attempt `pendingId` (a retry, or an interrupted delivery to recover) if it is
 * due at `now`, in its own transaction; `[]` when it is not (fired by another worker, or not due).
 * The worker's fallback when a batch fails, so a failing occurrence never holds up due retries.
 */
export async function fireRetry(deps: EngineDeps, opts: { db: Db; pendingId: string; now: Date; limits: Limits }): Promise<FireOutcome[]> {
  try {
    return await inTransaction(opts.db, async (tx) => {
      const retries = await claimRetry(tx, opts.pendingId, opts.now);
      return retries.length ? fireClaimed(tx, deps, [], retries, opts.now, opts.limits) : [];
    }, FIRE_TX);
  } catch (e) {
    // An unreadable schedule: paused (its pending attempts cancelled with it), as in a batch (decision 416).
    if (!(e instanceof UndecodableScheduleError) || !e.scheduledFor) throw e;
    const scheduledFor = e.scheduledFor;
    const paused = await inTransaction(opts.db, (tx) => pauseUnreadable(tx, e, null, opts.now), FIRE_TX);
    return [paused ? unreadableOutcome(e, scheduledFor) : { kind: 'error', scheduleId: e.scheduleId, scheduledFor, error: e }];
  }
}

/**
 * Fire claimed occurrences and retries at instant `now`, in the claim's transaction: plan each
 * occurrence, advance them all in one statement, make every attempt through its driver, settle what
 * was made here (SPEC §12.2–§12.5); attempts stored in flight come back as `delivering` outcomes.
 * `firsts`: a backfill's claimed occurrences (backfill.ts), first attempts that no plan holds.
 */
export async function fireClaimed(tx: Tx, deps: EngineDeps, rows: ClaimedSchedule[], retries: ClaimedRetry[], now: Date, limits: Limits, firsts: FirstAttempt[] = []): Promise<FireOutcome[]> {
  const plans = await planOccurrences(tx, rows, now, limits);
  const { advanced, completed: completedAtAdvance } = await advance(tx, plans);
  // A schedule that cannot be planned is paused with the reason, never left due for every tick.
  await pauseUnplanned(tx, deps, plans.flatMap((p) => (p.kind === 'error' ? [{ schedule: p.row, error: p.error }] : [])), now);
  const { made, delivering, cancelled } = await makeAttempts(tx, deps, plans, advanced, retries, now, limits, firsts);
  // A disabled schedule's claimed retries were deleted by the claim: their failed attempts are cancelled.
  await markCancelled(tx, cancelled);
  await recordOverlaps(tx, plans.filter((p) => p.kind === 'overlap' && advanced.has(p.row.id)), now);
  const continuing = new Set(plans.flatMap((p) => (p.kind !== 'error' && p.next && advanced.has(p.row.id) ? [p.row.id] : [])));
  const settled = await settleAttempts(tx, deps, made, now, completedAtAdvance, rows, continuing);
  const { completed, deleted } = settled;
  // SPEC §17 `missed`: occurrences skipped beyond the catch-up window or by the overlap policy, raised in this transaction.
  await deps.raise?.(
    tx,
    plans.flatMap((p): ScheduleFact[] => {
      if (!advanced.has(p.row.id)) return [];
      if (p.kind === 'skip') return [{ kind: 'missed', schedule: p.row, scheduledFor: p.row.nextScheduledFor, skipped: p.skipped, reason: 'catch_up_window' }];
      if (p.kind === 'overlap' && p.action === 'skip') return [{ kind: 'missed', schedule: p.row, scheduledFor: p.row.nextScheduledFor, skipped: 1, reason: 'overlap' }];
      return [];
    }),
    now,
  );

  const fired: FireOutcome[] = made.map((a, i) => {
    const after = settled.after(a.schedule.id);
    return {
      kind: 'fired',
      scheduleId: a.schedule.id,
      scheduledFor: a.scheduledFor,
      attempt: a.attempt,
      trigger: a.trigger,
      lateMs: now.getTime() - a.dueAt.getTime(),
      run: a.outcome,
      nextAttemptAt: settled.consequences[i].extras.nextAttemptAt ?? null,
      exhausted: settled.consequences[i].extras.exhausted ?? null,
      completed: after.completed,
      deleted: after.deleted,
      paused: after.paused,
    };
  });
  const inFlight: FireOutcome[] = delivering.map((d) => ({ kind: 'delivering', scheduleId: d.scheduleId, scheduledFor: d.scheduledFor, attempt: d.attempt, lateMs: now.getTime() - d.dueAt.getTime(), delivery: d }));
  const others: FireOutcome[] = plans.flatMap((p): FireOutcome[] => {
    const scheduleId = p.row.id;
    const scheduledFor = p.row.nextScheduledFor;
    if (p.kind === 'error') return [{ kind: 'error', scheduleId, scheduledFor, error: p.error }];
    if (!advanced.has(scheduleId)) return [{ kind: 'lost-race', scheduleId, scheduledFor }];
    switch (p.kind) {
      case 'fire':
        return [];
      case 'skip':
        return [{ kind: 'skipped', scheduleId, scheduledFor, skipped: p.skipped, reason: p.reason, skippedOutsideWindow: p.skippedOutsideWindow, completed: completed.has(scheduleId), deleted: deleted.has(scheduleId) }];
      case 'already-fired':
        return [{ kind: 'already-fired', scheduleId, scheduledFor, completed: completed.has(scheduleId), deleted: deleted.has(scheduleId) }];
      case 'overlap':
        return [{ kind: 'overlap', scheduleId, scheduledFor, action: p.action, inProgressRunId: p.inProgressRunId }];
      default:
        return p satisfies never;
    }
  });
  const cancelledOutcomes: FireOutcome[] = cancelled.map((r) => ({ kind: 'retry-cancelled', scheduleId: r.schedule.id, scheduledFor: r.scheduledFor, attempt: r.attempt }));
  return [...fired, ...inFlight, ...others, ...cancelledOutcomes];
}

/**
 * SPEC §16.2, in the claim's transaction: an occurrence due while a run is in progress is recorded
 * `skipped` (`{error: "overlap", in_progress_run_id}`, not delivered), or, the first one of a
 * `buffer_one` schedule, stored waiting (attempt 1, due never) until a release makes it due.
 */
async function recordOverlaps(tx: Tx, plans: Plan[], now: Date): Promise<void> {
  const skipped = plans.flatMap((p) => (p.kind === 'overlap' && p.action === 'skip' ? [p] : []));
  await recordRuns(
    tx,
    skipped.map((p) => ({
      schedule: p.row,
      trigger: 'schedule' as const,
      scheduledFor: p.row.nextScheduledFor,
      attempt: 1,
      outcome: { runId: newId(), status: 'skipped' as const, result: { error: 'overlap', in_progress_run_id: p.inProgressRunId }, executionId: null, request: null, retryable: false },
    })),
    [],
    now,
  );
  const buffered = plans.flatMap((p) => (p.kind === 'overlap' && p.action === 'buffer' ? [p] : []));
  await insertPendingAttempts(tx, buffered.map((p) => ({ id: newId(), scheduleId: p.row.id, scheduledFor: p.row.nextScheduledFor, attempt: 1, dueAt: BUFFERED_DUE_AT, createdAt: now })));
}
