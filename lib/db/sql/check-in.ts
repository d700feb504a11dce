/**
 * A check-in's statements (SPEC §16.1), the fewest that keep its rules: the run's schedule read and
 * locked by the run id in one statement, then one conditional UPDATE of the run that says whether it
 * moved. Durations are computed by the UPDATE from the row it changes (never from an earlier read),
 * so a `/start` committed meanwhile is counted from.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { FIRING_COLUMNS, toFiringSchedule, type FiringSchedule } from './claim-due';
import { sqlInstant, sqlInstantOrNull } from './instant';
import { executeSql, queryRows } from './run-sql';
import { rawBoolean, rawInstant } from './schedule-record';

/** Param: run id. PostgreSQL locks the schedule row (`FOR UPDATE`) until the caller commits. */
const LOCK_SCHEDULE_OF_RUN_SQL = {
  sqlite: `SELECT ${FIRING_COLUMNS}, enabled FROM schedules WHERE id = (SELECT schedule_id FROM runs WHERE id = ?)`,
  postgresql: `SELECT ${FIRING_COLUMNS}, enabled FROM schedules WHERE id = (SELECT schedule_id FROM runs WHERE id = $1) FOR UPDATE`,
} as const;

/**
 * The schedule of run `runId` as it is now, locked for the caller's transaction (PostgreSQL
 * `FOR UPDATE`; SQLite holds its write lock already); null when no run has that id (a run's schedule
 * never changes, and deleting a schedule deletes its runs). Lock order schedule → run, as the
 * deadline's sweep (`lockFiringSchedules` then the run's UPDATE) takes them.
 */
export async function lockScheduleOfRun(tx: Tx, runId: string): Promise<(FiringSchedule & { enabled: boolean }) | null> {
  const rows = await queryRows(tx, LOCK_SCHEDULE_OF_RUN_SQL, runId);
  if (rows.length === 0) return null;
  return { ...toFiringSchedule(rows[0]), enabled: rawBoolean(rows[0].enabled) };
}

/** `runs.duration_ms` is a 32-bit integer: a duration past 24.8 days is capped there. */
export const DURATION_MAX_MS = 2_147_483_647;

/**
 * Params: outcome, finished instant (twice on SQLite), exit code, message, run id. `started_at` keeps
 * the `/start` instant, else the delivery's (`created_at`); the duration is finished − started in ms,
 * within the column's range.
 */
const END_RUN_SQL = {
  sqlite: `UPDATE runs SET outcome = ?, started_at = COALESCE(started_at, created_at), finished_at = ?,
      duration_ms = MIN(${DURATION_MAX_MS}, MAX(0, CAST(ROUND((julianday(?) - julianday(COALESCE(started_at, created_at))) * 86400000.0) AS INTEGER))),
      exit_code = ?, outcome_due_at = NULL, outcome_message = COALESCE(?, outcome_message)
    WHERE id = ? AND (outcome IS NULL OR outcome IN ('pending', 'running'))
    RETURNING trigger, scheduled_for, attempt`,
  postgresql: `UPDATE runs SET outcome = $1, started_at = COALESCE(started_at, created_at), finished_at = $2::timestamp(3),
      duration_ms = LEAST(${DURATION_MAX_MS}, GREATEST(0, ROUND(EXTRACT(EPOCH FROM ($2::timestamp(3) - COALESCE(started_at, created_at))) * 1000)))::int,
      exit_code = $3::int, outcome_due_at = NULL, outcome_message = COALESCE($4::text, outcome_message)
    WHERE id = $5 AND (outcome IS NULL OR outcome IN ('pending', 'running'))
    RETURNING trigger, scheduled_for, attempt`,
} as const;

/**
 * End run `runId` with terminal `outcome` at `now` (SPEC §16.1), keeping its message when `message`
 * is null. Exactly once: the UPDATE only leaves an open (or absent) outcome, so of two check-ins, or
 * a check-in and the deadline's `timed_out`, one moves it. Returns the run's trigger, occurrence and
 * attempt when this call moved it, else null (already terminal, or no such run).
 */
export async function endRunOutcome(
  tx: Tx,
  runId: string,
  end: { outcome: 'succeeded' | 'failed'; exitCode: number | null; message: string | null; now: Date },
): Promise<{ trigger: string; scheduledFor: Date; attempt: number } | null> {
  const dialect = dialectOfDb(tx);
  const at = sqlInstant(dialect, end.now);
  const params = dialect === 'sqlite' ? [end.outcome, at, at, end.exitCode, end.message, runId] : [end.outcome, at, end.exitCode, end.message, runId];
  const rows = await queryRows<{ trigger: string; scheduled_for: unknown; attempt: number | bigint }>(tx, END_RUN_SQL, ...params);
  return rows.length ? { trigger: rows[0].trigger, scheduledFor: rawInstant(rows[0].scheduled_for)!, attempt: Number(rows[0].attempt) } : null;
}

/** Params: started instant, deadline (or null), message, run id. */
const START_RUN_SQL = {
  sqlite: `UPDATE runs SET outcome = 'running', started_at = ?, outcome_due_at = CASE WHEN outcome_due_at IS NULL THEN NULL ELSE ? END,
      outcome_message = COALESCE(?, outcome_message)
    WHERE id = ? AND (outcome IS NULL OR outcome = 'pending')`,
  postgresql: `UPDATE runs SET outcome = 'running', started_at = $1::timestamp(3), outcome_due_at = CASE WHEN outcome_due_at IS NULL THEN NULL ELSE $2::timestamp(3) END,
      outcome_message = COALESCE($3::text, outcome_message)
    WHERE id = $4 AND (outcome IS NULL OR outcome = 'pending')`,
} as const;

/**
 * A first `/start` for run `runId` at `now`: an open (`pending`) or absent outcome becomes `running`
 * from `now`; a run that had a deadline gets `dueAt` (null: the schedule no longer has `completion`).
 * Returns whether it moved (false: already running or terminal, or no such run).
 */
export async function startRunOutcome(tx: Tx, runId: string, start: { dueAt: Date | null; message: string | null; now: Date }): Promise<boolean> {
  const dialect = dialectOfDb(tx);
  return (await executeSql(tx, START_RUN_SQL, sqlInstant(dialect, start.now), sqlInstantOrNull(dialect, start.dueAt), start.message, runId)) === 1;
}
