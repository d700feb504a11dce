/**
 * What a batch of attempts leaves behind besides their runs (SPEC §12.2–§12.5), one statement each,
 * inside the fire transaction (after the runs are inserted): the next attempts to make, the
 * exhausted occurrences' dead letters, the schedules' consecutive-failure counts and automatic
 * pauses, and the schedules that have nothing left to fire.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { executeSql, queryRows } from './run-sql';
import { sqlInstant } from './instant';

export interface PendingAttemptInsert {
  id: string;
  scheduleId: string;
  scheduledFor: Date;
  attempt: number;
  /** A retry: when it is due. In flight: when its lease ends. */
  dueAt: Date;
  createdAt: Date;
  /** Default `schedule`; `manual` for a run now or a replay in flight. */
  trigger?: string;
  /** Default false (a retry waiting for its turn); true stores the attempt in flight (SPEC §13). */
  inFlight?: boolean;
  /** Sends of the attempt already started (a recovery keeps its count). Default 0. */
  deliveries?: number;
  /** A replay in flight: the dead letter it replays. */
  deadLetterId?: string | null;
  /** In flight: the id its run will have (its check-in URL names it, SPEC §16.1). Default null. */
  runId?: string | null;
  /** Check-ins already received for it (a recovery keeps them, SPEC §16.1). Default null. */
  checkin?: unknown;
}

export const INSERT_PENDING_SQL = {
  sqlite: `INSERT INTO pending_attempts (id, schedule_id, scheduled_for, trigger, attempt, due_at, in_flight, deliveries, dead_letter_id, run_id, checkin, created_at)
    SELECT p.value ->> 'id', p.value ->> 'schedule_id', p.value ->> 'scheduled_for', p.value ->> 'trigger', p.value ->> 'attempt', p.value ->> 'due_at',
      p.value ->> 'in_flight', p.value ->> 'deliveries', p.value ->> 'dead_letter_id', p.value ->> 'run_id',
      CASE WHEN p.value -> 'checkin' IS NULL OR p.value ->> 'checkin' IS NULL THEN NULL ELSE json(p.value -> 'checkin') END, p.value ->> 'created_at'
    FROM json_each(?) AS p`,
  postgresql: `INSERT INTO pending_attempts (id, schedule_id, scheduled_for, trigger, attempt, due_at, in_flight, deliveries, dead_letter_id, run_id, checkin, created_at)
    SELECT p.id, p.schedule_id, p.scheduled_for, p.trigger, p.attempt, p.due_at, p.in_flight, p.deliveries, p.dead_letter_id, p.run_id,
      NULLIF(p.checkin, 'null'::jsonb), p.created_at
    FROM jsonb_to_recordset($1::jsonb) AS p(id text, schedule_id text, scheduled_for timestamp(3), trigger text, attempt int, due_at timestamp(3),
      in_flight boolean, deliveries int, dead_letter_id text, run_id text, checkin jsonb, created_at timestamp(3))`,
} as const;

/**
 * Store the next attempts (SPEC §12.2), or attempts in flight (SPEC §13). Exactly once: UNIQUE
 * (schedule_id, scheduled_for, trigger, attempt) refuses a second pending copy of one attempt,
 * failing the batch instead of doubling a retry.
 */
export async function insertPendingAttempts(tx: Tx, rows: PendingAttemptInsert[]): Promise<void> {
  if (rows.length === 0) return;
  const dialect = dialectOfDb(tx);
  const doc = rows.map((r) => ({
    id: r.id,
    schedule_id: r.scheduleId,
    scheduled_for: sqlInstant(dialect, r.scheduledFor),
    trigger: r.trigger ?? 'schedule',
    attempt: r.attempt,
    due_at: sqlInstant(dialect, r.dueAt),
    in_flight: dialect === 'sqlite' ? (r.inFlight ? 1 : 0) : (r.inFlight ?? false),
    deliveries: r.deliveries ?? 0,
    dead_letter_id: r.deadLetterId ?? null,
    run_id: r.runId ?? null,
    checkin: r.checkin ?? null,
    created_at: sqlInstant(dialect, r.createdAt),
  }));
  await executeSql(tx, INSERT_PENDING_SQL, JSON.stringify(doc));
}

