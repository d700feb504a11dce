/**
 * Outcomes (SPEC §16.1): how the work a delivered attempt started ended, told by check-ins and, for a
 * schedule with `completion`, decided `timed_out` by the worker when none arrives in time.
 *
 * A run's outcome moves `pending` → `running` → one of the terminal `succeeded`, `failed`,
 * `timed_out`, once: every move is a conditional UPDATE whose WHERE names the outcomes it may leave,
 * so of a terminal check-in and the deadline (or two check-ins) exactly one wins and the other changes
 * nothing. A check-in that arrives while the attempt is still in flight (its run not yet recorded) is
 * kept on the in-flight row and folded into the run when it is recorded (`outcomeAtRecord`).
 *
 * A terminal outcome is settled in the transaction that decides it: `failed` and `timed_out` count as
 * a failed occurrence for `pause_after_failures` (SPEC §12.5), `succeeded` resets the count.
 */
import {
  cancelPendingAttempts,
  DURATION_MAX_MS,
  endRunOutcome,
  inTransaction,
  lockFiringSchedules,
  findRunsPastOutcomeDue,
  lockScheduleOfRun,
  releaseBuffered,
  startRunOutcome,
  updateFailureCounts,
  type Db, type FailureCount, type FiringSchedule, type Tx } from '../db';
import { OPEN_OUTCOMES, type RunOutcomeState } from '../db/contract';
import type { EngineDeps, ScheduleFact } from './deps';
import { FIRE_TX } from './outcomes';
import { attemptToken, maskCheckinTokens } from './checkin-token';

/** What a check-in says (SPEC §16.1): `/start`; no suffix or exit code 0; `/fail` or a non-zero exit code. */
export type CheckinKind = { kind: 'start' } | { kind: 'succeeded'; exitCode: number | null } | { kind: 'failed'; exitCode: number | null };

/** Check-ins held on an in-flight attempt until its run is recorded (`pending_attempts.checkin`). */
export interface HeldCheckin {
  outcome: 'running' | 'succeeded' | 'failed';
  /** ISO instants. */
  started_at?: string;
  finished_at?: string;
  exit_code?: number;
  message?: string;
}

/** A run's outcome columns (prisma/schema.prisma `Run`). */
export interface OutcomeColumns {
  outcome: RunOutcomeState | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  durationMs: number | null;
  exitCode: number | null;
  outcomeMessage: string | null;
  /** While open with a completion deadline: when it times out. */
  outcomeDueAt: Date | null;
}

const NO_OUTCOME: OutcomeColumns = { outcome: null, startedAt: null, finishedAt: null, durationMs: null, exitCode: null, outcomeMessage: null, outcomeDueAt: null };

const addSeconds = (at: Date, s: number) => new Date(at.getTime() + s * 1000);

/** The duration from `from` to `to`, in ms, within the column's range (never negative). */
const durationMs = (from: Date, to: Date) => Math.min(DURATION_MAX_MS, Math.max(0, to.getTime() - from.getTime()));

function heldOf(v: unknown): HeldCheckin | null {
  if (v === null || typeof v !== 'object') return null;
  const o = (v as { outcome?: unknown }).outcome;
  return o === 'running' || o === 'succeeded' || o === 'failed' ? (v as HeldCheckin) : null;
}

/**
 * The outcome columns of a run being recorded at instant `now` (its delivery) for `schedule`, after a
 * delivery that succeeded (`delivered`) or not, with the check-ins `held` while it was in flight.
 * - check-ins held: they decide (a terminal one ends the run; `running` keeps the `/start` instant);
 * - none, delivered, schedule with `completion`: `pending` from now, due `expect_within_seconds` later;
 * - otherwise: no outcome.
 * A `running` run's deadline counts from its `/start`. Pure.
 */
