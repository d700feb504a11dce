/**
 * The worker's fire of due occurrences and due retries (SPEC §8, §12), with the catch-up window. One
 * transaction per batch: claim occurrences (lib/db/sql/claim-due.ts) and pending attempts
 * (claim-retries.ts), advance next_fire_at with an ownership check (advance-next-fire.ts), invoke,
 * record the runs (insert-runs.ts), then what the attempts leave behind (record-outcomes.ts: next
 * attempts, dead letters, failure counts and automatic pauses, completion and delete-after-completion).
 * Commit makes all of it visible at once; a crash before commit leaves every occurrence and attempt of
 * the batch due, so each fires exactly once.
 *
 * http and aws attempts (SPEC §13) are not invoked in the transaction: it stores them in flight, and
 * the caller delivers them after commit and records them with `recordDelivered` (deliver-attempts.ts).
 */
import type { Limits } from '../config';
import {
  advanceNextFire,
  cancelPendingAttempts,
  claimDue,
  claimOccurrence,
  claimRetries,
  claimRetry,
  completeFinished,
  findFiredOccurrences,
  inTransaction,
  insertDeadLetters,
  insertPendingAttempts,
  loadFiringSchedules,
  takeInFlight,
  updateFailureCounts,
  type Advance,
  type ClaimedRetry,
  type ClaimedSchedule,
  type DeadLetterInsert,
  type Db,
  type FailureCount,
  type FiringSchedule,
  type PendingAttemptInsert,
  type Tx,
} from '../db';
import { toError } from '../errors';
import { newId } from '../ids';
import { redactForDeadLetter, type SentRequest } from '../delivery';
import { recordActivities, recordAutomaticPauses } from './activity';
import { afterFailedAttempt, type RetryPolicy } from './attempts';
import type { ExhaustedReason } from './contract';
import { deleteCompleted } from './finish';
import { invokeTargets, recordRuns, type InvokeOptions, type InvokeOutcome, type RunExtras } from './invoke-target';
import { fireAtOf, nextOccurrenceInWindow, type ScheduleTiming, type StoredRepeat } from './occurrences';
import {
  deliverEach,
  inFlightAttemptOf,
  inFlightLeaseEnd,
  interruptedOutcome,
  isExternalTarget,
  type DeliveredAttempt,
  type DeliveryDeps,
  type InFlightAttempt,
} from './deliver-attempts';

/** Most occurrences counted one by one when skipping a long outage; beyond it we jump ahead. */
const MAX_SKIP_WALK = 100_000;

/**
 * Interactive-transaction bounds for a batch. `maxWait` covers waiting for SQLite's write lock
 * (another worker's batch) or a PostgreSQL connection; `timeout` is far above a batch's real cost
 * and only stops a wedged transaction (it then rolls back: nothing fired).
 */
const FIRE_TX = { maxWait: 30_000, timeout: 120_000 } as const;

/** What became of a schedule once the attempt's outcome was recorded (SPEC §12.5). */
export interface AfterAttempt {
  /** No occurrence and no retry is left: the schedule completed (SPEC §5.3). */
  completed: boolean;
  /** `action_after_completion: "delete"` removed it. */
  deleted: boolean;
  /** `pause_after_failures` disabled it. */
  paused: boolean;
}