export interface DeadLetterInsert {
  id: string;
  revisionId: string;
  scheduleId: string;
  scheduleLabel: string;
  scheduledFor: Date;
  attempts: number;
  exhausted: string;
  lastRunId: string;
  lastStatus: string;
  lastResult: unknown;
  invocationTargetType: string;
  invocationTarget: unknown;
  deadLetterArn: string | null;
  /** What the last attempt sent: the SQS message body when `deadLetterArn` is set (SPEC §12.3). */
  lastRequest: unknown;
  createdAt: Date;
}

const INSERT_DEAD_LETTERS_SQL = {
  sqlite: `INSERT INTO dead_letters (id, revision_id, schedule_id, schedule_label, scheduled_for, attempts, exhausted, last_run_id,
      last_status, last_result, invocation_target_type, invocation_target, dead_letter_arn, last_request, sqs_status, sqs_due_at, created_at)
    SELECT d.value ->> 'id', d.value ->> 'revision_id', d.value ->> 'schedule_id', d.value ->> 'schedule_label', d.value ->> 'scheduled_for',
      d.value ->> 'attempts', d.value ->> 'exhausted', d.value ->> 'last_run_id', d.value ->> 'last_status', json(d.value -> 'last_result'),
      d.value ->> 'invocation_target_type', json(d.value -> 'invocation_target'), d.value ->> 'dead_letter_arn',
      json(d.value -> 'last_request'), d.value ->> 'sqs_status', d.value ->> 'sqs_due_at', d.value ->> 'created_at'
    FROM json_each(?) AS d`,
  postgresql: `INSERT INTO dead_letters (id, revision_id, schedule_id, schedule_label, scheduled_for, attempts, exhausted, last_run_id,
      last_status, last_result, invocation_target_type, invocation_target, dead_letter_arn, last_request, sqs_status, sqs_due_at, created_at)
    SELECT d.id, d.revision_id, d.schedule_id, d.schedule_label, d.scheduled_for, d.attempts, d.exhausted, d.last_run_id,
      d.last_status, d.last_result, d.invocation_target_type, d.invocation_target, d.dead_letter_arn, d.last_request, d.sqs_status, d.sqs_due_at, d.created_at
    FROM jsonb_to_recordset($1::jsonb) AS d(id text, revision_id text, schedule_id text, schedule_label text, scheduled_for timestamp(3),
      attempts int, exhausted text, last_run_id text, last_status text, last_result jsonb, invocation_target_type text,
      invocation_target jsonb, dead_letter_arn text, last_request jsonb, sqs_status text, sqs_due_at timestamp(3), created_at timestamp(3))`,
} as const;

/**
 * Keep each exhausted occurrence in its scheduler's dead-letter list (SPEC §12.3). One with a
 * `deadLetterArn` is stored with its SQS send `pending`, due at once: the send happens after commit
 * (lib/engine/dead-letter-sends.ts), so a crash before it leaves the send due, never lost.
 */
export async function insertDeadLetters(tx: Tx, rows: DeadLetterInsert[]): Promise<void> {
  if (rows.length === 0) return;
  const dialect = dialectOfDb(tx);
  const doc = rows.map((r) => ({
    id: r.id,
    revision_id: r.revisionId,
    schedule_id: r.scheduleId,
    schedule_label: r.scheduleLabel,
    scheduled_for: sqlInstant(dialect, r.scheduledFor),
    attempts: r.attempts,
    exhausted: r.exhausted,
    last_run_id: r.lastRunId,
    last_status: r.lastStatus,
    last_result: r.lastResult,
    invocation_target_type: r.invocationTargetType,
    invocation_target: r.invocationTarget,
    dead_letter_arn: r.deadLetterArn,
    last_request: r.lastRequest ?? null,
    sqs_status: r.deadLetterArn ? 'pending' : null,
    sqs_due_at: r.deadLetterArn ? sqlInstant(dialect, r.createdAt) : null,
    created_at: sqlInstant(dialect, r.createdAt),
  }));
  await executeSql(tx, INSERT_DEAD_LETTERS_SQL, JSON.stringify(doc));
}

export interface FailureCount {
  scheduleId: string;
  /** The new count of consecutive failed occurrences (0 after a success). */
  consecutiveFailures: number;
  /** Set when the count reached `pause_after_failures`: the worker disables the schedule (SPEC §12.5). */
  pauseNote: string | null;
}

