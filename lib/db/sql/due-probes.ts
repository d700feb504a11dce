/**
 * The worker's between-tick reads (worker/worker.ts `deliveryStep`, `idleFor`): is anything due, and
 * when is the next thing due. Each is an index lookup, read on the driver (`readRows`): a loop that
 * polls often (a short WORKER_POLL_INTERVAL_MS, several workers contending for one backlog) runs
 * them every turn, and through Prisma's model API each cost ~1–2 ms of the worker's CPU (its query
 * compiler) against ~0.1 ms here (docs/performance.md "The worker's between-tick reads").
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';
import { readRows } from './run-sql';
import { rawInstant } from './schedule-record';

/** No params. Two index lookups: `schedules(next_fire_at)`, `pending_attempts(due_at)`. */
export const EARLIEST_DUE_SQL = {
  sqlite: `SELECT (SELECT next_fire_at FROM schedules WHERE next_fire_at IS NOT NULL ORDER BY next_fire_at LIMIT 1) AS occurrence,
    (SELECT due_at FROM pending_attempts ORDER BY due_at LIMIT 1) AS retry`,
  postgresql: `SELECT (SELECT next_fire_at FROM schedules WHERE next_fire_at IS NOT NULL ORDER BY next_fire_at LIMIT 1) AS occurrence,
    (SELECT due_at FROM pending_attempts ORDER BY due_at LIMIT 1) AS retry`,
} as const;

/**
 * The earliest next_fire_at of any schedule or due_at of any pending attempt (UTC), or null when
 * nothing is scheduled: how long an idle worker may sleep.
 */
export async function findEarliestDue(db: Tx): Promise<Date | null> {
  const [row] = await readRows<{ occurrence: unknown; retry: unknown }>(db, EARLIEST_DUE_SQL);
  const times = [rawInstant(row?.occurrence), rawInstant(row?.retry)].filter((t): t is Date => t !== null);
  return times.length ? new Date(Math.min(...times.map((t) => t.getTime()))) : null;
}

/** Param: now. Through `dead_letters(sqs_due_at)`. */
export const DEAD_LETTER_SEND_DUE_SQL = {
  sqlite: `SELECT 1 AS found FROM dead_letters WHERE sqs_due_at <= ? AND sqs_status = 'pending' LIMIT 1`,
  postgresql: `SELECT 1 AS found FROM dead_letters WHERE sqs_due_at <= $1::timestamp(3) AND sqs_status = 'pending' LIMIT 1`,
} as const;

/** A probe `(db, now) → whether SQL (param: now) finds a row`. */
const probe = (sql: { readonly sqlite: string; readonly postgresql: string }) => async (db: Tx, now: Date): Promise<boolean> =>
  (await readRows(db, sql, sqlInstant(dialectOfDb(db), now))).length > 0;

/** Whether a dead letter's SQS send (SPEC §12.3) is due at `now`: the probe before its claim's write transaction. */
export const deadLetterSendDue = probe(DEAD_LETTER_SEND_DUE_SQL);

/** Param: now. Through `alerts(due_at)`. */
export const ALERT_SEND_DUE_SQL = {
  sqlite: `SELECT 1 AS found FROM alerts WHERE due_at <= ? AND status = 'pending' LIMIT 1`,
  postgresql: `SELECT 1 AS found FROM alerts WHERE due_at <= $1::timestamp(3) AND status = 'pending' LIMIT 1`,
} as const;

/** Whether an alert's send (SPEC §17) is due at `now`: the probe before its claim's write transaction. */
export const alertSendDue = probe(ALERT_SEND_DUE_SQL);

/** Params: now, limit. Through `runs(outcome_due_at)`, oldest deadline first. */
export const RUNS_PAST_OUTCOME_DUE_SQL = {
  sqlite: `SELECT id, schedule_id, trigger, scheduled_for, attempt FROM runs WHERE outcome_due_at <= ? ORDER BY outcome_due_at LIMIT ?`,
  postgresql: `SELECT id, schedule_id, trigger, scheduled_for, attempt FROM runs WHERE outcome_due_at <= $1::timestamp(3) ORDER BY outcome_due_at LIMIT $2`,
} as const;

/** A run whose completion deadline has passed (SPEC §16.1); `scheduledFor` UTC. */
export interface RunPastOutcomeDue {
  id: string;
  scheduleId: string;
  trigger: string;
  scheduledFor: Date;
  attempt: number;
}

/** The runs whose completion deadline (`outcome_due_at`) is at or before `now`, oldest first, at most `limit`. A plain read. */
export async function findRunsPastOutcomeDue(db: Tx, now: Date, limit: number): Promise<RunPastOutcomeDue[]> {
  const rows = await readRows<{ id: string; schedule_id: string; trigger: string; scheduled_for: unknown; attempt: number | bigint }>(db, RUNS_PAST_OUTCOME_DUE_SQL, sqlInstant(dialectOfDb(db), now), limit);
  return rows.map((r) => ({ id: r.id, scheduleId: r.schedule_id, trigger: r.trigger, scheduledFor: rawInstant(r.scheduled_for)!, attempt: Number(r.attempt) }));
}
