/**
 * SPEC §18.1 backfills in the worker: which backfills have work, how many of a backfill's fired
 * occurrences have ended, and the claim of its next occurrences.
 *
 * Exactly once per (backfill, occurrence): a backfill's occurrences are rows of
 * `backfill_occurrences`, keyed (backfill_id, seq) and unique by (backfill_id, scheduled_for). The
 * claim (`claimBackfillOccurrences`) sets `fired_at` with a conditional UPDATE (`fired_at IS NULL`)
 * and RETURNS only the rows it moved; only those are fired, in the same transaction, which inserts
 * their runs (trigger `backfill:<id>`, whose UNIQUE (schedule_id, scheduled_for, trigger, attempt)
 * key refuses a second run of the same attempt). A crash before commit leaves the rows unclaimed and
 * no run; after it, they are claimed and fired: never twice, never lost.
 *
 * At most `max_concurrency` in flight: the claim first locks the backfill row (PostgreSQL `FOR UPDATE
 * SKIP LOCKED`; SQLite's `BEGIN IMMEDIATE` holds the write lock already), so no two transactions count
 * its occurrences in flight and claim more at once; an occurrence ends only by a commit (its run), so
 * the count can only fall between the claim and its commit.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { executeSql, queryRows, readRows } from './run-sql';
import { sqlInstant } from './instant';
import { FIRING_COLUMNS, toFiringSchedule, type FiringSchedule } from './claim-due';
import { rawBoolean, rawInstant, rawText } from './schedule-record';

/** A running backfill as the worker claims it. */
export interface RunningBackfill {
  id: string;
  scheduleId: string;
  rangeFrom: Date;
  rangeTo: Date;
  maxConcurrency: number;
  total: number;
  fired: number;
}

const BACKFILL_COLUMNS = 'id, schedule_id, range_from, range_to, max_concurrency, total, fired';

/** Params: limit. Oldest first, so an older backfill is served before a newer one. */
const LOCK_RUNNING_SQL = {
  sqlite: `SELECT ${BACKFILL_COLUMNS} FROM backfills WHERE state = 'running' ORDER BY created_at, id LIMIT ?`,
  // SKIP LOCKED: a backfill another worker holds is its to claim from now.
  postgresql: `SELECT ${BACKFILL_COLUMNS} FROM backfills WHERE state = 'running' ORDER BY created_at, id LIMIT $1 FOR UPDATE SKIP LOCKED`,
} as const;

const ANY_RUNNING_SQL = {
  sqlite: `SELECT 1 AS found FROM backfills WHERE state = 'running' LIMIT 1`,
  postgresql: `SELECT 1 AS found FROM backfills WHERE state = 'running' LIMIT 1`,
} as const;

/**
 * Whether any backfill is running, read outside a transaction through the backfills(state) index
 * (the client's own driver connection where it can, `readRows`): what the worker asks before it
 * opens a backfill transaction every loop. A backfill that starts after this read is seen next loop.
 */
export async function anyRunningBackfill(db: Tx): Promise<boolean> {
  return (await readRows(db, ANY_RUNNING_SQL)).length > 0;
}

/**
 * Lock up to `limit` running backfills for the caller's transaction (see above): the transaction's
 * first statement, like the occurrence claim (claim-due.ts).
 */
export async function lockRunningBackfills(tx: Tx, limit: number): Promise<RunningBackfill[]> {
  const rows = await queryRows(tx, LOCK_RUNNING_SQL, limit);
  return rows.map((r) => ({
    id: rawText('backfills.id', r.id),
    scheduleId: rawText('backfills.schedule_id', r.schedule_id),
    rangeFrom: rawInstant(r.range_from)!,
    rangeTo: rawInstant(r.range_to)!,
    maxConcurrency: Number(r.max_concurrency),
    total: Number(r.total),
    fired: Number(r.fired),
  }));
}

/**
 * Params: schedule id, stored trigger, range from (exclusive), range to, expects completion (1/0).
 * A backfill's run ends its occurrence when it succeeded (and, for a schedule that expects completion,
 * its outcome is no longer open) or failed with no further attempt (no retry pending). Read through
 * the runs' UNIQUE (schedule_id, scheduled_for, trigger, attempt) index: the schedule's range.
 */
const COUNT_ENDED_SQL = {
  sqlite: `SELECT COUNT(*) AS n FROM runs
    WHERE schedule_id = ? AND trigger = ? AND scheduled_for > ? AND scheduled_for <= ?
      AND ((status = 'success' AND (? = 0 OR outcome IS NULL OR outcome NOT IN ('pending', 'running'))) OR (status <> 'success' AND next_attempt_at IS NULL))`,
  postgresql: `SELECT COUNT(*) AS n FROM runs
    WHERE schedule_id = $1 AND trigger = $2 AND scheduled_for > $3::timestamp(3) AND scheduled_for <= $4::timestamp(3)
      AND ((status = 'success' AND ($5 = 0 OR outcome IS NULL OR outcome NOT IN ('pending', 'running'))) OR (status <> 'success' AND next_attempt_at IS NULL))`,
} as const;

