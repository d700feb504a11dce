/**
 * Step 5 of a fire, SETTLE (SPEC §8.1, §12.2–§12.5): record each attempt's run and what it leaves
 * behind, in the caller's transaction — its next attempt or its dead letter, a replayed dead letter's
 * status, the schedule's consecutive-failure count and automatic pause, then completion and
 * delete-after-completion, each with its activity entry (SPEC §15). Used by the claim's transaction
 * (in-transaction attempts) and by the record of after-commit deliveries (`recordDelivered`).
 */
import {
  cancelPendingAttempts,
  completeFinished,
  insertDeadLetters,
  insertPendingAttempts,
  insertRuns,
  releaseBuffered,
  type RunInsert,
  updateFailureCounts,
  type ClaimedRetry,
  type DeadLetterInsert,
  type FailureCount,
  type FiringSchedule,
  type PendingAttemptInsert,
  type Tx,
} from '../db';
import { newId } from '../ids';
import { driverOf, type DriverOutcome, type FireTrigger } from '../targets';
import type { ExhaustedReason } from './contract';
import type { EngineDeps, ScheduleFact } from './deps';
import { deleteCompleted } from './finish';
import { attemptToken, maskCheckinTokens } from './checkin-token';
import { outcomeAtRecord, type OutcomeColumns } from './completion';
import { afterFailedAttempt, retryPolicyOf } from './retry-policy';

/** An attempt's outcome with the id of the run that records it. */
export interface RunOutcome extends DriverOutcome {
  runId: string;
}

/** One attempt to record: which, of which schedule (as it is now), and how it ended. */
export interface SettledAttempt {
  schedule: FiringSchedule;
  /**
   * The target type whose driver made this attempt (and `outcome.request`). An attempt delivered
   * after commit keeps the type it was made for, even if the schedule's target changed meanwhile.
   */
  targetType: string;
  trigger: FireTrigger;
  scheduledFor: Date;
  attempt: number;
  /** False when the schedule was disabled while the attempt was in flight: no retry follows it. */
  enabled: boolean;
  /** A manual replay: the dead letter it replays (SPEC §12.3). */
  deadLetterId: string | null;
  outcome: RunOutcome;
  /** Check-ins received while the attempt was in flight (SPEC §16.1; `pending_attempts.checkin`), or null. */
  checkin?: unknown;
}

/** What a run records besides the attempt's outcome (SPEC §8.1, §12.2, §12.3). */
export interface RunExtras {
  nextAttemptAt?: Date | null;
  exhausted?: ExhaustedReason | null;
  deadLetterId?: string | null;
}

/** What one attempt's outcome leads to: its run's retry fields, a next attempt or a dead letter. */
interface Consequence {
  extras: RunExtras;
  pending: PendingAttemptInsert | null;
  deadLetter: DeadLetterInsert | null;
  /** The occurrence ended with this attempt: `success` or `failed`; null while a retry is pending. */
  ended: 'success' | 'failed' | null;
  /**
   * How it counts for `pause_after_failures` (SPEC §12.5, §16.1): as `ended`, but a delivered attempt
   * whose outcome is still open counts once it ends (completion.ts), and a terminal outcome checked in
   * before the record counts as it says.
   */
  counts: 'success' | 'failed' | null;
  /** The run's outcome columns (SPEC §16.1). */
  outcome: OutcomeColumns;
}

/** What became of a schedule once its attempts were recorded (SPEC §12.5). */
export interface AfterAttempt {
  /** No occurrence and no retry is left: the schedule completed (SPEC §5.3). */
  completed: boolean;
  /** `action_after_completion: "delete"` removed it. */
  deleted: boolean;
  /** `pause_after_failures` disabled it. */
  paused: boolean;
}

/**
 * `outcome` with its result as a run, dead letter or alert may keep it: every check-in token in it
 * masked — the attempt's own in any form (`attemptToken`), any check-in URL's (SPEC §16.1, decision
 * 361). What `recordRuns` is given for a delivered attempt.
 */
export function withMaskedResult<O extends { runId: string; result: DriverOutcome['result'] }>(deps: Pick<EngineDeps, 'checkins'>, outcome: O): O {
  const result = maskCheckinTokens(outcome.result, attemptToken(deps.checkins, outcome.runId));
  // Nothing masked (a fire's result of ids, the common case): the outcome itself, not a copy.
  return result === outcome.result ? outcome : { ...outcome, result };
}

