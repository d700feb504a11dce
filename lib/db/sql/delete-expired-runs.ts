/**
 * The retention sweep's one statement (SPEC §9 `scheduler.run_retention_days`): delete up to `limit`
 * run records (or activity entries, SPEC §15) created before `cutoff`, oldest first, through the `runs(created_at)` index.
 *
 * Deleting a run never makes its occurrence fire again: what keeps an occurrence from firing twice is
 * next_fire_at, which the fire transaction moved past it when the run was recorded and which only
 * ever moves forward (advance-next-fire.ts). The run's UNIQUE key is the second guard, needed only
 * while the occurrence could still be claimed, and a swept run is `retention` days older than that.
 *
 * Bounded: one call deletes at most `limit` rows, so each transaction (and, on SQLite, each hold of
 * the write lock the worker's fires also need) stays short; lib/schedules/operations/retention-sweep.ts picks
 * `limit` by the time the previous batch took. Idempotent: several workers sweeping at once delete
 * each row once; a sweep with nothing left to do is one index probe.
 *
 * Cost (docs/performance.md "Retention"): a deleted run is one entry in the table and in each index
 * of `runs`; the table, `runs(created_at)` and `runs(finished_at)` are deleted in order, the others
 * (`id`, the UNIQUE key and `(schedule_id, status, created_at, id)`) at random places, about one page
 * write each per row. The batch is named by its rows' physical address (SQLite `rowid`, PostgreSQL
 * `ctid`) as the `created_at` walk finds them, never by `id` (docs/decisions.md 380): an `id IN (…)`
 * list is first sorted by the random UUID and each row then looked up through the `id` index, so
 * every row of a batch costs one more lookup in that index and the table is visited in random order;
 * by address the rows are deleted in the order the index walk returned them, table pages in sequence.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';

/** The tables the retention sweep bounds: run records and the activity log (SPEC §15 "swept with the runs"). */
export type ExpiringTable = 'runs' | 'activity';

/** Params: cutoff, limit. Both tables have an index on `created_at`. */
export function deleteExpiredSql(table: ExpiringTable) {
  return {
    // SQLite's DELETE … LIMIT needs a compile option; the sub-select bounds it portably. By rowid: the
    // IN list is kept in rowid order, the table's own order (rows are appended as they are created).
    sqlite: `DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE created_at < ? ORDER BY created_at LIMIT ?)`,
    // SKIP LOCKED: rows another sweeper is deleting right now are left to it, not waited for. By
    // ctid (a TID scan): FOR UPDATE locks each row before this DELETE, in the same statement, so no
    // other transaction can move one (an UPDATE gives a row a new ctid) in between; a row updated
    // after this statement's snapshot is not seen at its new ctid and is left to the next batch.
    postgresql: `DELETE FROM ${table} WHERE ctid = ANY(ARRAY(
      SELECT ctid FROM ${table} WHERE created_at < $1::timestamp(3) ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED))`,
  } as const;
}

const DELETE_SQL = { runs: deleteExpiredSql('runs'), activity: deleteExpiredSql('activity') } as const;

/** Delete at most `limit` rows of `table` created before `cutoff`; returns how many were deleted. */
export async function deleteExpiredRows(tx: Tx, table: ExpiringTable, cutoff: Date, limit: number): Promise<number> {
  const dialect = dialectOfDb(tx);
  return tx.$executeRawUnsafe(DELETE_SQL[table][dialect], sqlInstant(dialect, cutoff), limit);
}