/**
 * How many of backfill `b`'s fired occurrences have ended (its in flight: `fired` − this). `trigger`:
 * its stored trigger; `expectsCompletion`: its schedule has `completion` (SPEC §16.1), so a delivered
 * run is in flight until its outcome is terminal (SPEC §18.1).
 */
export async function countBackfillEnded(tx: Tx, b: Pick<RunningBackfill, 'scheduleId' | 'rangeFrom' | 'rangeTo'>, trigger: string, expectsCompletion: boolean): Promise<number> {
  const dialect = dialectOfDb(tx);
  const rows = await queryRows<{ n: unknown }>(tx, COUNT_ENDED_SQL, b.scheduleId, trigger, sqlInstant(dialect, b.rangeFrom), sqlInstant(dialect, b.rangeTo), expectsCompletion ? 1 : 0);
  return Number(rows[0]?.n ?? 0);
}

/** Params: now, backfill id, fired (exclusive lower seq), fired + n (inclusive upper seq). */
const CLAIM_OCCURRENCES_SQL = {
  sqlite: `UPDATE backfill_occurrences SET fired_at = ?
    WHERE backfill_id = ? AND seq > ? AND seq <= ? AND fired_at IS NULL
    RETURNING seq, scheduled_for`,
  postgresql: `UPDATE backfill_occurrences SET fired_at = $1::timestamp(3)
    WHERE backfill_id = $2 AND seq > $3 AND seq <= $4 AND fired_at IS NULL
    RETURNING seq, scheduled_for`,
} as const;

/** Params: count, backfill id. */
const ADD_FIRED_SQL = {
  sqlite: `UPDATE backfills SET fired = fired + ? WHERE id = ?`,
  postgresql: `UPDATE backfills SET fired = fired + $1 WHERE id = $2`,
} as const;

/**
 * Claim the next `n` occurrences of backfill `b` (locked by `lockRunningBackfills`), in its firing
 * order, at `now`: the rows `seq` fired+1 … fired+n still unclaimed. Returns their instants in order.
 */
export async function claimBackfillOccurrences(tx: Tx, b: RunningBackfill, n: number, now: Date): Promise<Date[]> {
  if (n <= 0) return [];
  // Exactly once per (backfill, occurrence), SPEC §18.1: ONLY the rows this conditional UPDATE moved
  // off `fired_at IS NULL` are fired, and by this transaction (keep it the one that inserts their runs).
  const rows = await queryRows<{ seq: unknown; scheduled_for: unknown }>(tx, CLAIM_OCCURRENCES_SQL, sqlInstant(dialectOfDb(tx), now), b.id, b.fired, b.fired + n);
  if (rows.length) await executeSql(tx, ADD_FIRED_SQL, rows.length, b.id);
  return rows
    .map((r) => ({ seq: Number(r.seq), at: rawInstant(r.scheduled_for)! }))
    .sort((x, y) => x.seq - y.seq)
    .map((r) => r.at);
}

/** Params: state, now, backfill id. */
const FINISH_SQL = {
  sqlite: `UPDATE backfills SET state = ?, finished_at = ? WHERE id = ? AND state = 'running'`,
  postgresql: `UPDATE backfills SET state = $1, finished_at = $2::timestamp(3) WHERE id = $3 AND state = 'running'`,
} as const;

/** Move a running backfill to `completed` (or `cancelled`) at `now`; false when it was not running. */
export async function finishBackfill(tx: Tx, backfillId: string, state: 'completed' | 'cancelled', now: Date): Promise<boolean> {
  return (await executeSql(tx, FINISH_SQL, state, sqlInstant(dialectOfDb(tx), now), backfillId)) === 1;
}

/**
 * Param: JSON array of schedule ids. A backfill fire never moves next_fire_at, so it does not lock its
 * schedules for update; but the runs and in-flight rows it inserts lock them FOR KEY SHARE (their
 * foreign keys). PostgreSQL takes that lock here, first, in id order, and SKIPS a schedule another
 * transaction holds (a delete, its own claim or record): waiting for it while holding the backfill
 * row was a deadlock against a delete, which holds the schedule and cascades to the backfill
 * (docs/decisions.md 434). A skipped backfill is fired from a later loop.
 */
const FIRING_SCHEDULES_SQL = {
  sqlite: `SELECT ${FIRING_COLUMNS}, enabled FROM schedules WHERE id IN (SELECT value FROM json_each(?))`,
  postgresql: `SELECT ${FIRING_COLUMNS}, enabled FROM schedules WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY id FOR KEY SHARE SKIP LOCKED`,
} as const;

/** The schedules `ids` as a backfill fire reads them: absent when deleted or, on PostgreSQL, held by another transaction (see above). */
export async function readFiringSchedules(tx: Tx, ids: string[]): Promise<Map<string, FiringSchedule & { enabled: boolean }>> {
  if (ids.length === 0) return new Map();
  const rows = await queryRows(tx, FIRING_SCHEDULES_SQL, JSON.stringify([...new Set(ids)]));
  return new Map(rows.map((r) => {
    const s = toFiringSchedule(r);
    return [s.id, { ...s, enabled: rawBoolean(r.enabled) }];
  }));
}