/**
 * Insert one run per attempt, with its retry fields, at instant `now` (the runs' `created_at`).
 * Exactly once (SPEC §8): UNIQUE (schedule_id, scheduled_for, trigger, attempt) refuses a second run for
 * the same attempt; the caller's transaction then rolls back the executions created for it.
 */
export async function recordRuns(tx: Tx, attempts: Pick<SettledAttempt, 'schedule' | 'trigger' | 'scheduledFor' | 'attempt' | 'outcome' | 'checkin'>[], extras: RunExtras[], now: Date): Promise<void> {
  await insertRuns(
    tx,
    // Each run is one object literal with every field named (no spread): built once per fire, and
    // object spreads here cost ~30 µs a run (docs/performance.md).
    attempts.map((a, i) => {
      const o = outcomeAtRecord(a.schedule, a.outcome.status === 'success', a.checkin ?? null, now);
      const run: RunInsert = {
        id: a.outcome.runId,
        scheduleId: a.schedule.id,
        scheduledFor: a.scheduledFor,
        trigger: a.trigger,
        attempt: a.attempt,
        status: a.outcome.status,
        // Masked by the caller (`withMaskedResult`): no usable check-in token (decision 361).
        result: a.outcome.result,
        executionId: a.outcome.executionId,
        nextAttemptAt: extras[i]?.nextAttemptAt ?? null,
        exhausted: extras[i]?.exhausted ?? null,
        deadLetterId: extras[i]?.deadLetterId ?? null,
        createdAt: now,
        outcome: o.outcome,
        startedAt: o.startedAt,
        finishedAt: o.finishedAt,
        durationMs: o.durationMs,
        exitCode: o.exitCode,
        outcomeMessage: o.outcomeMessage,
        outcomeDueAt: o.outcomeDueAt,
      };
      // SPEC §13.4: what the attempt sent, substituted (the check-in token masked), else the stored target.
      if (a.outcome.recordedTarget) run.sent = a.outcome.recordedTarget;
      return run;
    }),
  );
}

/**
 * The guard of the time engine's callers (SPEC §8, docs/decisions.md 139): pause, in the claim's
 * transaction at instant `now`, each claimed schedule whose next occurrence could not be computed
 * (`unplanned`: the schedule and the error planning threw), so one such schedule never stalls the
 * batch or comes back due on every tick. The pause is a `system` pause like `pause_after_failures`'
 * (enabled = false, next_fire_at cleared, pause_note naming the error), its pending retries are
 * cancelled and it is in the activity log. Runs after ADVANCE, which left these rows untouched.
 */
export async function pauseUnplanned(tx: Tx, deps: EngineDeps, unplanned: { schedule: FiringSchedule; error: Error }[], now: Date): Promise<void> {
  if (unplanned.length === 0) return;
  const counts = unplanned.map(({ schedule, error }) => ({
    scheduleId: schedule.id,
    consecutiveFailures: schedule.consecutiveFailures,
    pauseNote: `paused: its next occurrence could not be computed (${errorCodeOf(error)}: ${error.message})`.slice(0, 256),
  }));
  await updateFailureCounts(tx, counts, now);
  // SPEC §12.2: disabling a schedule cancels its pending retries.
  await cancelPendingAttempts(tx, counts.map((c) => c.scheduleId), { now, reason: 'the worker paused the schedule' });
  await deps.recordActivity(tx, unplanned.map(({ schedule }) => ({ action: 'auto_pause', schedule, at: now })));
  // SPEC §17 `paused`, raised in the transaction that pauses.
  await deps.raise?.(tx, unplanned.map(({ schedule }, i) => ({ kind: 'paused', schedule, scheduledFor: null, note: counts[i].pauseNote, consecutiveFailures: counts[i].consecutiveFailures })), now);
}

/** An error's `code` (DomainError, CronWorkBudgetExceeded…) or its name. */
export function errorCodeOf(e: Error): string {
  const code = (e as Error & { code?: unknown }).code;
  return typeof code === 'string' && code ? code : e.name;
}