export function outcomeAtRecord(schedule: Pick<FiringSchedule, 'completionExpectSeconds'>, delivered: boolean, held: unknown, now: Date): OutcomeColumns {
  const h = heldOf(held);
  const expect = schedule.completionExpectSeconds;
  if (h) {
    const started = h.started_at ? new Date(h.started_at) : null;
    if (h.outcome === 'running') {
      return { ...NO_OUTCOME, outcome: 'running', startedAt: started ?? now, outcomeMessage: h.message ?? null, outcomeDueAt: expect !== null && delivered ? addSeconds(started ?? now, expect) : null };
    }
    const finished = h.finished_at ? new Date(h.finished_at) : now;
    const from = started ?? (finished < now ? finished : now);
    return { outcome: h.outcome, startedAt: from, finishedAt: finished, durationMs: durationMs(from, finished), exitCode: h.exit_code ?? null, outcomeMessage: h.message ?? null, outcomeDueAt: null };
  }
  if (!delivered || expect === null) return NO_OUTCOME;
  return { ...NO_OUTCOME, outcome: 'pending', startedAt: now, outcomeDueAt: addSeconds(now, expect) };
}

/** What a check-in answered: the run's outcome now (null when none is recorded yet), or null for an unknown run. */
export type CheckinAnswer = { outcome: RunOutcomeState | 'pending' } | null;

/**
 * Record check-in `kind` for run `runId` at instant `now` (SPEC §16.1), with `message` (≤ 1 KiB) and
 * the schedule's deadline rules, in one transaction. Returns the run's outcome afterwards, or null
 * when no run or in-flight attempt has that id (expired, swept, never made: the caller answers 404).
 * The first terminal check-in wins; a later one (or one after `timed_out`) changes nothing.
 */
export async function recordCheckIn(db: Db, deps: EngineDeps, given: { runId: string; checkin: CheckinKind; message: string | null; now: Date }): Promise<CheckinAnswer> {
  // Decision 361: a message quoting the attempt's own check-in URL or token keeps no usable token.
  const opts = { ...given, message: maskCheckinTokens(given.message, attemptToken(deps.checkins, given.runId)) };
  const once = () =>
    inTransaction(db, async (tx): Promise<CheckinAnswer | typeof RECORDED_MEANWHILE> => {
      // Lock order schedule → run, as the deadline's sweep takes them (no deadlock between the two).
      const schedule = await lockScheduleOfRun(tx, opts.runId);
      if (schedule) return checkInRun(tx, deps, schedule, opts);
      return checkInFlight(tx, opts);
    }, FIRE_TX);
  const first = await once();
  // The attempt's run was recorded between our two reads (PostgreSQL): take the check-in against it.
  const answer = first === RECORDED_MEANWHILE ? await once() : first;
  return answer === RECORDED_MEANWHILE ? null : answer;
}

/** `checkInFlight` found the in-flight row, then lost it to the record of its run. */
const RECORDED_MEANWHILE = Symbol('recorded meanwhile');

const OPEN: string[] = [...OPEN_OUTCOMES];

/**
 * A check-in for a recorded run, its schedule locked by the caller: one conditional UPDATE of the
 * run, then (a terminal outcome it decided) the schedule's failure count and `buffer_one` release.
 * The answer comes from the UPDATE; the run is read again only when the UPDATE did not move it.
 */
async function checkInRun(tx: Tx, deps: EngineDeps, schedule: FiringSchedule, opts: { runId: string; checkin: CheckinKind; message: string | null; now: Date }): Promise<CheckinAnswer> {
  const { runId, checkin, message, now } = opts;
  if (checkin.kind === 'start') {
    // A first /start moves an open (or not yet expected) outcome to `running`; the deadline counts from it.
    const dueAt = schedule.completionExpectSeconds != null ? addSeconds(now, schedule.completionExpectSeconds) : null;
    if (await startRunOutcome(tx, runId, { dueAt, message, now })) return { outcome: 'running' };
  } else {
    // Exactly once (SPEC §16.1 "the first terminal check-in wins"): this UPDATE only leaves an open
    // (or absent) outcome; a run already terminal — another check-in or the deadline's `timed_out` —
    // matches nothing, and nothing below runs for it.
    const moved = await endRunOutcome(tx, runId, { outcome: checkin.kind, exitCode: checkin.exitCode, message, now });
    if (moved) {
      // SPEC §17 messages name the occurrence and attempt: the UPDATE returned them.
      await settleOutcomes(tx, deps, [{ schedule, outcome: checkin.kind, manual: moved.trigger !== 'schedule', scheduledFor: moved.scheduledFor, attempt: moved.attempt }], now);
      return { outcome: checkin.kind };
    }
  }
  const run = await tx.run.findUnique({ where: { id: runId }, select: { outcome: true } });
  return run ? { outcome: (run.outcome ?? 'pending') as RunOutcomeState } : null;
}

