/**
 * The grid's "retrying" state and the history's "next attempt at" (SPEC §12.2): the pending attempts
 * of the schedules of one page, in one statement. Each lookup is one probe of the
 * `pending_attempts(schedule_id, scheduled_for, attempt)` unique index, however many schedules the
 * scheduler holds. Restricted to the scheduler revision's own schedules. A read only: the claim
 * (claim-retries.ts) deletes a pending row in the transaction that records its attempt, so a row read
 * here is an attempt not yet made. A `buffer_one` occurrence waiting for the run in progress (SPEC
 * §16.2, attempt 1: no retry has attempt 1) is one too, marked `waiting`: it is no retry.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { rawInstant } from './schedule-record';

/** Params: revision id, JSON array of schedule ids. */
export const PENDING_RETRIES_SQL = {
  sqlite: `SELECT pa.schedule_id AS schedule_id, pa.scheduled_for AS scheduled_for, pa.attempt AS attempt, pa.trigger AS trigger, pa.due_at AS due_at
    FROM pending_attempts pa JOIN schedules s ON s.id = pa.schedule_id
    WHERE s.revision_id = ? AND pa.schedule_id IN (SELECT value FROM json_each(?)) AND pa.in_flight = 0
    ORDER BY pa.schedule_id, pa.due_at, pa.scheduled_for`,
  postgresql: `SELECT pa.schedule_id AS schedule_id, pa.scheduled_for AS scheduled_for, pa.attempt AS attempt, pa.trigger AS trigger, pa.due_at AS due_at
    FROM pending_attempts pa JOIN schedules s ON s.id = pa.schedule_id
    WHERE s.revision_id = $1 AND pa.schedule_id IN (SELECT jsonb_array_elements_text($2::jsonb)) AND NOT pa.in_flight
    ORDER BY pa.schedule_id, pa.due_at, pa.scheduled_for`,
} as const;

/** One attempt waiting for its turn: attempt `attempt` of occurrence `scheduledFor`, due at `dueAt` (UTC). */
export interface PendingRetryRecord {
  scheduledFor: Date;
  attempt: number;
  dueAt: Date;
  /** A `buffer_one` occurrence waiting for the run in progress (SPEC §16.2), not a retry. */
  waiting: boolean;
}

/**
 * The pending attempts of each of `scheduleIds` in revision `revisionId`, soonest due first; schedules
 * without one are absent. At most one per occurrence being retried.
 */
export async function findPendingRetries(tx: Tx, revisionId: string, scheduleIds: string[]): Promise<Map<string, PendingRetryRecord[]>> {
  const out = new Map<string, PendingRetryRecord[]>();
  if (scheduleIds.length === 0) return out;
  const rows = await tx.$queryRawUnsafe<{ schedule_id: string; scheduled_for: unknown; attempt: number | bigint; trigger: string; due_at: unknown }[]>(
    PENDING_RETRIES_SQL[dialectOfDb(tx)],
    revisionId,
    JSON.stringify(scheduleIds),
  );
  for (const r of rows) {
    const list = out.get(r.schedule_id) ?? [];
    const attempt = Number(r.attempt);
    list.push({ scheduledFor: rawInstant(r.scheduled_for)!, attempt, dueAt: rawInstant(r.due_at)!, waiting: attempt === 1 && r.trigger === 'schedule' });
    out.set(r.schedule_id, list);
  }
  return out;
}