/**
 * Record `attempts` and what they leave behind (SPEC §12.2–§12.5), in the caller's transaction, at
 * instant `now`: next attempts, dead letters, replayed dead letters' status, failure counts and
 * automatic pauses, then completion (besides `completedAlready`) and delete-after-completion.
 * `claimed`: other schedules of the batch (for the activity entry of one deleted after completion).
 * `continuing`: schedules this transaction advanced onto a next occurrence (next_fire_at set, the row
 * held by the claim): they cannot complete, so they are not looked at for completion.
 */
export async function settleAttempts(
  tx: Tx,
  deps: EngineDeps,
  attempts: SettledAttempt[],
  now: Date,
  completedAlready: Set<string>,
  claimed: FiringSchedule[] = [],
  continuing: ReadonlySet<string> = new Set(),
): Promise<{ consequences: Consequence[]; completed: Set<string>; deleted: Set<string>; after: (scheduleId: string) => AfterAttempt }> {
  // SPEC §16.1: a result echoing the check-in URL is kept, dead-lettered and alerted without its token (decision 361).
  attempts = attempts.map((a) => {
    const outcome = withMaskedResult(deps, a.outcome);
    return outcome === a.outcome ? a : { ...a, outcome };
  });
  const schedules = new Map<string, FiringSchedule>([...claimed, ...attempts.map((a) => a.schedule)].map((s) => [s.id, s]));
  const consequences = attempts.map((a) => consequenceOf(a, now));
  await recordRuns(tx, attempts, consequences.map((c) => c.extras), now);
  await insertPendingAttempts(tx, consequences.flatMap((c) => (c.pending ? [c.pending] : [])));
  await insertDeadLetters(tx, consequences.flatMap((c) => (c.deadLetter ? [c.deadLetter] : [])));
  // SPEC §12.3: a replay's dead letter keeps its last replay's run and status.
  for (const a of attempts) {
    if (a.deadLetterId) {
      await tx.deadLetter.updateMany({ where: { id: a.deadLetterId }, data: { replayRunId: a.outcome.runId, replayStatus: a.outcome.status, replayedAt: now } });
    }
  }
  const counts = failureCounts(attempts, consequences);
  await updateFailureCounts(tx, counts, now);
  const paused = new Set(counts.filter((c) => c.pauseNote !== null).map((c) => c.scheduleId));
  // SPEC §12.2: disabling a schedule cancels its pending retries, the automatic pause included.
  await cancelPendingAttempts(tx, [...paused], { now, reason: 'the worker paused the schedule' });
  // SPEC §15: the automatic pause is in the activity log, by `system`, in the transaction that pauses.
  await deps.recordActivity(tx, [...paused].map((id) => ({ action: 'auto_pause', schedule: schedules.get(id)!, at: now })));
  // SPEC §17: what these attempts ended, dead-lettered and paused, raised in the transaction that records it.
  await deps.raise?.(tx, alertFacts(attempts, consequences, counts), now);

  // SPEC §16.2: an attempt that leaves no open outcome ends what was in progress: a `buffer_one`
  // schedule's waiting occurrence becomes due (the schedule rows are this transaction's).
  await releaseBuffered(tx, attempts.filter((a, i) => a.schedule.overlapPolicy === 'buffer_one' && !a.trigger.startsWith('backfill:') && consequences[i].outcome.outcome !== 'pending' && consequences[i].outcome.outcome !== 'running').map((a) => a.schedule.id), now);
  // A backfill's fire ends no occurrence of the schedule's own (SPEC §18.1): it never completes it.
  // One that has a next occurrence (`continuing`) cannot complete: no statement for it (completeFinished
  // requires next_fire_at IS NULL; in this transaction only an automatic pause clears it, and that also
  // disables the row, which completeFinished requires enabled).
  const ended = [...new Set(attempts.filter((a, i) => consequences[i].ended !== null && a.trigger === 'schedule' && !continuing.has(a.schedule.id)).map((a) => a.schedule.id))];
  const completedLater = await completeFinished(tx, ended);
  const completed = new Set([...completedAlready, ...completedLater.map((c) => c.id)]);
  // SPEC §12.5: delete as delete_schedule would (runs and pending attempts go with it); dead letters stay.
  const deleted = new Set(await deleteCompleted(tx, [...completed].map((id) => ({ id, actionAfterCompletion: schedules.get(id)?.actionAfterCompletion ?? 'none' }))));
  // SPEC §15: a delete after completion is in the activity log too, by `system`.
  await deps.recordActivity(tx, [...deleted].flatMap((id) => (schedules.has(id) ? [{ action: 'delete' as const, schedule: schedules.get(id)!, at: now }] : [])));
  const after = (id: string): AfterAttempt => ({ completed: completed.has(id), deleted: deleted.has(id), paused: paused.has(id) });
  return { consequences, completed, deleted, after };
}

