/**
 * SPEC §16.2 overlap: what of a schedule is in progress, and the occurrence a `buffer_one` schedule
 * keeps waiting. A run is in progress from its delivery until its outcome is terminal: a run whose
 * outcome is `pending` or `running`, or an attempt in flight (being delivered). The waiting
 * occurrence is a `pending_attempts` row of attempt 1 of a scheduled occurrence that is not in
 * flight — no retry has attempt 1 — due at `BUFFERED_DUE_AT` (never) until released.
 *
 * A backfill's runs and attempts (trigger `backfill:…`) are never in progress here: the overlap
 * policy does not apply to backfills (SPEC §16.2, §18.1), nor do they hold the schedule's own back.
 *
 * Ordering: the fire transaction reads this with the schedule row locked (its claim), and every
 * transaction that ends a run in progress (check-in, deadline, record of a delivery) locks the
 * schedule row first and then releases: a waiting occurrence stored by a fire is always seen by the
 * release that follows it, never lost between the two.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { executeSql, queryRows } from './run-sql';
import { sqlInstant } from './instant';

/** The due time of a waiting occurrence until its release: never claimed by `due_at <= now`. */
export const BUFFERED_DUE_AT = new Date('9999-12-31T00:00:00.000Z');

/** Param: JSON array of schedule ids. */
const IN_PROGRESS_SQL = {
  sqlite: `SELECT s.value AS schedule_id,
      (SELECT r.id FROM runs r WHERE r.schedule_id = s.value AND r.outcome IN ('pending', 'running') AND r.trigger NOT LIKE 'backfill:%' LIMIT 1) AS run_id,
      (SELECT f.run_id FROM pending_attempts f WHERE f.schedule_id = s.value AND f.in_flight = 1 AND f.trigger NOT LIKE 'backfill:%' LIMIT 1) AS flight_run_id,
      EXISTS (SELECT 1 FROM pending_attempts b WHERE b.schedule_id = s.value AND b.attempt = 1 AND b.trigger = 'schedule' AND b.in_flight = 0) AS buffered
    FROM json_each(?) AS s`,
  postgresql: `SELECT s.id AS schedule_id,
      (SELECT r.id FROM runs r WHERE r.schedule_id = s.id AND r.outcome IN ('pending', 'running') AND r.trigger NOT LIKE 'backfill:%' LIMIT 1) AS run_id,
      (SELECT f.run_id FROM pending_attempts f WHERE f.schedule_id = s.id AND f.in_flight AND f.trigger NOT LIKE 'backfill:%' LIMIT 1) AS flight_run_id,
      EXISTS (SELECT 1 FROM pending_attempts b WHERE b.schedule_id = s.id AND b.attempt = 1 AND b.trigger = 'schedule' AND NOT b.in_flight) AS buffered
    FROM jsonb_array_elements_text($1::jsonb) AS s(id)`,
} as const;

/** What of one schedule is in progress (SPEC §16.2). */
export interface InProgress {
  /** The run in progress (or the run id of the attempt in flight), or null when none is. */
  runId: string | null;
  /** A `buffer_one` occurrence is already waiting. */
  buffered: boolean;
}

/** For each of `scheduleIds`, what is in progress, in the caller's transaction. */
export async function findInProgress(tx: Tx, scheduleIds: string[]): Promise<Map<string, InProgress>> {
  const out = new Map<string, InProgress>();
  if (scheduleIds.length === 0) return out;
  const rows = await queryRows<{ schedule_id: string; run_id: string | null; flight_run_id: string | null; buffered: unknown }>(tx, IN_PROGRESS_SQL, JSON.stringify(scheduleIds));
  for (const r of rows) {
    const runId = r.run_id ?? r.flight_run_id ?? null;
    out.set(r.schedule_id, { runId, buffered: r.buffered === true || r.buffered === 1 || r.buffered === 1n });
  }
  return out;
}

/** Params: now, JSON array of schedule ids, now. */
const RELEASE_SQL = {
  sqlite: `UPDATE pending_attempts SET due_at = ?
    WHERE schedule_id IN (SELECT value FROM json_each(?)) AND attempt = 1 AND trigger = 'schedule' AND in_flight = 0 AND due_at > ?
      AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.schedule_id = pending_attempts.schedule_id AND r.outcome IN ('pending', 'running') AND r.trigger NOT LIKE 'backfill:%')
      AND NOT EXISTS (SELECT 1 FROM pending_attempts f WHERE f.schedule_id = pending_attempts.schedule_id AND f.in_flight = 1 AND f.trigger NOT LIKE 'backfill:%')`,
  postgresql: `UPDATE pending_attempts p SET due_at = $1::timestamp(3)
    WHERE p.schedule_id IN (SELECT jsonb_array_elements_text($2::jsonb)) AND p.attempt = 1 AND p.trigger = 'schedule' AND NOT p.in_flight AND p.due_at > $3::timestamp(3)
      AND NOT EXISTS (SELECT 1 FROM runs r WHERE r.schedule_id = p.schedule_id AND r.outcome IN ('pending', 'running') AND r.trigger NOT LIKE 'backfill:%')
      AND NOT EXISTS (SELECT 1 FROM pending_attempts f WHERE f.schedule_id = p.schedule_id AND f.in_flight AND f.trigger NOT LIKE 'backfill:%')`,
} as const;

/**
 * Make the waiting occurrence of each of `scheduleIds` due at `now` once nothing of it is in progress
 * any more (SPEC §16.2 `buffer_one`: "delivered as soon as the one in progress ends"); a worker claims
 * it like a retry. Returns how many were released. The caller holds the schedules' rows.
 */
export async function releaseBuffered(tx: Tx, scheduleIds: string[], now: Date): Promise<number> {
  if (scheduleIds.length === 0) return 0;
  const at = sqlInstant(dialectOfDb(tx), now);
  return executeSql(tx, RELEASE_SQL, at, JSON.stringify([...new Set(scheduleIds)]), at);
}
