/**
 * The retention sweep's statements for workflow executions (`workflow.execution_retention_days`,
 * docs/decisions.md 116): the executions created before `cutoff` are deleted, a bounded batch at a
 * time, oldest first, EXCEPT one a run record still links (a run whose `execution_id` names it): the
 * run's history shows its execution for as long as the run is kept.
 *
 * The link is found through `executions.run_id`, which the fire path writes together with
 * `runs.execution_id` (one run id, one execution id, both set in the fire's transaction): the probe
 * is a primary-key lookup in `runs` that also checks the run names the execution back, so `runs`
 * needs no index on `execution_id` (one more index on `runs` would cost every fire and every swept
 * run a page write; docs/performance.md "Retention").
 *
 * Bounded in rows READ, not only in rows deleted: a batch is the next `limit` executions after the
 * caller's cursor in (`created_at`, `id`) order (the `executions(created_at, id)` index); of those it
 * deletes the ones no run links. An execution it keeps is stepped over by the cursor and read again
 * only by the next sweep, so a long run retention (many old executions kept) never makes one
 * statement scan them all. Two statements, both index range scans, no rows brought back: the batch's
 * last key (`LIMIT 1 OFFSET limit − 1`), then the DELETE of the range up to it. Nothing references
 * an execution by foreign key, so a delete touches only its own row and indexes.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';

/** Where an execution sweep has got to: the last execution a batch looked at. */
export interface ExecutionSweepCursor {
  createdAt: Date;
  id: string;
}

/** Sorts before every execution: a sweep's first batch starts here. */
const START: ExecutionSweepCursor = { createdAt: new Date(0), id: '' };

/** Params: cutoff, cursor created_at, cursor id, offset (limit − 1). The batch's last key, if the batch is full. */
export const BATCH_END_SQL = {
  sqlite: `SELECT created_at, id FROM executions WHERE created_at < ? AND (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT 1 OFFSET ?`,
  postgresql: `SELECT created_at, id FROM executions WHERE created_at < $1::timestamp(3) AND (created_at, id) > ($2::timestamp(3), $3)
    ORDER BY created_at, id LIMIT 1 OFFSET $4`,
} as const;

/** Params: cutoff, cursor created_at, cursor id. Rows left after the cursor (the last, short batch only). */
export const BATCH_COUNT_SQL = {
  sqlite: `SELECT count(*) AS n FROM executions WHERE created_at < ? AND (created_at, id) > (?, ?)`,
  postgresql: `SELECT count(*) AS n FROM executions WHERE created_at < $1::timestamp(3) AND (created_at, id) > ($2::timestamp(3), $3)`,
} as const;

/** A run that names the execution, and that the execution names back. */
const LINKED = `EXISTS (SELECT 1 FROM runs r WHERE r.id = e.run_id AND r.execution_id = e.id)`;

/**
 * The DELETE of one batch's range. Params: cursor created_at, cursor id, then the range's end (the
 * batch's last key `toKey`: created_at, id; or the cutoff `toCutoff`, for the last short batch), then
 * (PostgreSQL) the limit. Each variant names its upper bound as the index range's end (SQLite would
 * otherwise scan from the cursor to the cutoff and filter). On PostgreSQL the batch is first taken
 * by the index with its LIMIT, then probed against `runs` row by row: without the LIMIT in view the
 * planner may hash the whole `runs` table for the anti-join (0.7 s a statement at 1M runs).
 */
const deleteBatch = (upper: { sqlite: string; postgresql: string; limitParam: string }) => ({
  sqlite: `DELETE FROM executions WHERE rowid IN (
      SELECT e.rowid FROM executions e WHERE (e.created_at, e.id) > (?, ?) AND ${upper.sqlite} AND NOT ${LINKED})`,
  // SKIP LOCKED: executions another sweeper holds are its to delete; this batch steps past them. By
  // ctid, as runs (delete-expired-runs.ts, decision 380): no probe of the random `id` index per row;
  // FOR UPDATE has locked each row, so none moves before the DELETE of the same statement.
  postgresql: `DELETE FROM executions WHERE ctid = ANY(ARRAY(
      SELECT e.ctid FROM (
        SELECT ctid, id, run_id FROM executions WHERE (created_at, id) > ($1::timestamp(3), $2) AND ${upper.postgresql}
        ORDER BY created_at, id LIMIT ${upper.limitParam} FOR UPDATE SKIP LOCKED
      ) e WHERE NOT ${LINKED}))`,
});
export const DELETE_BATCH_SQL = {
  toKey: deleteBatch({ sqlite: '(e.created_at, e.id) <= (?, ?)', postgresql: '(created_at, id) <= ($3::timestamp(3), $4)', limitParam: '$5' }),
  toCutoff: deleteBatch({ sqlite: 'e.created_at < ?', postgresql: 'created_at < $3::timestamp(3)', limitParam: '$4' }),
} as const;

/**
 * One batch, inside the caller's transaction: the next `limit` executions created before `cutoff`
 * that sort after `after` (null: from the oldest); those no run links are deleted. Returns how many
 * were looked at and deleted, and the cursor for the next batch. The sweep of executions is done
 * when `scanned < limit` (the batch ran to the cutoff).
 */
export async function deleteExpiredExecutions(
  tx: Tx,
  opts: { cutoff: Date; after: ExecutionSweepCursor | null; limit: number },
): Promise<{ scanned: number; deleted: number; last: ExecutionSweepCursor | null }> {
  const dialect = dialectOfDb(tx);
  const after = opts.after ?? START;
  const from = [sqlInstant(dialect, opts.cutoff), sqlInstant(dialect, after.createdAt), after.id] as const;
  const [end] = await tx.$queryRawUnsafe<{ created_at: Date | string; id: string }[]>(BATCH_END_SQL[dialect], ...from, Math.max(0, opts.limit - 1));
  const cursor = [sqlInstant(dialect, after.createdAt), after.id] as const;
  if (end) {
    // A full batch: up to and including its last key.
    const last = { createdAt: new Date(end.created_at), id: end.id };
    const deleted = await tx.$executeRawUnsafe(DELETE_BATCH_SQL.toKey[dialect], ...cursor, sqlInstant(dialect, last.createdAt), last.id, ...(dialect === 'postgresql' ? [opts.limit] : []));
    return { scanned: opts.limit, deleted, last };
  }
  // The last, short batch: everything left before the cutoff.
  const scanned = Number((await tx.$queryRawUnsafe<{ n: bigint | number }[]>(BATCH_COUNT_SQL[dialect], ...from))[0].n);
  const deleted = scanned === 0 ? 0 : await tx.$executeRawUnsafe(DELETE_BATCH_SQL.toCutoff[dialect], ...cursor, from[0], ...(dialect === 'postgresql' ? [opts.limit] : []));
  return { scanned, deleted, last: null };
}