/**
 * SPEC §12.2–§12.3: a failed attempt is retried, or exhausts its occurrence into a dead letter. A
 * manual fire is one attempt and ends no occurrence; a failed attempt recorded after its schedule
 * was disabled is `exhausted: "cancelled"` (disabling cancels retries, SPEC §12.2).
 */
function consequenceOf(a: SettledAttempt, now: Date): Consequence {
  const base = deliveryConsequenceOf(a, now);
  const outcome = outcomeAtRecord(a.schedule, a.outcome.status === 'success', a.checkin ?? null, now);
  // SPEC §16.1: an open outcome counts once it ends; a terminal one checked in already counts now.
  const counts = outcome.outcome === 'pending' || outcome.outcome === 'running' ? null : outcome.outcome === 'failed' ? 'failed' : outcome.outcome === 'succeeded' ? 'success' : base.ended;
  // Only the schedule's own occurrences count for pause_after_failures: a manual fire is none, and a
  // backfill's fire of a past occurrence does not pause the schedule it catches up (decision 293).
  return { extras: base.extras, pending: base.pending, deadLetter: base.deadLetter, ended: base.ended, counts: a.trigger !== 'schedule' ? null : counts, outcome };
}

function deliveryConsequenceOf(a: SettledAttempt, now: Date): Omit<Consequence, 'counts' | 'outcome'> {
  const { outcome } = a;
  if (a.trigger === 'manual') return { extras: { deadLetterId: a.deadLetterId }, pending: null, deadLetter: null, ended: null };
  if (outcome.status === 'success') return { extras: {}, pending: null, deadLetter: null, ended: 'success' };
  // An attempt cancelled before it was sent (its schedule disabled meanwhile) ends its occurrence without
  // a retry, a dead letter or a failure counted: nothing was attempted.
  if (!a.enabled && outcome.result.error === 'cancelled') return { extras: { exhausted: 'cancelled' }, pending: null, deadLetter: null, ended: null };
  const policy = retryPolicyOf(a.schedule);
  // No retry policy and no dead letter: one attempt, as SPEC §5–§8 say (BlobHub behaviour).
  if (!policy) return { extras: {}, pending: null, deadLetter: null, ended: 'failed' };
  if (!a.enabled) return { extras: { exhausted: 'cancelled' }, pending: null, deadLetter: null, ended: null };
  const verdict = afterFailedAttempt(policy, a.attempt, a.scheduledFor, now);
  if (verdict.kind === 'retry') {
    return {
      extras: { nextAttemptAt: verdict.at },
      pending: { id: newId(), scheduleId: a.schedule.id, scheduledFor: a.scheduledFor, trigger: a.trigger, attempt: verdict.attempt, dueAt: verdict.at, createdAt: now },
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
      scheduledFor: a.scheduledFor,
      attempts: a.attempt,
      exhausted: verdict.reason,
      lastRunId: outcome.runId,
      lastStatus: outcome.status,
      lastResult: outcome.result,
      // SPEC §13.4: the dead letter keeps the target as its last attempt sent it, substituted, as the run does.
      invocationTargetType: outcome.recordedTarget?.type ?? s.invocationTargetType,
      invocationTarget: outcome.recordedTarget?.target ?? s.invocationTarget,
      deadLetterArn: s.deadLetterArn,
      lastRequest: deadLetterBody(a),
      createdAt: now,
    },
    ended: 'failed',
  };
}

/**
 * The SQS message body a dead letter keeps (SPEC §12.3): what the last attempt sent, through its
 * driver's `redact.sent`; when it sent nothing (a workflow call, an attempt refused before sending),
 * the call it made — the stored target through its driver's `redact.target`.
 */