/** Params: now (SQLite: twice), JSON array of {id, consecutive_failures, pause_note}. */
const UPDATE_FAILURE_COUNTS_SQL = {
  sqlite: `UPDATE schedules SET
      consecutive_failures = f.value ->> 'consecutive_failures',
      enabled = CASE WHEN f.value ->> 'pause_note' IS NULL THEN enabled ELSE 0 END,
      next_fire_at = CASE WHEN f.value ->> 'pause_note' IS NULL THEN next_fire_at ELSE NULL END,
      next_scheduled_for = CASE WHEN f.value ->> 'pause_note' IS NULL THEN next_scheduled_for ELSE NULL END,
      paused_by_type = CASE WHEN f.value ->> 'pause_note' IS NULL THEN paused_by_type ELSE 'system' END,
      paused_by_id = CASE WHEN f.value ->> 'pause_note' IS NULL THEN paused_by_id ELSE NULL END,
      paused_at = CASE WHEN f.value ->> 'pause_note' IS NULL THEN paused_at ELSE ? END,
      pause_note = CASE WHEN f.value ->> 'pause_note' IS NULL THEN pause_note ELSE f.value ->> 'pause_note' END,
      paused_bulk = CASE WHEN f.value ->> 'pause_note' IS NULL THEN paused_bulk ELSE 0 END,
      updated_at = CASE WHEN f.value ->> 'pause_note' IS NULL THEN updated_at ELSE ? END,
      version = CASE WHEN f.value ->> 'pause_note' IS NULL THEN version ELSE version + 1 END
    FROM json_each(?) AS f
    WHERE schedules.id = f.value ->> 'id'`,
  postgresql: `UPDATE schedules AS s SET
      consecutive_failures = f.consecutive_failures,
      enabled = CASE WHEN f.pause_note IS NULL THEN s.enabled ELSE false END,
      next_fire_at = CASE WHEN f.pause_note IS NULL THEN s.next_fire_at ELSE NULL END,
      next_scheduled_for = CASE WHEN f.pause_note IS NULL THEN s.next_scheduled_for ELSE NULL END,
      paused_by_type = CASE WHEN f.pause_note IS NULL THEN s.paused_by_type ELSE 'system' END,
      paused_by_id = CASE WHEN f.pause_note IS NULL THEN s.paused_by_id ELSE NULL END,
      paused_at = CASE WHEN f.pause_note IS NULL THEN s.paused_at ELSE $1::timestamp(3) END,
      pause_note = CASE WHEN f.pause_note IS NULL THEN s.pause_note ELSE f.pause_note END,
      paused_bulk = CASE WHEN f.pause_note IS NULL THEN s.paused_bulk ELSE false END,
      updated_at = CASE WHEN f.pause_note IS NULL THEN s.updated_at ELSE $1::timestamp(3) END,
      version = CASE WHEN f.pause_note IS NULL THEN s.version ELSE s.version + 1 END
    FROM jsonb_to_recordset($2::jsonb) AS f(id text, consecutive_failures int, pause_note text)
    WHERE s.id = f.id`,
} as const;

/**
 * Write the consecutive-failure counts of schedules whose occurrences ended in this batch, disabling
 * those that reached `pause_after_failures` (SPEC §12.5: `paused.by` is the system, the note names the
 * count and the last error) and incrementing their `version` (SPEC §15: a pause is a change, a fire
 * is not). Only rows whose count changes are passed.
 */
export async function updateFailureCounts(tx: Tx, counts: FailureCount[], now: Date): Promise<void> {
  if (counts.length === 0) return;
  const dialect = dialectOfDb(tx);
  const doc = counts.map((c) => ({ id: c.scheduleId, consecutive_failures: c.consecutiveFailures, pause_note: c.pauseNote }));
  const at = sqlInstant(dialect, now);
  const params = dialect === 'sqlite' ? [at, at, JSON.stringify(doc)] : [at, JSON.stringify(doc)];
  await executeSql(tx, UPDATE_FAILURE_COUNTS_SQL, ...params);
}

