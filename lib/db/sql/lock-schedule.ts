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

/** Param: blob id. PostgreSQL only (SQLite's `BEGIN IMMEDIATE` holds the single write lock already). */
const LOCK_SCHEDULES_OF_BLOB_SQL = {
  postgresql: 'SELECT s.id FROM schedules AS s JOIN revisions AS r ON r.id = s.revision_id WHERE r.blob_id = $1 ORDER BY s.id FOR UPDATE OF s',
} as const;

/**
 * Lock every schedule of blob `blobId` in id order, before a delete of the blob cascades to them and
 * to their pending attempts. Deadlock freedom (docs/decisions.md 434): whatever locks several
 * schedules locks them in id order, and a schedule before its pending attempts, as the worker's record
 * of delivered attempts does; the cascade alone would lock them in its scan order. Returns how many.
 */
export async function lockSchedulesOfBlob(tx: Tx, blobId: string): Promise<number> {
  if (dialectOfDb(tx) !== 'postgresql') return 0;
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(LOCK_SCHEDULES_OF_BLOB_SQL.postgresql, blobId);
  return rows.length;
}
