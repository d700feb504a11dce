/**
 * Attempts in flight to `http` and `aws` targets (SPEC §13, "delivery outside the database
 * transaction"). The fire transaction stores each as a `pending_attempts` row with `in_flight` set
 * and `due_at` = the end of its lease, and commits; each send is counted (`markSendsStarted`) before
 * its request leaves; the delivery then runs; the transaction that
 * records the attempt's run deletes the row (`takeInFlight`). While the delivering process lives it
 * renews the lease (`renewInFlight`), so no other worker claims the row; once a dead process's lease
 * ends, the row is due and the retry claim (claim-retries.ts) takes it as a recovery.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { FIRING_COLUMNS, toFiringSchedule, type FiringSchedule } from './claim-due';
import { sqlInstant } from './instant';
import { executeSql, queryRows, readRows } from './run-sql';
import { rawBoolean, rawJson } from './schedule-record';

/**
 * PostgreSQL: lock the in-flight rows of the JSON array `$param` in id order, before the statement
 * writes them. Deadlock freedom: one worker counts sends (MARK_SENDS_SQL), renews leases (RENEW_SQL)
 * and takes delivered rows (TAKE_IN_FLIGHT_SQL) concurrently, on different connections, of
 * overlapping rows; each locks its rows as its plan scans them unless told an order, and two
 * statements holding a row the other waits for are a deadlock (PostgreSQL then fails one). Every
 * statement here that waits for these rows' locks locks them through this, in the same order.
 * MATERIALIZED: the locks are all taken, in order, before the write begins.
 */
function lockedInIdOrder(param: string): string {
  return `WITH locked AS MATERIALIZED (SELECT p.id FROM pending_attempts AS p WHERE p.id IN (SELECT jsonb_array_elements_text(${param}::jsonb)) AND p.in_flight ORDER BY p.id FOR UPDATE OF p)`;
}

/** Param: JSON array of pending ids. Only rows still in flight. */
export const TAKE_IN_FLIGHT_SQL = {
  sqlite: 'DELETE FROM pending_attempts WHERE id IN (SELECT value FROM json_each(?)) AND in_flight = 1 RETURNING id, checkin',
  postgresql: `${lockedInIdOrder('$1')} DELETE FROM pending_attempts AS p USING locked WHERE p.id = locked.id AND p.in_flight RETURNING p.id, p.checkin`,
} as const;

/**
 * Delete the in-flight rows `ids` in the caller's transaction; returns the ids this statement deleted,
 * each with the check-ins its row held (SPEC §16.1; null when none): the run recorded for it folds them in.
 * Exactly once (SPEC §12.2): the caller records a run ONLY for the ids returned here, in the same
 * transaction; an id missing was recorded (or recovered) by someone else, or its schedule is gone.
 * A check-in that updates the row concurrently either commits first (this DELETE returns its
 * value: PostgreSQL re-reads a row it waited for) or finds the row gone and the run recorded.
 */
export async function takeInFlight(tx: Tx, ids: string[]): Promise<Map<string, unknown>> {
  if (ids.length === 0) return new Map();
  // On the transaction's driver connection (run-sql.ts): part of the caller's transaction, so the
  // DELETE and the runs it lets the caller record commit together or not at all.
  const rows = await queryRows<{ id: string; checkin: unknown }>(tx, TAKE_IN_FLIGHT_SQL, JSON.stringify(ids));
  return new Map(rows.map((r) => [r.id, rawJson('pending_attempts.checkin', r.checkin)]));
}

/** Params: lease end, JSON array of ids (SQLite); the same, typed (PostgreSQL). */
const RENEW_SQL = {
  sqlite: 'UPDATE pending_attempts SET due_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND in_flight = 1',
  postgresql: `${lockedInIdOrder('$2')} UPDATE pending_attempts AS p SET due_at = $1::timestamp(3) FROM locked WHERE p.id = locked.id AND p.in_flight`,
} as const;

/** Move the lease of the in-flight rows `ids` to `until` (UTC); one statement. Returns rows renewed. */
export async function renewInFlight(tx: Tx, ids: string[], until: Date): Promise<number> {
  if (ids.length === 0) return 0;
  return executeSql(tx, RENEW_SQL, sqlInstant(dialectOfDb(tx), until), JSON.stringify(ids));
}