const PAUSE_SET = {
  sqlite: `UPDATE schedules SET enabled = 0, next_fire_at = NULL, next_scheduled_for = NULL, paused_by_type = 'system', paused_by_id = NULL,
      paused_at = ?, pause_note = ?, paused_bulk = 0, updated_at = ?, version = version + 1`,
  postgresql: `UPDATE schedules SET enabled = false, next_fire_at = NULL, next_scheduled_for = NULL, paused_by_type = 'system', paused_by_id = NULL,
      paused_at = $1::timestamp(3), pause_note = $2, paused_bulk = false, updated_at = $3::timestamp(3), version = version + 1`,
} as const;
/** Params: at, pause note, at, id, scheduled for (the next_fire_at the caller claimed). */
const PAUSE_UNDECODABLE_SQL = {
  sqlite: `${PAUSE_SET.sqlite} WHERE id = ? AND next_fire_at = ? RETURNING id`,
  postgresql: `${PAUSE_SET.postgresql} WHERE id = $4 AND next_fire_at = $5::timestamp(3) RETURNING id`,
} as const;
/** Params: at, pause note, at, id (a row the caller's claim holds through a due retry). */
const PAUSE_UNDECODABLE_HELD_SQL = {
  sqlite: `${PAUSE_SET.sqlite} WHERE id = ? RETURNING id`,
  postgresql: `${PAUSE_SET.postgresql} WHERE id = $4 RETURNING id`,
} as const;

/**
 * Pause schedule `scheduleId` as the system with `pauseNote` (≤ 256 characters kept), as a pause
 * after failures does (SPEC §12.5: enabled off, no next occurrence, `paused.by` the system), but only
 * while its next_fire_at is still `scheduledFor` (the occurrence the caller failed to read): a row
 * saved or fired since is left alone. A row hand-disabled with its next_fire_at left set is paused
 * too (it would otherwise stay claimable). `scheduledFor` null: whatever its next_fire_at (a row
 * claimed through a due retry, held by the caller's claim). Returns whether it paused the row. For a
 * row the fire engine cannot read (UndecodableScheduleError), so it stops failing every batch it is in.
 */
export async function pauseUndecodable(tx: Tx, scheduleId: string, scheduledFor: Date | null, pauseNote: string, now: Date): Promise<boolean> {
  const dialect = dialectOfDb(tx);
  const at = sqlInstant(dialect, now);
  const note = pauseNote.slice(0, 256);
  const rows = scheduledFor
    ? await queryRows<{ id: string }>(tx, PAUSE_UNDECODABLE_SQL, at, note, at, scheduleId, sqlInstant(dialect, scheduledFor))
    : await queryRows<{ id: string }>(tx, PAUSE_UNDECODABLE_HELD_SQL, at, note, at, scheduleId);
  return rows.length === 1;
}

/** Params: JSON array of ids. Completing is not a change: `updated_at` and `version` stay (docs/decisions.md 260). */
const COMPLETE_FINISHED_SQL = {
  sqlite: `UPDATE schedules SET state = 'completed'
    WHERE id IN (SELECT value FROM json_each(?)) AND state = 'active' AND enabled = 1 AND next_fire_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM pending_attempts p WHERE p.schedule_id = schedules.id AND p.trigger = 'schedule')
    RETURNING id, action_after_completion`,
  postgresql: `UPDATE schedules AS s SET state = 'completed'
    WHERE s.id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND s.state = 'active' AND s.enabled AND s.next_fire_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM pending_attempts p WHERE p.schedule_id = s.id AND p.trigger = 'schedule')
    RETURNING s.id, s.action_after_completion`,
} as const;

/**
 * Complete every schedule of `scheduleIds` that has nothing left to fire: active and enabled, no next
 * occurrence, no pending attempt (SPEC §5.3 with §12.2: a last occurrence still being retried keeps
 * its schedule active). Returns the completed ids with their `action_after_completion`.
 */
export async function completeFinished(tx: Tx, scheduleIds: string[]): Promise<{ id: string; actionAfterCompletion: string }[]> {
  if (scheduleIds.length === 0) return [];
  const rows = await queryRows<{ id: string; action_after_completion: string }>(tx, COMPLETE_FINISHED_SQL, JSON.stringify(scheduleIds));
  return rows.map((r) => ({ id: r.id, actionAfterCompletion: r.action_after_completion }));
}
