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
import { queryValues } from './run-sql';
import { sqlInstant } from './instant';
import { pickScheduleRecord, pickScheduleRecordOf, scheduleColumns, undecodable, type ScheduleRecord } from './schedule-record';


/** The fields of a `schedules` row that firing reads (timing, target, delivery and pause policies). */
const FIRING_KEYS = [
  'id',
  'revisionId',
  'alias',
  'name',
  'description',
  'repeat',
  'invocationTime',
  'cronExpression',
  'rateExpression',
  'rateAnchor',
  'timezone',
  'startDate',
  'endDate',
  'flexibleWindowMinutes',
  'retryMaximumAttempts',
  'retryMaximumEventAgeSeconds',
  'deadLetterArn',
  'actionAfterCompletion',
  'pauseAfterFailures',
  'consecutiveFailures',
  'completionExpectSeconds',
  'overlapPolicy',
  'catchUpWindowSeconds',
  'catchUpMode',
  'catchUpMaxBurst',
  'invocationTargetType',
  'invocationTarget',
  'facadeData',
  'createdByType',
  'createdById',
] as const satisfies readonly (keyof ScheduleRecord)[];

/** What firing reads of a schedule: `FIRING_KEYS` of the row codec's record (schedule-record.ts). */
export type FiringSchedule = Pick<ScheduleRecord, (typeof FIRING_KEYS)[number]>;

/** A schedule claimed for its due occurrence. */
export type ClaimedSchedule = FiringSchedule & {
  /** When the occurrence is due (with its flexible-window offset): never null for a claimed row. */
  nextFireAt: Date;
  /** The occurrence itself (its nominal instant, the run's `scheduled_for`). */
  nextScheduledFor: Date;
};

/** Only what firing reads (every column read costs per row; state and enabled are in the WHERE). */
export const FIRING_COLUMNS = scheduleColumns(FIRING_KEYS);
/** A claimed row: what firing reads and its occurrence, in this order (the claims read rows as arrays). */
const CLAIMED_KEYS = [...FIRING_KEYS, 'nextFireAt', 'nextScheduledFor'] as const;
const COLUMNS = scheduleColumns(CLAIMED_KEYS);

/** A raw row of FIRING_COLUMNS → FiringSchedule, through the row codec. */
export function toFiringSchedule(r: Record<string, unknown>): FiringSchedule {
  return pickScheduleRecord(r, FIRING_KEYS);
}

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
  const rows = await queryValues(tx, CLAIM_DUE_SQL, sqlInstant(dialect, now), limit);
  return rows.map(toClaimed);
}

/**
 * Claim the one occurrence `scheduledFor` of `scheduleId`, or null when the schedule no longer
 * waits for it (fired, skipped, saved, disabled or deleted since the caller saw it).
 */
export async function claimOccurrence(tx: Tx, scheduleId: string, scheduledFor: Date): Promise<ClaimedSchedule | null> {
  const dialect = dialectOfDb(tx);
  const rows = await queryValues(tx, CLAIM_OCCURRENCE_SQL, scheduleId, sqlInstant(dialect, scheduledFor));
  return rows.length ? toClaimed(rows[0]) : null;
}

const NEXT_FIRE_AT_AT = CLAIMED_KEYS.indexOf('nextFireAt');

/** A claimed row (the values of COLUMNS, in order) through the row codec; UndecodableScheduleError when it cannot be read. */
function toClaimed(values: readonly unknown[]): ClaimedSchedule {
  let row;
  try {
    row = pickScheduleRecordOf(values, CLAIMED_KEYS);
  } catch (e) {
    // CLAIMED_KEYS[0] is `id`: the one column a row cannot lack.
    throw undecodable(values[0], e, values[NEXT_FIRE_AT_AT]);
  }
  // The claim's WHERE holds next_fire_at; a row stored before next_scheduled_for existed is due at its next_fire_at.
  row.nextScheduledFor ??= row.nextFireAt;
  return row as ClaimedSchedule;
}