/**
 * Still deliverable (SPEC §12.2, §13): the row is in flight and, for a scheduled attempt, its schedule
 * is enabled. Disabling a schedule cancels its attempts not yet sent; a deleted schedule took its rows
 * with it (cascade). A manual fire (run now, replay) and a backfill's (SPEC §18.1, decision 294) are
 * delivered whatever the schedule's state.
 */
const DELIVERABLE = {
  sqlite: "p.in_flight = 1 AND (p.trigger <> 'schedule' OR EXISTS (SELECT 1 FROM schedules s WHERE s.id = p.schedule_id AND s.enabled = 1))",
  postgresql: "p.in_flight AND (p.trigger <> 'schedule' OR EXISTS (SELECT 1 FROM schedules s WHERE s.id = p.schedule_id AND s.enabled))",
} as const;

/** Param: JSON array of pending ids. */
export const MARK_SENDS_SQL = {
  sqlite: `UPDATE pending_attempts AS p SET deliveries = deliveries + 1 WHERE p.id IN (SELECT value FROM json_each(?)) AND ${DELIVERABLE.sqlite} RETURNING id`,
  postgresql: `${lockedInIdOrder('$1')} UPDATE pending_attempts AS p SET deliveries = p.deliveries + 1 FROM locked WHERE p.id = locked.id AND ${DELIVERABLE.postgresql} RETURNING p.id`,
} as const;

/**
 * Count one started send on each in-flight row of `ids` that is still deliverable, in one statement,
 * BEFORE the requests leave (SPEC §13: an attempt is sent at most twice; a recovery reads this count).
 * Returns the ids marked: ONLY those may be sent. This statement is the cut-over between a send and a
 * disable or delete: an attempt marked here was sent before the change (its run records its real
 * outcome); one not marked is never sent (cancelled). An id recorded or recovered elsewhere is not marked.
 */
export async function markSendsStarted(tx: Tx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  // Committed before any of these requests leaves (the caller's transaction, on its driver connection).
  const rows = await queryRows<{ id: string }>(tx, MARK_SENDS_SQL, JSON.stringify(ids));
  return new Set(rows.map((r) => r.id));
}

/** Param: JSON array of pending ids. */
const DELIVERABLE_SQL = {
  sqlite: `SELECT p.id FROM pending_attempts AS p WHERE p.id IN (SELECT value FROM json_each(?)) AND ${DELIVERABLE.sqlite}`,
  postgresql: `SELECT p.id FROM pending_attempts AS p WHERE p.id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND ${DELIVERABLE.postgresql}`,
} as const;

/**
 * Which in-flight attempts of `ids` are no longer deliverable (their schedule was deleted or disabled,
 * or the row was recorded or recovered elsewhere): one read, no lock. A delivering process cancels
 * those still waiting for a pool slot; the send marker above stays the rule for the rest.
 */
export async function undeliverableInFlight(db: Tx, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await readRows<{ id: string }>(db, DELIVERABLE_SQL, JSON.stringify(ids));
  const still = new Set(rows.map((r) => r.id));
  return new Set(ids.filter((id) => !still.has(id)));
}

/** Param: JSON array of schedule ids. PostgreSQL locks them (`FOR UPDATE`) until the caller commits. */
export const LOCK_FIRING_SQL = {
  sqlite: `SELECT ${FIRING_COLUMNS}, enabled FROM schedules WHERE id IN (SELECT value FROM json_each(?))`,
  postgresql: `SELECT ${FIRING_COLUMNS}, enabled FROM schedules WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) ORDER BY id FOR UPDATE`,
} as const;

/**
 * The firing columns of schedules `ids` as they are now, locked for the caller's transaction
 * (PostgreSQL `FOR UPDATE`, in id order so two recorders never deadlock; SQLite holds its write lock
 * already). A recorder folds an attempt's outcome into these, not into the copy read at the claim,
 * which other batches may have changed since. Deleted schedules are absent.
 */
export async function lockFiringSchedules(tx: Tx, ids: string[]): Promise<Map<string, FiringSchedule & { enabled: boolean }>> {
  const out = new Map<string, FiringSchedule & { enabled: boolean }>();
  if (ids.length === 0) return out;
  // PostgreSQL: the FOR UPDATE lock is the caller's transaction's (same driver connection) until it commits.
  const rows = await queryRows(tx, LOCK_FIRING_SQL, JSON.stringify([...new Set(ids)]));
  for (const r of rows) {
    const s = toFiringSchedule(r);
    out.set(s.id, { ...s, enabled: rawBoolean(r.enabled) });
  }
  return out;
}
