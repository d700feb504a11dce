/**
 * Lock one schedule row for the caller's transaction and read it again (SPEC §8, §12): an update
 * decides on what it reads (completed? which occurrence is pending? which retries to cancel?), and a
 * fire committing in between would make that read stale.
 *
 * - PostgreSQL: `FOR UPDATE` waits for a worker holding the row (its claim is `FOR UPDATE SKIP
 *   LOCKED`) and then reads the committed row; the worker's next claim skips it until this commits.
 * - SQLite: the transaction is `BEGIN IMMEDIATE` (lib/db/client.ts), so it already holds the single
 *   write lock and the plain read is current.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { pickScheduleRecord, scheduleColumns, toScheduleRecord, type ScheduleRecord } from './schedule-record';

export const LOCK_SCHEDULE_SQL = {
  sqlite: 'SELECT * FROM schedules WHERE id = ?',
  postgresql: 'SELECT * FROM schedules WHERE id = $1 FOR UPDATE',
} as const;

/** The schedule `id` as it is now, locked until the caller's transaction ends; null when it is gone. */
export async function lockSchedule(tx: Tx, id: string): Promise<ScheduleRecord | null> {
  const rows = await tx.$queryRawUnsafe<Record<string, unknown>[]>(LOCK_SCHEDULE_SQL[dialectOfDb(tx)], id);
  return rows.length ? toScheduleRecord(rows[0]) : null;
}

const IDENTITY_KEYS = ['id', 'revisionId', 'alias', 'name', 'version'] as const;

export const LOCK_SCHEDULE_IDENTITY_SQL = {
  sqlite: `SELECT ${scheduleColumns(IDENTITY_KEYS)} FROM schedules WHERE id = ?`,
  postgresql: `SELECT ${scheduleColumns(IDENTITY_KEYS)} FROM schedules WHERE id = $1 FOR UPDATE`,
} as const;

/**
 * `lockSchedule` reading only what names the row and its version (through the row codec), so a row
 * whose other columns the codec cannot read can still be deleted (decision 425); null when it is gone.
 */
export async function lockScheduleIdentity(tx: Tx, id: string): Promise<Pick<ScheduleRecord, (typeof IDENTITY_KEYS)[number]> | null> {
  const rows = await tx.$queryRawUnsafe<Record<string, unknown>[]>(LOCK_SCHEDULE_IDENTITY_SQL[dialectOfDb(tx)], id);
  return rows.length ? pickScheduleRecord(rows[0], IDENTITY_KEYS) : null;
}

/** Params: blob id. PostgreSQL only (SQLite's `BEGIN IMMEDIATE` holds the single write lock already). */
const LOCK_SCHEDULES_OF_BLOB_SQL = {
  postgresql: 'SELECT s.id FROM schedules AS s JOIN revisions AS r ON r.id = s.revision_id WHERE r.blob_id = $1 ORDER BY s.id FOR UPDATE OF s',
} as const;

/** Param: JSON array of schedule ids. PostgreSQL only. */
const LOCK_PENDING_OF_SCHEDULES_SQL = {
  postgresql: 'SELECT id FROM pending_attempts WHERE schedule_id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY id FOR UPDATE',
} as const;

/** Params: blob id. PostgreSQL only. */
const LOCK_ALERT_RULES_OF_BLOB_SQL = {
  postgresql: 'SELECT a.id FROM alert_rules AS a JOIN revisions AS r ON r.id = a.revision_id WHERE r.blob_id = $1 ORDER BY a.id FOR UPDATE OF a',
} as const;

/**
 * Lock every schedule of blob `blobId` in id order, then their pending attempts in id order, then the
 * blob's alert rules in id order, before a delete of the blob cascades to them. Deadlock freedom
 * (docs/decisions.md 434, 440): whatever waits for several of these locks takes schedules by id, then
 * pending attempts by id, as the worker's record of delivered attempts and its send counts do, and
 * alert rules by id after the schedules, as a raise does; the cascade alone would take them in its
 * scan order. Returns how many schedules.
 */
export async function lockBlobForDelete(tx: Tx, blobId: string): Promise<number> {
  if (dialectOfDb(tx) !== 'postgresql') return 0;
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_SCHEDULES_OF_BLOB_SQL.postgresql, blobId);
  await lockPendingAttemptsOf(tx, rows.map((r) => r.id));
  await tx.$queryRawUnsafe(LOCK_ALERT_RULES_OF_BLOB_SQL.postgresql, blobId);
  return rows.length;
}

/**
 * Lock the pending attempts (retries and attempts in flight) of `scheduleIds` in id order, for a
 * delete of those schedules, after their schedule rows (decision 434): the cascade would take them in
 * its scan order, against the id order of the worker's send counts and lease renewals. PostgreSQL
 * only; returns how many.
 */
export async function lockPendingAttemptsOf(tx: Tx, scheduleIds: string[]): Promise<number> {
  if (dialectOfDb(tx) !== 'postgresql' || scheduleIds.length === 0) return 0;
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_PENDING_OF_SCHEDULES_SQL.postgresql, JSON.stringify(scheduleIds));
  return rows.length;
}
