/**
 * The retry claim (SPEC §12.2 "each attempt exactly once"): take due pending attempts for this
 * transaction, each with its schedule's firing columns, then delete them. A pending attempt is fired
 * ONLY by the transaction whose DELETE removed it, and that transaction also records the attempt's
 * run: commit makes both visible at once, a crash before it leaves the attempt pending, so it is
 * neither lost nor repeated.
 *
 * - PostgreSQL: `FOR UPDATE SKIP LOCKED` locks the pending rows AND their schedule rows (the join), so
 *   another worker skips them, and a schedule is never fired by two transactions at once (its
 *   occurrence claim takes the same row lock).
 * - SQLite: runs under `BEGIN IMMEDIATE` (lib/db/client.ts), the database's single write lock.
 *
 * Both: the range `due_at <= now` is read through the `pending_attempts(due_at)` index, oldest first.
 */
import type { Tx } from '../client';
import type { FireTrigger } from '../contract';
import { dialectOfDb } from '../client';
import { queryRows } from './run-sql';
import { FIRING_COLUMNS, toFiringSchedule, type FiringSchedule } from './claim-due';
import { sqlInstant } from './instant';
import { rawBoolean, rawInstant, rawJson, rawText, rawTextOrNull, undecodable } from './schedule-record';

/**
 * A claimed retry: attempt `attempt` of occurrence `scheduledFor` of `schedule`. With `inFlight` it is
 * an attempt whose delivery was in flight when its process died (its lease ended): a recovery.
 */
export interface ClaimedRetry {
  pendingId: string;
  scheduledFor: Date;
  /** `schedule`, `manual` (a run now or replay whose delivery was interrupted) or a backfill's (SPEC §18.1). */
  trigger: FireTrigger;
  attempt: number;
  /** Stored in flight by a claim whose process died: a recovery (SPEC §13). */
  inFlight: boolean;
  /** Sends of this attempt that already started (0, 1 or 2). */
  deliveries: number;
  /** A replay: the dead letter it replays. */
  deadLetterId: string | null;
  /** In flight: the id its run was to have (a recovery keeps it, and so its check-in URL, SPEC §16.1). */
  runId: string | null;
  /** Check-ins received while it was in flight (SPEC §16.1), or null. */
  checkin: unknown;
  dueAt: Date;
  /** The schedule's `enabled` when claimed (a disabled schedule's retry is cancelled, never fired). */
  enabled: boolean;
  schedule: FiringSchedule;
}

const S_COLUMNS = FIRING_COLUMNS.split(',').map((c) => `s.${c.trim()}`).join(', ');
const PA_COLUMNS = `pa.id AS pending_id, pa.scheduled_for AS pending_scheduled_for, pa.trigger AS pending_trigger, pa.attempt AS pending_attempt,
  pa.in_flight AS pending_in_flight, pa.deliveries AS pending_deliveries, pa.dead_letter_id AS pending_dead_letter_id, pa.due_at AS pending_due_at, pa.run_id AS pending_run_id,
  pa.checkin AS pending_checkin, s.enabled AS enabled`;

/** Params: now, limit. */
export const CLAIM_RETRIES_SQL = {
  sqlite: `SELECT ${PA_COLUMNS}, ${S_COLUMNS} FROM pending_attempts pa JOIN schedules s ON s.id = pa.schedule_id
    WHERE pa.due_at <= ? ORDER BY pa.due_at LIMIT ?`,
  // SKIP LOCKED: pending rows (or schedules) another worker holds are its batch.
  postgresql: `SELECT ${PA_COLUMNS}, ${S_COLUMNS} FROM pending_attempts pa JOIN schedules s ON s.id = pa.schedule_id
    WHERE pa.due_at <= $1::timestamp(3) ORDER BY pa.due_at LIMIT $2
    FOR UPDATE SKIP LOCKED`,
} as const;