function deadLetterBody(a: SettledAttempt): unknown {
  const s = a.schedule;
  if (a.outcome.request !== null && a.outcome.request !== undefined) {
    // A request goes back only to the driver that made it (lib/targets/driver.ts): its secrets are that driver's to know.
    const sender = driverOf(a.targetType);
    // SPEC §13.4: as sent, substituted, but no usable check-in token (decision 361).
    return maskCheckinTokens(sender ? sender.redact.sent(a.outcome.request) : a.outcome.request);
  }
  const driver = driverOf(s.invocationTargetType);
  const target = driver ? driver.redact.target(s.invocationTarget) : s.invocationTarget;
  return { invocation_target_type: s.invocationTargetType, invocation_target: target, scheduled_for: a.scheduledFor.toISOString(), attempt: a.attempt };
}

/**
 * SPEC §12.5: each schedule's count of consecutive occurrences whose last attempt failed, folded over
 * the occurrences that ended in this batch (in occurrence order); a count reaching
 * `pause_after_failures` pauses the schedule. Only schedules whose count changes are returned.
 */
function failureCounts(attempts: SettledAttempt[], consequences: Consequence[]): FailureCount[] {
  const bySchedule = new Map<string, { start: number; count: number; limit: number | null; note: string | null }>();
  attempts.forEach((a, i) => {
    const ended = consequences[i].counts;
    if (ended === null) return;
    const s = a.schedule;
    const state = bySchedule.get(s.id) ?? { start: s.consecutiveFailures, count: s.consecutiveFailures, limit: s.pauseAfterFailures, note: null };
    state.count = ended === 'success' ? 0 : state.count + 1;
    if (ended === 'failed' && state.limit !== null && state.count >= state.limit && state.note === null) {
      const { result, status } = a.outcome;
      const last = [result.error, result.message].filter((v) => typeof v === 'string' && v).join(': ') || status;
      state.note = `paused after ${state.count === 1 ? '1 failed occurrence' : `${state.count} consecutive failed occurrences`} (pause_after_failures = ${state.limit}); the last failed with ${last}`.slice(0, 256);
    }
    bySchedule.set(s.id, state);
  });
  return [...bySchedule.entries()]
    .filter(([, st]) => st.count !== st.start || st.note !== null)
    .map(([scheduleId, st]) => ({ scheduleId, consecutiveFailures: st.count, pauseNote: st.note }));
}

/**
 * SPEC §17: the facts alerts report of settled `attempts`: each occurrence that ended (with the
 * schedule's consecutive failures after it, counted in occurrence order as `failureCounts` does),
 * each dead letter, each automatic pause (`counts` with a note).
 */
function alertFacts(attempts: SettledAttempt[], consequences: Consequence[], counts: FailureCount[]): ScheduleFact[] {
  const facts: ScheduleFact[] = [];
  const running = new Map<string, number>();
  attempts.forEach((a, i) => {
    const c = consequences[i];
    const s = a.schedule;
    if (c.counts !== null) {
      const n = c.counts === 'success' ? 0 : (running.get(s.id) ?? s.consecutiveFailures) + 1;
      running.set(s.id, n);
      facts.push({ kind: 'ended', schedule: s, scheduledFor: a.scheduledFor, ok: c.counts === 'success', attempt: a.attempt, consecutiveFailures: n, status: a.outcome.status, result: a.outcome.result, outcome: c.outcome.outcome });
    }
    // The count after this occurrence (its own failure included), as its `ended` fact says.
    if (c.deadLetter) facts.push({ kind: 'dead_letter', schedule: s, scheduledFor: a.scheduledFor, attempt: a.attempt, status: a.outcome.status, result: a.outcome.result, exhausted: c.deadLetter.exhausted, consecutiveFailures: running.get(s.id) ?? s.consecutiveFailures });
  });
  for (const p of counts) {
    const a = attempts.find((x) => x.schedule.id === p.scheduleId);
    if (p.pauseNote !== null && a) facts.push({ kind: 'paused', schedule: a.schedule, scheduledFor: null, note: p.pauseNote, consecutiveFailures: p.consecutiveFailures });
  }
  return facts;
}

/** Mark the failed attempts that claimed-but-cancelled retries would have followed (SPEC §12.2). */
export async function markCancelled(tx: Tx, cancelled: ClaimedRetry[]): Promise<void> {
  for (const r of cancelled) {
    await tx.run.updateMany({
      where: { scheduleId: r.schedule.id, scheduledFor: r.scheduledFor, trigger: r.trigger, attempt: r.attempt - 1 },
      data: { exhausted: 'cancelled', nextAttemptAt: null },
    });
  }
}