/** A check-in for an attempt still in flight: kept on its row until its run is recorded. */
async function checkInFlight(tx: Tx, opts: { runId: string; checkin: CheckinKind; message: string | null; now: Date }): Promise<CheckinAnswer | typeof RECORDED_MEANWHILE> {
  const row = await tx.pendingAttempt.findFirst({ where: { runId: opts.runId, inFlight: true }, select: { id: true, checkin: true } });
  if (!row) return null;
  const held = heldOf(row.checkin);
  const at = opts.now.toISOString();
  let next: HeldCheckin;
  if (held && held.outcome !== 'running') return { outcome: held.outcome };
  if (opts.checkin.kind === 'start') {
    if (held) return { outcome: held.outcome };
    next = { outcome: 'running', started_at: at, ...(opts.message !== null ? { message: opts.message } : {}) };
  } else {
    next = {
      outcome: opts.checkin.kind,
      ...(held?.started_at ? { started_at: held.started_at } : {}),
      finished_at: at,
      ...(opts.checkin.exitCode !== null ? { exit_code: opts.checkin.exitCode } : {}),
      ...(opts.message !== null ? { message: opts.message } : held?.message ? { message: held.message } : {}),
    };
  }
  // The record of the attempt deletes this row: an update after it matches nothing, and the
  // check-in is then taken again against the recorded run (the caller's next try).
  const { count: updated } = await tx.pendingAttempt.updateMany({ where: { id: row.id, inFlight: true }, data: { checkin: next as object } });
  if (updated === 0) return RECORDED_MEANWHILE;
  return { outcome: next.outcome };
}

/** A terminal outcome to fold into its schedule (SPEC §12.5, §16.1). */
export interface EndedOutcome {
  schedule: FiringSchedule;
  outcome: 'succeeded' | 'failed' | 'timed_out';
  /** A manual or backfill fire's run: not the schedule's own occurrence, so it does not count for `pause_after_failures`. */
  manual: boolean;
  /** The run's occurrence and attempt (SPEC §17 messages name them), when known. */
  scheduledFor?: Date;
  attempt?: number;
}

/**
 * Fold terminal outcomes into their schedules, in the caller's transaction, at instant `now`:
 * `succeeded` resets the consecutive-failure count, `failed` and `timed_out` add one and pause the
 * schedule when it reaches `pause_after_failures` (its pending retries cancelled, the pause in the
 * activity log). Schedules must be locked by the caller (`lockFiringSchedules`).
 */