export type FireOutcome =
  | {
      kind: 'fired';
      scheduleId: string;
      scheduledFor: Date;
      attempt: number;
      /** How late the attempt started: after the offset instant (first attempt) or its due time (retry). */
      lateMs: number;
      run: InvokeOutcome;
      /** A failed attempt that will be retried: when. */
      nextAttemptAt: Date | null;
      /** A failed attempt that ended its occurrence's retries: why. */
      exhausted: ExhaustedReason | null;
    } & AfterAttempt
  /**
   * An http or aws attempt stored in flight (SPEC §13): the caller delivers `delivery` after commit
   * and records it (`recordDelivered`); its run does not exist yet.
   */
  | { kind: 'delivering'; scheduleId: string; scheduledFor: Date; attempt: number; lateMs: number; delivery: InFlightAttempt }
  | { kind: 'skipped'; scheduleId: string; scheduledFor: Date; skipped: number; completed: boolean; deleted: boolean }
  /** The occurrence already has a scheduled run: next_fire_at was advanced, nothing fired again. */
  | { kind: 'already-fired'; scheduleId: string; scheduledFor: Date; completed: boolean; deleted: boolean }
  /** A pending retry of a schedule that is no longer enabled: cancelled, not fired (SPEC §12.2). */
  | { kind: 'retry-cancelled'; scheduleId: string; scheduledFor: Date; attempt: number }
  /** Another worker (or a save) moved next_fire_at first: nothing was written. */
  | { kind: 'lost-race'; scheduleId: string; scheduledFor: Date }
  /** The following occurrence could not be computed: the schedule was left as it was. */
  | { kind: 'error'; scheduleId: string; scheduledFor: Date; error: Error };

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
export async function fireDue(opts: FireDueOptions): Promise<FireOutcome[]> {
  const { db, now, limit, limits } = opts;
  return inTransaction(db, async (tx) => {
    // The claims are the transaction's first statements: see claim-due.ts and claim-retries.ts for
    // what they lock.
    const claimed = await claimDue(tx, now, limit);
    const retries = await claimRetries(tx, now, limit);
    if (claimed.length === 0 && retries.length === 0) return [];
    return fireClaimed(tx, claimed, retries, opts.clock?.() ?? now, limits);
  }, FIRE_TX);
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
 */
export async function fireOccurrence(opts: FireOccurrenceOptions): Promise<FireOutcome> {
  const { db, scheduleId, scheduledFor, now, limits } = opts;
  const [outcome] = await inTransaction(db, async (tx) => {
    const row = await claimOccurrence(tx, scheduleId, scheduledFor);
    if (!row) return [{ kind: 'lost-race', scheduleId, scheduledFor } as const];
    return fireClaimed(tx, [row], [], now, limits);
  }, FIRE_TX);
  return outcome;
}

/**
 * Fire the one pending attempt `pendingId` (a retry, or an interrupted delivery to recover) if it is
 * due at `now`, in its own transaction; `[]` when it is not (fired by another worker, or not due).
 * The worker's fallback when a batch fails, so a failing occurrence never holds up due retries.
 */
export async function fireRetry(opts: { db: Db; pendingId: string; now: Date; limits: Limits }): Promise<FireOutcome[]> {
  return inTransaction(opts.db, async (tx) => {
    const retries = await claimRetry(tx, opts.pendingId, opts.now);
    return retries.length ? fireClaimed(tx, [], retries, opts.now, opts.limits) : [];
  }, FIRE_TX);
}

/** Due pending attempts (retries and expired in-flight leases), oldest first, through the due_at index. A plain read. */
export async function listDueRetries(db: Db, now: Date, limit: number): Promise<{ pendingId: string; scheduleId: string; scheduledFor: Date }[]> {
  const rows = await db.pendingAttempt.findMany({ where: { dueAt: { lte: now } }, orderBy: { dueAt: 'asc' }, take: limit, select: { id: true, scheduleId: true, scheduledFor: true } });
  return rows.map((r) => ({ pendingId: r.id, scheduleId: r.scheduleId, scheduledFor: r.scheduledFor }));
}

/** The stored timing of a firing row. */
export function timingOf(row: FiringSchedule): ScheduleTiming {
  return { ...row, repeat: row.repeat as StoredRepeat };
}

/** The retry policy a failed attempt follows, or null for one attempt and no dead letter (BlobHub, SPEC §12.2). */
function retryPolicyOf(row: FiringSchedule): RetryPolicy | null {
  // A dead_letter without a retry_policy still has dead letters: its policy is "no retry".
  if (row.retryMaximumAttempts === null && row.deadLetterArn === null) return null;
  return { maximumRetryAttempts: row.retryMaximumAttempts ?? 0, maximumEventAgeSeconds: row.retryMaximumEventAgeSeconds ?? 86_400 };
}

interface NextOccurrence {
  scheduledFor: Date;
  fireAt: Date;
}

type Plan =
  | { kind: 'fire'; row: ClaimedSchedule; next: NextOccurrence | null }
  | { kind: 'already-fired'; row: ClaimedSchedule; next: NextOccurrence | null }
  | { kind: 'skip'; row: ClaimedSchedule; next: NextOccurrence | null; skipped: number }
  | { kind: 'error'; row: ClaimedSchedule; error: Error };

/** One attempt to make in this batch: an occurrence's first attempt, a claimed retry or a recovery. */
interface Attempt {
  item: InvokeOptions;
  schedule: FiringSchedule;
  /** When the attempt was due (lateness is measured from it). */
  dueAt: Date;
  /** The claimed pending row (a retry or a recovery), or null for an occurrence's first attempt. */
  retry: ClaimedRetry | null;
}

/** An attempt settled when it is recorded: its schedule as it is now, what it sent. */
interface SettledAttempt {
  item: InvokeOptions;
  schedule: FiringSchedule;
  /** False when the schedule was disabled while the attempt was in flight: no retry follows it. */
  enabled: boolean;
  /** A manual replay: the dead letter it replays (SPEC §12.3). */
  deadLetterId: string | null;
  /** What the attempt sent (an http or aws attempt), for its dead letter's SQS message (SPEC §12.3). */
  request: unknown;
}

/**
 * Fire claimed occurrences and retries at instant `now`: decide each occurrence (fire, skip beyond the
 * catch-up window, or already fired), advance them all in one statement, invoke every workflow
 * attempt and record it with its consequences (SPEC §12.2–§12.5); store every http and aws attempt in
 * flight, for the caller to deliver after commit (`delivering` outcomes, SPEC §13).
 */
async function fireClaimed(tx: Tx, rows: ClaimedSchedule[], retries: ClaimedRetry[], now: Date, limits: Limits): Promise<FireOutcome[]> {
  const windowStart = new Date(now.getTime() - limits.catchupWindowSeconds * 1000);
  const inWindow = rows.filter((r) => r.nextFireAt >= windowStart);
  const alreadyFired = await findFiredOccurrences(tx, inWindow.map((r) => ({ scheduleId: r.id, scheduledFor: r.nextScheduledFor })));
  const plans = rows.map((row) => plan(row, windowStart, alreadyFired.has(row.id)));

  const advances: Advance[] = plans.flatMap((p) =>
    p.kind === 'error'
      ? []
      : [
          {
            scheduleId: p.row.id,
            seen: p.row.nextFireAt,
            next: p.next?.fireAt ?? null,
            nextScheduledFor: p.next?.scheduledFor ?? null,
            skipped: p.kind === 'skip' ? p.skipped : 0,
            // A last occurrence that may still be retried, or whose attempt is delivered after this
            // transaction (SPEC §13), keeps the schedule active until it ends.
            state: p.next === null && !(p.kind === 'fire' && (retryPolicyOf(p.row) || isExternalTarget(p.row.invocationTargetType))) ? 'completed' : 'active',
          },
        ],
  );
  // Exactly once (SPEC §8): fire ONLY the rows whose next_fire_at this statement moved off the
  // occurrence; it must come before the invocations, in this same transaction.
  const advanced = await advanceNextFire(tx, advances, now);
  const completedAtAdvance = new Set(advances.filter((a) => a.state === 'completed' && advanced.has(a.scheduleId)).map((a) => a.scheduleId));

  const attempts: Attempt[] = [];
  for (const p of plans) {
    if (p.kind !== 'fire' || !advanced.has(p.row.id)) continue;
    attempts.push({ schedule: p.row, dueAt: p.row.nextFireAt, retry: null, item: { schedule: p.row, trigger: 'schedule', scheduledFor: p.row.nextScheduledFor, attempt: 1, now } });
  }
  // A waiting retry of a disabled schedule is cancelled; an interrupted delivery (in flight when its
  // process died) is recovered whatever the schedule's state: it may have been sent, so it is recorded.
  const cancelled = retries.filter((r) => !r.enabled && !r.inFlight);
  for (const r of retries) {
    if (!r.enabled && !r.inFlight) continue;
    attempts.push({ schedule: r.schedule, dueAt: r.dueAt, retry: r, item: { schedule: r.schedule, trigger: r.trigger, scheduledFor: r.scheduledFor, attempt: r.attempt, now } });
  }
  // Serialization is desired: occurrences of one schedule end in occurrence order, so its failure
  // count (SPEC §12.5) folds them in the order they happened.
  attempts.sort((a, b) => a.item.scheduledFor.getTime() - b.item.scheduledFor.getTime());

  // SPEC §13: http and aws attempts are delivered after commit. A recovery is delivered again only
  // if it was sent at most once and its target is still external and firing; else it is recorded now
  // as interrupted (at most one repeated delivery per interrupted attempt).
  const deliveries: InFlightAttempt[] = [];
  const inFlightRows: PendingAttemptInsert[] = [];
  const now_: Attempt[] = [];
  const preset = new Map<Attempt, InvokeOutcome>();
  for (const a of attempts) {
    const r = a.retry;
    const external = isExternalTarget(a.schedule.invocationTargetType);
    const recovery = r !== null && r.inFlight;
    if (recovery && (r.deliveries >= 2 || !external || (r.trigger === 'schedule' && !r.enabled))) {
      const fire = inFlightAttemptOf(a.schedule, { pendingId: r.pendingId, runId: newId(), scheduledFor: r.scheduledFor, trigger: r.trigger, attempt: r.attempt, deliveries: r.deliveries, deadLetterId: r.deadLetterId, dueAt: r.dueAt, now });
      preset.set(a, interruptedOutcome(fire).outcome);
      now_.push(a);
      continue;
    }
    if (!external) {
      now_.push(a);
      continue;
    }
    const pendingId = newId();
    const fire = inFlightAttemptOf(a.schedule, {
      pendingId,
      runId: newId(),
      scheduledFor: a.item.scheduledFor,
      trigger: a.item.trigger,
      attempt: a.item.attempt,
      // Sends already started: a recovery keeps its count (the run says repeated_delivery when ≥ 1).
      deliveries: recovery ? r.deliveries : 0,
      deadLetterId: r?.deadLetterId ?? null,
      dueAt: a.dueAt,
      now,
    });
    deliveries.push(fire);
    inFlightRows.push(inFlightRow(fire, a.schedule, now));
  }
  // The in-flight rows come before completeFinished below: they keep their schedules from completing.
  await insertPendingAttempts(tx, inFlightRows);

  const invoked = now_.filter((a) => !preset.has(a));
  const invokedOutcomes = await invokeTargets(tx, invoked.map((a) => a.item), limits);
  const byAttempt = new Map<Attempt, InvokeOutcome>([...preset, ...invoked.map((a, i) => [a, invokedOutcomes[i]] as const)]);
  const outcomes = now_.map((a) => byAttempt.get(a)!);
  // A disabled schedule's claimed retries were deleted by the claim: their failed attempts are cancelled.
  await markCancelled(tx, cancelled);

  const action = new Map<string, string>([...rows, ...attempts.map((a) => a.schedule)].map((s) => [s.id, s.actionAfterCompletion]));
  const settled = await settleAttempts(
    tx,
    now_.map((a) => ({ item: a.item, schedule: a.schedule, enabled: a.retry?.enabled ?? true, deadLetterId: a.retry?.deadLetterId ?? null, request: null })),
    outcomes,
    now,
    completedAtAdvance,
    action,
    rows,
  );
  const { completed, deleted: deletedSet } = settled;

  const fired: FireOutcome[] = now_.map((a, i) => ({
    kind: 'fired',
    scheduleId: a.schedule.id,
    scheduledFor: a.item.scheduledFor,
    attempt: a.item.attempt,
    lateMs: now.getTime() - a.dueAt.getTime(),
    run: outcomes[i],
    nextAttemptAt: settled.consequences[i].extras.nextAttemptAt ?? null,
    exhausted: (settled.consequences[i].extras.exhausted as ExhaustedReason | null) ?? null,
    ...settled.after(a.schedule.id),
  }));
  const delivering: FireOutcome[] = deliveries.map((d) => ({
    kind: 'delivering',
    scheduleId: d.scheduleId,
    scheduledFor: d.scheduledFor,
    attempt: d.attempt,
    lateMs: now.getTime() - d.dueAt.getTime(),
    delivery: d,
  }));
  const others: FireOutcome[] = plans.flatMap((p): FireOutcome[] => {
    const scheduleId = p.row.id;
    const scheduledFor = p.row.nextScheduledFor;
    if (p.kind === 'error') return [{ kind: 'error', scheduleId, scheduledFor, error: p.error }];
    if (!advanced.has(scheduleId)) return [{ kind: 'lost-race', scheduleId, scheduledFor }];
    switch (p.kind) {
      case 'fire':
        return [];
      case 'skip':
        return [{ kind: 'skipped', scheduleId, scheduledFor, skipped: p.skipped, completed: completed.has(scheduleId), deleted: deletedSet.has(scheduleId) }];
      case 'already-fired':
        return [{ kind: 'already-fired', scheduleId, scheduledFor, completed: completed.has(scheduleId), deleted: deletedSet.has(scheduleId) }];
      default:
        return p satisfies never;
    }
  });
  const cancelledOutcomes: FireOutcome[] = cancelled.map((r) => ({ kind: 'retry-cancelled', scheduleId: r.schedule.id, scheduledFor: r.scheduledFor, attempt: r.attempt }));
  return [...fired, ...delivering, ...others, ...cancelledOutcomes];
}

/** The `pending_attempts` row of an attempt in flight: due (claimable again) when its lease ends. */
function inFlightRow(fire: InFlightAttempt, schedule: FiringSchedule, now: Date): PendingAttemptInsert {
  return {
    id: fire.pendingId,
    scheduleId: fire.scheduleId,
    scheduledFor: fire.scheduledFor,
    trigger: fire.trigger,
    attempt: fire.attempt,
    dueAt: inFlightLeaseEnd(schedule, now),
    inFlight: true,
    deliveries: fire.deliveries,
    deadLetterId: fire.deadLetterId,
    createdAt: now,
  };
}

/**
 * Record attempts' runs and what they leave behind (SPEC §12.2–§12.5), in the caller's transaction:
 * next attempts, dead letters, replayed dead letters' status, failure counts and automatic pauses,
 * then completion (besides `completedAlready`) and delete-after-completion. `actions` names each
 * schedule's `action_after_completion` (default: the attempt's schedule's).
 */
async function settleAttempts(
  tx: Tx,
  attempts: SettledAttempt[],
  outcomes: InvokeOutcome[],
  now: Date,
  completedAlready: Set<string>,
  actions: Map<string, string>,
  claimed: FiringSchedule[] = [],
) {
  const schedules = new Map<string, FiringSchedule>([...claimed, ...attempts.map((a) => a.schedule)].map((s) => [s.id, s]));
  const consequences = attempts.map((a, i) => consequenceOf(a, outcomes[i], now));
  await recordRuns(tx, attempts.map((a) => a.item), outcomes, consequences.map((c) => c.extras));
  await insertPendingAttempts(tx, consequences.flatMap((c) => (c.pending ? [c.pending] : [])));
  await insertDeadLetters(tx, consequences.flatMap((c) => (c.deadLetter ? [c.deadLetter] : [])));
  // SPEC §12.3: a replay's dead letter keeps its last replay's run and status.
  for (const [i, a] of attempts.entries()) {
    if (a.deadLetterId) {
      await tx.deadLetter.updateMany({ where: { id: a.deadLetterId }, data: { replayRunId: outcomes[i].runId, replayStatus: outcomes[i].status, replayedAt: now } });
    }
  }
  const counts = failureCounts(attempts, consequences, outcomes);
  await updateFailureCounts(tx, counts, now);
  const paused = new Set(counts.filter((c) => c.pauseNote !== null).map((c) => c.scheduleId));
  // SPEC §12.2: disabling a schedule cancels its pending retries, the automatic pause included.
  await cancelPendingAttempts(tx, [...paused]);
  // SPEC §15: the automatic pause is in the activity log, by `system`, in the transaction that pauses.
  const scheduleOf = new Map(attempts.map((a) => [a.schedule.id, a.schedule]));
  await recordAutomaticPauses(tx, [...paused].map((id) => scheduleOf.get(id)!), now);

  const ended = [...new Set(attempts.filter((_, i) => consequences[i].ended !== null).map((a) => a.schedule.id))];
  const completedLater = await completeFinished(tx, ended, now);
  const completed = new Set([...completedAlready, ...completedLater.map((c) => c.id)]);
  for (const a of attempts) if (!actions.has(a.schedule.id)) actions.set(a.schedule.id, a.schedule.actionAfterCompletion);
  // SPEC §12.5: delete as delete_schedule would (runs and pending attempts go with it); dead letters stay.
  const deleted = new Set(await deleteCompleted(tx, [...completed].map((id) => ({ id, actionAfterCompletion: actions.get(id) ?? 'none' }))));
  // SPEC §15: a delete after completion is in the activity log too, by `system`.
  await recordActivities(
    tx,
    [...deleted].flatMap((id) => {
      const s = schedules.get(id);
      return s ? [{ revisionId: s.revisionId, schedule: { id: s.id, name: s.name, alias: s.alias }, action: 'delete' as const, by: 'system' as const, at: now }] : [];
    }),
  );
  const after = (id: string): AfterAttempt => ({ completed: completed.has(id), deleted: deleted.has(id), paused: paused.has(id) });
  return { consequences, completed, deleted, after };
}

/**
 * Record delivered http and aws attempts (SPEC §13): one transaction for all of them. Exactly once:
 * only the attempts whose in-flight row this transaction deletes are recorded (an attempt recorded or
 * recovered elsewhere, or whose schedule was deleted, is not). Each is folded into its schedule as it
 * is now (locked), at instant `now`: a failed attempt of a schedule disabled meanwhile gets no retry.
 * Returns a `fired` outcome per recorded attempt.
 */
export async function recordDelivered(db: Db, delivered: DeliveredAttempt[], now: Date): Promise<FireOutcome[]> {
  if (delivered.length === 0) return [];
  return inTransaction(db, async (tx) => {
    const taken = await takeInFlight(tx, delivered.map((d) => d.attempt.pendingId));
    const mine = delivered.filter((d) => taken.has(d.attempt.pendingId));
    const schedules = await loadFiringSchedules(tx, mine.map((d) => d.attempt.scheduleId));
    // Serialization is desired: occurrences of one schedule end in occurrence order (SPEC §12.5).
    const live = mine.filter((d) => schedules.has(d.attempt.scheduleId)).sort((a, b) => a.attempt.scheduledFor.getTime() - b.attempt.scheduledFor.getTime());
    const attempts: SettledAttempt[] = live.map((d) => {
      const schedule = schedules.get(d.attempt.scheduleId)!;
      const { scheduledFor, trigger, attempt, deadLetterId } = d.attempt;
      return { item: { schedule, trigger, scheduledFor, attempt, now }, schedule, enabled: schedule.enabled, deadLetterId, request: d.request };
    });
    const outcomes = live.map((d) => d.outcome);
    const settled = await settleAttempts(tx, attempts, outcomes, now, new Set(), new Map());
    return live.map((d, i): FireOutcome => ({
      kind: 'fired',
      scheduleId: d.attempt.scheduleId,
      scheduledFor: d.attempt.scheduledFor,
      attempt: d.attempt.attempt,
      lateMs: d.attempt.claimedAt.getTime() - d.attempt.dueAt.getTime(),
      run: outcomes[i],
      nextAttemptAt: settled.consequences[i].extras.nextAttemptAt ?? null,
      exhausted: (settled.consequences[i].extras.exhausted as ExhaustedReason | null) ?? null,
      ...settled.after(d.attempt.scheduleId),
    }));
  }, FIRE_TX);
}

/**
 * Deliver in-flight attempts and record them (`deliverEach` then `recordDelivered`), waiting for all:
 * a manual fire to an external target (run now, replay), and tests. The worker instead records each
 * delivery as it settles (worker/deliveries.ts), so one slow receiver holds up no other record.
 */
export async function deliverAndRecord(db: Db, attempts: InFlightAttempt[], deps: DeliveryDeps, clock: () => Date): Promise<FireOutcome[]> {
  const delivered = await Promise.all(deliverEach(db, attempts, deps, clock()));
  return recordDelivered(db, delivered, clock());
}

/** What one attempt's outcome leads to: its run's retry fields, a next attempt or a dead letter. */
interface Consequence {
  extras: RunExtras;
  pending: PendingAttemptInsert | null;
  deadLetter: DeadLetterInsert | null;
  /** The occurrence ended with this attempt: `success` or `failed`; null while a retry is pending. */
  ended: 'success' | 'failed' | null;
}

/**
 * SPEC §12.2–§12.3: a failed attempt is retried, or exhausts its occurrence into a dead letter. A
 * manual fire is one attempt and ends no occurrence; a failed attempt recorded after its schedule
 * was disabled is `exhausted: "cancelled"` (disabling cancels retries, SPEC §12.2).
 */
function consequenceOf(a: SettledAttempt, outcome: InvokeOutcome, now: Date): Consequence {
  if (a.item.trigger === 'manual') return { extras: { deadLetterId: a.deadLetterId }, pending: null, deadLetter: null, ended: null };
  if (outcome.status === 'success') return { extras: {}, pending: null, deadLetter: null, ended: 'success' };
  const policy = retryPolicyOf(a.schedule);
  // No retry policy and no dead letter: one attempt, as SPEC §5–§8 say (BlobHub behaviour).
  if (!policy) return { extras: {}, pending: null, deadLetter: null, ended: 'failed' };
  if (!a.enabled) return { extras: { exhausted: 'cancelled' }, pending: null, deadLetter: null, ended: null };
  const verdict = afterFailedAttempt(policy, a.item.attempt, a.item.scheduledFor, now);
  if (verdict.kind === 'retry') {
    return {
      extras: { nextAttemptAt: verdict.at },
      pending: { id: newId(), scheduleId: a.schedule.id, scheduledFor: a.item.scheduledFor, attempt: verdict.attempt, dueAt: verdict.at, createdAt: now },
      deadLetter: null,
      ended: null,
    };
  }
  const s = a.schedule;
  return {
    extras: { exhausted: verdict.reason },
    pending: null,
    deadLetter: {
      id: newId(),
      revisionId: s.revisionId,
      scheduleId: s.id,
      scheduleLabel: s.alias ?? s.id,
      scheduledFor: a.item.scheduledFor,
      attempts: a.item.attempt,
      exhausted: verdict.reason,
      lastRunId: outcome.runId,
      lastStatus: outcome.status,
      lastResult: outcome.result,
      invocationTargetType: s.invocationTargetType,
      invocationTarget: s.invocationTarget,
      deadLetterArn: s.deadLetterArn,
      // The SQS message body (SPEC §12.3): what the last attempt sent; a workflow attempt's call.
      lastRequest: a.request ? redactForDeadLetter(a.request as SentRequest) : { invocation_target_type: s.invocationTargetType ?? 'workflow', invocation_target: s.invocationTarget, scheduled_for: a.item.scheduledFor.toISOString(), attempt: a.item.attempt },
      createdAt: now,
    },
    ended: 'failed',
  };
}

/**
 * SPEC §12.5: each schedule's count of consecutive occurrences whose last attempt failed, folded over
 * the occurrences that ended in this batch (in occurrence order); a count reaching
 * `pause_after_failures` pauses the schedule. Only schedules whose count changes are returned.
 */
function failureCounts(attempts: SettledAttempt[], consequences: Consequence[], outcomes: InvokeOutcome[]): FailureCount[] {
  const bySchedule = new Map<string, { start: number; count: number; limit: number | null; note: string | null }>();
  attempts.forEach((a, i) => {
    const ended = consequences[i].ended;
    if (ended === null) return;
    const s = a.schedule;
    const state = bySchedule.get(s.id) ?? { start: s.consecutiveFailures, count: s.consecutiveFailures, limit: s.pauseAfterFailures, note: null };
    state.count = ended === 'success' ? 0 : state.count + 1;
    if (ended === 'failed' && state.limit !== null && state.count >= state.limit && state.note === null) {
      const result = outcomes[i].result as { error?: string; message?: string };
      const last = [result.error, result.message].filter(Boolean).join(': ') || outcomes[i].status;
      state.note = `paused after ${state.count === 1 ? '1 failed occurrence' : `${state.count} consecutive failed occurrences`} (pause_after_failures = ${state.limit}); the last failed with ${last}`.slice(0, 256);
    }
    bySchedule.set(s.id, state);
  });
  return [...bySchedule.entries()]
    .filter(([, st]) => st.count !== st.start || st.note !== null)
    .map(([scheduleId, st]) => ({ scheduleId, consecutiveFailures: st.count, pauseNote: st.note }));
}

/** Mark the failed attempts that claimed-but-cancelled retries would have followed (SPEC §12.2). */
async function markCancelled(tx: Tx, cancelled: ClaimedRetry[]): Promise<void> {
  for (const r of cancelled) {
    await tx.run.updateMany({
      where: { scheduleId: r.schedule.id, scheduledFor: r.scheduledFor, trigger: 'schedule', attempt: r.attempt - 1 },
      data: { exhausted: 'cancelled', nextAttemptAt: null },
    });
  }
}

/**
 * What to do with one claimed occurrence. Beyond the catch-up window (SPEC §8, counted from the
 * offset instant, §12.4): count every occurrence due before the window and continue from the first
 * one due inside it (which may itself be due now and then fires late on the next tick). A `one_time`
 * schedule missed that way completes with no run.
 */
function plan(row: ClaimedSchedule, windowStart: Date, alreadyFired: boolean): Plan {
  try {
    const timing = timingOf(row);
    const following = (after: Date): NextOccurrence | null => {
      const scheduledFor = nextOccurrenceInWindow(timing, after);
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
      return { kind: 'skip', row, next, skipped };
    }
    // Strictly after the occurrence: next_fire_at only ever moves forward.
    const next = following(row.nextScheduledFor);
    return alreadyFired ? { kind: 'already-fired', row, next } : { kind: 'fire', row, next };
  } catch (e) {
    // Validated at save, so not expected (e.g. a zone dropped from the tz database). The row is
    // neither advanced nor fired; it stays due and is reported on every tick until an operator acts.
    return { kind: 'error', row, error: toError(e) };
  }
}

/**
 * Due occurrences: schedules whose next_fire_at ≤ now, oldest first, through the next_fire_at index
 * (never a scan of every schedule). Disabled and completed schedules have next_fire_at null. A plain
 * read that claims nothing (the worker's fallback, metrics, tests).
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

/** The earliest next_fire_at of any schedule or due_at of any pending attempt (index lookups), or null. */
export async function findEarliestNextFire(db: Db): Promise<Date | null> {
  const [occurrence, retry] = await Promise.all([
    db.schedule.findFirst({ where: { nextFireAt: { not: null } }, orderBy: { nextFireAt: 'asc' }, select: { nextFireAt: true } }),
    db.pendingAttempt.findFirst({ orderBy: { dueAt: 'asc' }, select: { dueAt: true } }),
  ]);
  const times = [occurrence?.nextFireAt, retry?.dueAt].filter((t): t is Date => t instanceof Date);
  return times.length ? new Date(Math.min(...times.map((t) => t.getTime()))) : null;
}
