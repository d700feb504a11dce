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
 * Cost (docs/performance.md "Retention"): a deleted run is one entry in each of the five b-trees of
 * `runs`; the table and `runs(created_at)` are deleted in order, the three others (`id`, the UNIQUE
 * key and `(schedule_id, created_at, id)`) at random places, about one page write each per row.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';

/** The tables the retention sweep bounds: run records and the activity log (SPEC §15 "swept with the runs"). */
export type ExpiringTable = 'runs' | 'activity';

/** Params: cutoff, limit. Both tables have an index on `created_at`. */
export function deleteExpiredSql(table: ExpiringTable) {
  return {
    // SQLite's DELETE … LIMIT needs a compile option; the sub-select bounds it portably.
    sqlite: `DELETE FROM ${table} WHERE id IN (SELECT id FROM ${table} WHERE created_at < ? ORDER BY created_at LIMIT ?)`,
    // SKIP LOCKED: rows another sweeper is deleting right now are left to it, not waited for.
    postgresql: `DELETE FROM ${table} WHERE id IN (
      SELECT id FROM ${table} WHERE created_at < $1::timestamp(3) ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)`,
  } as const;
}

const DELETE_SQL = { runs: deleteExpiredSql('runs'), activity: deleteExpiredSql('activity') } as const;

/** Delete at most `limit` rows of `table` created before `cutoff`; returns how many were deleted. */
export async function deleteExpiredRows(tx: Tx, table: ExpiringTable, cutoff: Date, limit: number): Promise<number> {
  const dialect = dialectOfDb(tx);
  return tx.$executeRawUnsafe(DELETE_SQL[table][dialect], sqlInstant(dialect, cutoff), limit);
}