export async function settleOutcomes(tx: Tx, deps: EngineDeps, ended: EndedOutcome[], now: Date): Promise<void> {
  // SPEC §16.2: the run in progress ended; a `buffer_one` schedule's waiting occurrence becomes due.
  await releaseBuffered(tx, ended.filter((e) => e.schedule.overlapPolicy === 'buffer_one').map((e) => e.schedule.id), now);
  const state = new Map<string, { start: number; count: number; limit: number | null; note: string | null; schedule: FiringSchedule }>();
  for (const e of ended) {
    if (e.manual) continue;
    const s = e.schedule;
    const st = state.get(s.id) ?? { start: s.consecutiveFailures, count: s.consecutiveFailures, limit: s.pauseAfterFailures, note: null, schedule: s };
    st.count = e.outcome === 'succeeded' ? 0 : st.count + 1;
    if (e.outcome !== 'succeeded' && st.limit !== null && st.count >= st.limit && st.note === null) {
      st.note = `paused after ${st.count === 1 ? '1 failed occurrence' : `${st.count} consecutive failed occurrences`} (pause_after_failures = ${st.limit}); the last ended with outcome ${e.outcome}`.slice(0, 256);
    }
    state.set(s.id, st);
  }
  const counts: FailureCount[] = [...state.entries()].filter(([, st]) => st.count !== st.start || st.note !== null).map(([scheduleId, st]) => ({ scheduleId, consecutiveFailures: st.count, pauseNote: st.note }));
  await updateFailureCounts(tx, counts, now);
  const paused = counts.filter((c) => c.pauseNote !== null).map((c) => c.scheduleId);
  // SPEC §12.2: disabling a schedule cancels its pending retries, the automatic pause included.
  await cancelPendingAttempts(tx, paused, { now, reason: 'the worker paused the schedule' });
  await deps.recordActivity(tx, paused.map((id) => ({ action: 'auto_pause' as const, schedule: state.get(id)!.schedule, at: now })));
  // SPEC §17: each terminal outcome ends its occurrence (success or failure), raised in this transaction.
  const running = new Map<string, number>();
  const facts: ScheduleFact[] = ended.filter((e) => !e.manual).map((e) => {
    const n = e.outcome === 'succeeded' ? 0 : (running.get(e.schedule.id) ?? e.schedule.consecutiveFailures) + 1;
    running.set(e.schedule.id, n);
    return { kind: 'ended', schedule: e.schedule, scheduledFor: e.scheduledFor ?? null, ok: e.outcome === 'succeeded', attempt: e.attempt ?? 1, consecutiveFailures: n, status: null, result: null, outcome: e.outcome };
  });
  for (const id of paused) {
    const c = counts.find((x) => x.scheduleId === id)!;
    facts.push({ kind: 'paused', schedule: state.get(id)!.schedule, scheduledFor: null, note: c.pauseNote, consecutiveFailures: c.consecutiveFailures });
  }
  await deps.raise?.(tx, facts, now);
}

/** Most runs one `timeOutRuns` call decides. */
const TIME_OUT_BATCH = 200;

/**
 * Decide `timed_out` for the runs whose completion deadline passed at `now` (SPEC §16.1), at most
 * 200, in one transaction, and fold each into its schedule. Returns the runs this call decided.
 * Crash-safe: the decisions and their consequences commit together, or none does and the next call
 * (this worker's or another's) decides them again.
 */
export async function timeOutRuns(db: Db, deps: EngineDeps, now: Date): Promise<{ runId: string; scheduleId: string }[]> {
  // A plain read on the driver (every loop of every worker runs it): the decisions below lock and re-check.
  const due = await findRunsPastOutcomeDue(db, now, TIME_OUT_BATCH);
  if (due.length === 0) return [];
  return inTransaction(db, async (tx) => {
    // Lock order schedule → run, as check-ins take them.
    const schedules = await lockFiringSchedules(tx, due.map((r) => r.scheduleId));
    const decided: { runId: string; scheduleId: string }[] = [];
    const ended: EndedOutcome[] = [];
    // Serialization is desired: one transaction client runs one statement at a time.
    for (const r of due) {
      const run = await tx.run.findUnique({ where: { id: r.id }, select: { startedAt: true, createdAt: true } });
      if (!run) continue;
      const started = run.startedAt ?? run.createdAt;
      // Exactly once (SPEC §16.1): this conditional UPDATE claims the decision. Only a run still open
      // and still past its deadline moves; a terminal check-in committed first (or another worker's
      // identical UPDATE) leaves it matching nothing, so `timed_out` is decided once and only when
      // no terminal check-in won. Keep it in the transaction that folds the outcome into the schedule.
      const { count: moved } = await tx.run.updateMany({
        where: { id: r.id, outcome: { in: OPEN }, outcomeDueAt: { lte: now } },
        data: { outcome: 'timed_out', finishedAt: now, durationMs: durationMs(started, now), outcomeDueAt: null },
      });
      if (moved !== 1) continue;
      decided.push({ runId: r.id, scheduleId: r.scheduleId });
      const schedule = schedules.get(r.scheduleId);
      if (schedule) ended.push({ schedule, outcome: 'timed_out', manual: r.trigger !== 'schedule', scheduledFor: r.scheduledFor, attempt: r.attempt });
    }
    await settleOutcomes(tx, deps, ended, now);
    return decided;
  }, FIRE_TX);
}
