/**
 * Insert a batch of run records (SPEC §8.1) in one statement.
 *
 * Exactly once (SPEC §8, §12.2): the UNIQUE (schedule_id, scheduled_for, trigger, attempt) key refuses
 * a second run for the same attempt of an occurrence; the statement then fails and the caller's transaction rolls back the
 * whole batch (advance and executions included). Keep it in the same transaction as the advance.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { executeSql } from './run-sql';
import { sqlInstant } from './instant';

export interface RunInsert extends RunOutcomeColumns {
  id: string;
  scheduleId: string;
  scheduledFor: Date;
  /** `schedule` | `manual` */
  trigger: string;
  /** 1 for an occurrence's first attempt, 2… for its retries (SPEC §12.2). Default 1. */
  attempt?: number;
  status: string;
  result: unknown;
  executionId: string | null;
  /** A failed attempt that will be retried: when the next attempt is due. Default null. */
  nextAttemptAt?: Date | null;
  /** A failed attempt that ends its occurrence's retries: why (SPEC §8.1). Default null. */
  exhausted?: string | null;
  /** A manual replay: the dead letter it fired again (SPEC §12.3). Default null. */
  deadLetterId?: string | null;
  createdAt: Date;
  /** SPEC §16.1: when the worker decides `timed_out` (default null). */
  outcomeDueAt?: Date | null;
  /**
   * SPEC §13.4: the target as this attempt sent it (its payload substituted) and its type; absent:
   * the schedule row's stored target and type are copied.
   */
  sent?: { type: string; target: unknown };
}

/**
 * A run's SPEC §16.1 outcome columns (prisma/schema.prisma `Run`), as inserted and as read back:
 * each null (or absent) until a check-in or the worker's `timed_out` sets it. Instants are UTC.
 */
export interface RunOutcomeColumns {
  outcome?: string | null;
  startedAt?: Date | null;
  finishedAt?: Date | null;
  /** `finishedAt − startedAt` (or the fire), in ms. */
  durationMs?: number | null;
  exitCode?: number | null;
  outcomeMessage?: string | null;
}

/**
 * Param: JSON array of runs (snake_case keys). The run's `invocation_target`, `invocation_target_type`
 * and `description` are copied from its schedule row in the same statement: SPEC §8.1 records "the
 * target as stored at fire time", and inside the fire transaction the schedule row is the claimed,
 * locked one, so the copy is exactly what was fired (and the batch document stays small). A run whose
 * attempt templated its payload (SPEC §13.4) brings its own `invocation_target` and type instead.
 */
export const INSERT_RUNS_SQL = {
  sqlite: `INSERT INTO runs (id, schedule_id, scheduled_for, trigger, attempt, invocation_target_type, invocation_target, description,
      status, result, execution_id, next_attempt_at, exhausted, dead_letter_id, created_at,
      outcome, started_at, finished_at, duration_ms, exit_code, outcome_message, outcome_due_at)
    SELECT r.value ->> 'id', s.id, r.value ->> 'scheduled_for', r.value ->> 'trigger', r.value ->> 'attempt',
      COALESCE(r.value ->> 'invocation_target_type', s.invocation_target_type), COALESCE(json(r.value -> 'invocation_target'), s.invocation_target), s.description, r.value ->> 'status', json(r.value -> 'result'),
      r.value ->> 'execution_id', r.value ->> 'next_attempt_at', r.value ->> 'exhausted', r.value ->> 'dead_letter_id', r.value ->> 'created_at',
      r.value ->> 'outcome', r.value ->> 'started_at', r.value ->> 'finished_at', r.value ->> 'duration_ms', r.value ->> 'exit_code',
      r.value ->> 'outcome_message', r.value ->> 'outcome_due_at'
    FROM json_each(?) AS r JOIN schedules s ON s.id = r.value ->> 'schedule_id'`,
  postgresql: `INSERT INTO runs (id, schedule_id, scheduled_for, trigger, attempt, invocation_target_type, invocation_target, description,
      status, result, execution_id, next_attempt_at, exhausted, dead_letter_id, created_at,
      outcome, started_at, finished_at, duration_ms, exit_code, outcome_message, outcome_due_at)
    SELECT r.id, s.id, r.scheduled_for, r.trigger, r.attempt, COALESCE(r.invocation_target_type, s.invocation_target_type),
      COALESCE(r.invocation_target, s.invocation_target), s.description, r.status,
      r.result, r.execution_id, r.next_attempt_at, r.exhausted, r.dead_letter_id, r.created_at,
      r.outcome, r.started_at, r.finished_at, r.duration_ms, r.exit_code, r.outcome_message, r.outcome_due_at
    FROM jsonb_to_recordset($1::jsonb) AS r(id text, schedule_id text, scheduled_for timestamp(3), trigger text, attempt int,
      status text, result jsonb, execution_id text, next_attempt_at timestamp(3), exhausted text, dead_letter_id text, created_at timestamp(3),
      outcome text, started_at timestamp(3), finished_at timestamp(3), duration_ms int, exit_code int, outcome_message text, outcome_due_at timestamp(3),
      invocation_target_type text, invocation_target jsonb)
    JOIN schedules s ON s.id = r.schedule_id`,
} as const;

/**
 * Insert `runs` inside the caller's transaction. Throws on a duplicate occurrence (see above), and
 * when a run's schedule row does not exist (the fire path only records runs of rows it holds).
 */
export async function insertRuns(tx: Tx, runs: RunInsert[]): Promise<void> {
  if (runs.length === 0) return;
  const dialect = dialectOfDb(tx);
  const doc = runs.map((r) => {
    // The columns every run sets, then only those of the rest that this run sets: an absent key reads
    // as NULL in both statements (`->>`, jsonb_to_recordset), and most runs set none of the retry and
    // outcome columns (a smaller document to write and to parse).
    const d: Record<string, unknown> = {
      id: r.id,
      schedule_id: r.scheduleId,
      scheduled_for: sqlInstant(dialect, r.scheduledFor),
      trigger: r.trigger,
      attempt: r.attempt ?? 1,
      status: r.status,
      result: r.result,
      execution_id: r.executionId,
      created_at: sqlInstant(dialect, r.createdAt),
    };
    if (r.nextAttemptAt) d.next_attempt_at = sqlInstant(dialect, r.nextAttemptAt);
    if (r.exhausted != null) d.exhausted = r.exhausted;
    if (r.deadLetterId != null) d.dead_letter_id = r.deadLetterId;
    if (r.outcome != null) d.outcome = r.outcome;
    if (r.startedAt) d.started_at = sqlInstant(dialect, r.startedAt);
    if (r.finishedAt) d.finished_at = sqlInstant(dialect, r.finishedAt);
    if (r.durationMs != null) d.duration_ms = r.durationMs;
    if (r.exitCode != null) d.exit_code = r.exitCode;
    if (r.outcomeMessage != null) d.outcome_message = r.outcomeMessage;
    if (r.outcomeDueAt) d.outcome_due_at = sqlInstant(dialect, r.outcomeDueAt);
    if (r.sent) {
      d.invocation_target_type = r.sent.type;
      d.invocation_target = r.sent.target;
    }
    return d;
  });
  const inserted = await executeSql(tx, INSERT_RUNS_SQL, JSON.stringify(doc));
  // Every fire leaves one run record (SPEC §1): a missing schedule row would silently drop one.
  if (inserted !== runs.length) throw new Error(`insertRuns: ${runs.length - inserted} of ${runs.length} runs name no schedule row`);
}