/** Params: pending id, now. The one named pending attempt, if due (the worker's one-by-one fallback). */
export const CLAIM_RETRY_SQL = {
  sqlite: `SELECT ${PA_COLUMNS}, ${S_COLUMNS} FROM pending_attempts pa JOIN schedules s ON s.id = pa.schedule_id
    WHERE pa.id = ? AND pa.due_at <= ?`,
  postgresql: `SELECT ${PA_COLUMNS}, ${S_COLUMNS} FROM pending_attempts pa JOIN schedules s ON s.id = pa.schedule_id
    WHERE pa.id = $1 AND pa.due_at <= $2::timestamp(3)
    FOR UPDATE SKIP LOCKED`,
} as const;

/** Param: JSON array of pending ids. */
export const TAKE_PENDING_SQL = {
  sqlite: 'DELETE FROM pending_attempts WHERE id IN (SELECT value FROM json_each(?)) RETURNING id',
  postgresql: 'DELETE FROM pending_attempts WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb)) RETURNING id',
} as const;

/**
 * Claim up to `limit` pending attempts due at `now` inside the caller's transaction, oldest first, and
 * delete them. Returns only the attempts this transaction deleted: fire exactly those.
 */
export async function claimRetries(tx: Tx, now: Date, limit: number): Promise<ClaimedRetry[]> {
  const dialect = dialectOfDb(tx);
  return take(tx, await queryRows(tx, CLAIM_RETRIES_SQL, sqlInstant(dialect, now), limit));
}

/**
 * Claim the pending attempt `pendingId` if it is due at `now` (and, on PostgreSQL, no other worker
 * holds it), inside the caller's transaction, and delete it. Empty when it is not this caller's.
 */
export async function claimRetry(tx: Tx, pendingId: string, now: Date): Promise<ClaimedRetry[]> {
  const dialect = dialectOfDb(tx);
  return take(tx, await queryRows(tx, CLAIM_RETRY_SQL, pendingId, sqlInstant(dialect, now)));
}

async function take(tx: Tx, rows: Record<string, unknown>[]): Promise<ClaimedRetry[]> {
  if (rows.length === 0) return [];
  // Every schedule row is read before the DELETE: an unreadable one throws with its pending attempt
  // still stored (the fire engine pauses the schedule, which cancels it; decision 416).
  const schedules = rows.map((r) => {
    try {
      return toFiringSchedule(r);
    } catch (e) {
      throw undecodable(r.id, e, r.pending_scheduled_for, true);
    }
  });
  // Exactly once (SPEC §12.2): only the rows this DELETE removed are fired; it must stay in the
  // transaction that inserts the attempts' runs.
  const taken = await queryRows<{ id: string }>(tx, TAKE_PENDING_SQL, JSON.stringify(rows.map((r) => r.pending_id)));
  const ours = new Set(taken.map((t) => t.id));
  return rows
    .map((r, i) => ({ r, schedule: schedules[i] }))
    .filter(({ r }) => ours.has(rawText('pending_attempts.id', r.pending_id)))
    .map(({ r, schedule }) => ({
      pendingId: rawText('pending_attempts.id', r.pending_id),
      scheduledFor: rawInstant(r.pending_scheduled_for)!,
      trigger: fireTriggerOf(r.pending_trigger),
      attempt: Number(r.pending_attempt),
      inFlight: rawBoolean(r.pending_in_flight),
      deliveries: Number(r.pending_deliveries),
      deadLetterId: rawTextOrNull('pending_attempts.dead_letter_id', r.pending_dead_letter_id),
      runId: rawTextOrNull('pending_attempts.run_id', r.pending_run_id),
      checkin: rawJson('pending_attempts.checkin', r.pending_checkin),
      dueAt: rawInstant(r.pending_due_at)!,
      enabled: rawBoolean(r.enabled),
      schedule,
    }));
}

/** A stored `pending_attempts.trigger` as the fire path carries it (a backfill's names its backfill). */
function fireTriggerOf(raw: unknown): FireTrigger {
  const text = rawText('pending_attempts.trigger', raw);
  if (text === 'manual' || text === 'schedule') return text;
  if (text.startsWith('backfill:')) return text as FireTrigger;
  throw new Error(`pending_attempts.trigger holds ${JSON.stringify(text)}, which no fire stores`);
}
