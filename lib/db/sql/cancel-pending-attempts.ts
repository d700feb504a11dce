/**
 * Cancel pending retries (SPEC §12.2): disabling or deleting a schedule, or changing its invocation
 * target, cancels them; the failed attempt each would have followed is marked `exhausted: "cancelled"`
 * (its `next_attempt_at` cleared: no attempt follows). One statement each, in the caller's transaction.
 * An attempt in flight (`in_flight`) is not cancelled: it was already sent, and the transaction
 * recording it finds the schedule disabled and schedules no further attempt.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { rawInstant } from './schedule-record';
import { sqlInstant } from './instant';

const TAKE_SQL = {
  sqlite: 'DELETE FROM pending_attempts WHERE schedule_id IN (SELECT value FROM json_each(?)) AND in_flight = 0 RETURNING schedule_id, scheduled_for, attempt',
  postgresql: 'DELETE FROM pending_attempts WHERE schedule_id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND NOT in_flight RETURNING schedule_id, scheduled_for, attempt',
} as const;

/** Param: JSON array of {schedule_id, scheduled_for, attempt} (the attempt that failed). */
const MARK_SQL = {
  sqlite: `UPDATE runs SET exhausted = 'cancelled', next_attempt_at = NULL
    FROM json_each(?) AS c
    WHERE runs.schedule_id = c.value ->> 'schedule_id' AND runs.scheduled_for = c.value ->> 'scheduled_for'
      AND runs.trigger = 'schedule' AND runs.attempt = c.value ->> 'attempt'`,
  postgresql: `UPDATE runs AS r SET exhausted = 'cancelled', next_attempt_at = NULL
    FROM jsonb_to_recordset($1::jsonb) AS c(schedule_id text, scheduled_for timestamp(3), attempt int)
    WHERE r.schedule_id = c.schedule_id AND r.scheduled_for = c.scheduled_for AND r.trigger = 'schedule' AND r.attempt = c.attempt`,
} as const;

/** Cancel every pending attempt of `scheduleIds`; returns how many were cancelled. */
export async function cancelPendingAttempts(tx: Tx, scheduleIds: string[]): Promise<number> {
  if (scheduleIds.length === 0) return 0;
  const dialect = dialectOfDb(tx);
  const taken = await tx.$queryRawUnsafe<{ schedule_id: string; scheduled_for: unknown; attempt: number | bigint }[]>(TAKE_SQL[dialect], JSON.stringify(scheduleIds));
  if (taken.length === 0) return 0;
  const doc = taken.map((t) => ({ schedule_id: t.schedule_id, scheduled_for: sqlInstant(dialect, rawInstant(t.scheduled_for)!), attempt: Number(t.attempt) - 1 }));
  await tx.$executeRawUnsafe(MARK_SQL[dialect], JSON.stringify(doc));
  return taken.length;
}
