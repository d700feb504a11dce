/**
 * The claim (SPEC §8 "exactly once"): take due schedules for this transaction, so that no other
 * worker fires them until it commits or rolls back. The claimed rows are returned whole, so firing
 * needs no second read.
 *
 * - PostgreSQL: `FOR UPDATE SKIP LOCKED` locks the rows; another worker's identical statement SKIPS
 *   them and takes the next due rows, so N workers share the backlog without waiting on each other.
 *   A row updated by a commit since this statement started is re-checked against the WHERE
 *   (READ COMMITTED re-evaluation), so a claimed row is always current.
 * - SQLite: the transaction is `BEGIN IMMEDIATE` (lib/db/client.ts), so this statement already runs
 *   under the database's single write lock: nothing else can write until commit, and every row read
 *   here stays current. Other workers wait in the busy timeout, then claim what is still due.
 *
 * Both: the range `next_fire_at <= now` is read through the `schedules(next_fire_at)` index, oldest
 * first (never a scan of every schedule). Disabled and completed schedules have next_fire_at NULL.
 * The advance (advance-next-fire.ts) still checks ownership row by row.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';
import { rawInstant, rawJson, type ScheduleRecord } from './schedule-record';

/** A claimed schedule: the columns of the `schedules` row a fire reads. */
export type ClaimedSchedule = Pick<
  ScheduleRecord,
  'id' | 'description' | 'repeat' | 'invocationTime' | 'cronExpression' | 'timezone' | 'startDate' | 'endDate' | 'invocationTarget' | 'createdByType' | 'createdById'
> & {
  /** `workflow` | `http` | `aws` (SPEC §13). */
  invocationTargetType: string;
  /** The EventBridge API's stored attributes (SPEC §14), read for the default event (SPEC §13.3); or null. */
  eventbridge: unknown;
  /** The occurrence being claimed: never null for a claimed row. */
  nextFireAt: Date;
};

/** Only what firing reads (every column read costs per row; state and enabled are in the WHERE). */
const COLUMNS = `id, description, repeat, invocation_time, cron_expression, timezone, start_date, end_date,
  invocation_target_type, invocation_target, eventbridge, next_fire_at, created_by_type, created_by_id`;

/**
 * Due schedules, oldest occurrence first, up to `limit`. Params: now, limit.
 * The WHERE is exactly the index's range and the ORDER BY its order, so the scan stops after `limit`
 * rows however large the backlog (with an extra filter, PostgreSQL may instead read and sort EVERY
 * due row each batch). Disabled and completed schedules have next_fire_at NULL; `state` and
 * `enabled` are re-checked by the advance, which fires nothing for a row that fails them.
 */
export const CLAIM_DUE_SQL = {
  // Runs under BEGIN IMMEDIATE: the write lock is already held. `?` is bound as Prisma's stored TEXT
  // form (instant.ts), so `<=` compares instants.
  sqlite: `SELECT ${COLUMNS} FROM schedules
    WHERE next_fire_at <= ?
    ORDER BY next_fire_at LIMIT ?`,
  // SKIP LOCKED: rows another worker holds are not waited for and not returned (they are its batch).
  postgresql: `SELECT ${COLUMNS} FROM schedules
    WHERE next_fire_at <= $1::timestamp(3)
    ORDER BY next_fire_at LIMIT $2
    FOR UPDATE SKIP LOCKED`,
} as const;

/** One schedule, only while its next_fire_at is still `scheduledFor`. Params: id, scheduledFor. */
export const CLAIM_OCCURRENCE_SQL = {
  sqlite: `SELECT ${COLUMNS} FROM schedules WHERE id = ? AND next_fire_at = ? AND state = 'active' AND enabled = 1`,
  // Plain FOR UPDATE (no SKIP): a single named occurrence waits for a worker holding it, then sees
  // the advanced next_fire_at and matches nothing.
  postgresql: `SELECT ${COLUMNS} FROM schedules
    WHERE id = $1 AND next_fire_at = $2::timestamp(3) AND state = 'active' AND enabled FOR UPDATE`,
} as const;

/**
 * Claim up to `limit` schedules due at `now` (next_fire_at ≤ now) inside the caller's transaction.
 * Must run inside `db.$transaction`: the claim lasts until that transaction ends.
 */
export async function claimDue(tx: Tx, now: Date, limit: number): Promise<ClaimedSchedule[]> {
  const dialect = dialectOfDb(tx);
  const rows = await tx.$queryRawUnsafe<RawSchedule[]>(CLAIM_DUE_SQL[dialect], sqlInstant(dialect, now), limit);
  return rows.map(toClaimed);
}

/**
 * Claim the one occurrence `scheduledFor` of `scheduleId`, or null when the schedule no longer
 * waits for it (fired, skipped, saved, disabled or deleted since the caller saw it).
 */
export async function claimOccurrence(tx: Tx, scheduleId: string, scheduledFor: Date): Promise<ClaimedSchedule | null> {
  const dialect = dialectOfDb(tx);
  const rows = await tx.$queryRawUnsafe<RawSchedule[]>(CLAIM_OCCURRENCE_SQL[dialect], scheduleId, sqlInstant(dialect, scheduledFor));
  return rows.length ? toClaimed(rows[0]) : null;
}

interface RawSchedule {
  id: string;
  description: string | null;
  repeat: string;
  invocation_time: string | null;
  cron_expression: string | null;
  timezone: string;
  start_date: Date | string | null;
  end_date: Date | string | null;
  invocation_target_type: string;
  invocation_target: unknown;
  eventbridge: unknown;
  next_fire_at: Date | string;
  created_by_type: string;
  created_by_id: string;
}

/** Prisma's raw results already carry Date and JSON values on both adapters; normalize defensively. */
function toClaimed(r: RawSchedule): ClaimedSchedule {
  return {
    id: r.id,
    description: r.description,
    repeat: r.repeat,
    invocationTime: r.invocation_time,
    cronExpression: r.cron_expression,
    timezone: r.timezone,
    startDate: rawInstant(r.start_date),
    endDate: rawInstant(r.end_date),
    invocationTargetType: r.invocation_target_type,
    invocationTarget: typeof r.invocation_target === 'string' ? JSON.parse(r.invocation_target) : r.invocation_target,
    eventbridge: rawJson(r.eventbridge),
    nextFireAt: new Date(r.next_fire_at),
    createdByType: r.created_by_type,
    createdById: r.created_by_id,
  };
}
