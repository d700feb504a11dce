/**
 * Cancel pending retries (SPEC §12.2): disabling or deleting a schedule, or changing its invocation
 * target, cancels them; the failed attempt each would have followed is marked `exhausted: "cancelled"`
 * (its `next_attempt_at` cleared: no attempt follows). One statement each, in the caller's transaction.
 * An attempt in flight (`in_flight`) is not cancelled: it was already sent, and the transaction
 * recording it finds the schedule disabled and schedules no further attempt.
 *
 * A `buffer_one` occurrence waiting for the run in progress (SPEC §16.2; attempt 1 of a scheduled
 * occurrence, lib/db/sql/overlap.ts) has no run yet: cancelling it records one (decision 330), so
 * the occurrence is never dropped silently (SPEC §8). A target change that leaves the schedule
 * enabled keeps it waiting (`keepWaiting`): it is delivered when the run in progress ends, to the
 * target the schedule has then.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { rawInstant } from './schedule-record';
import { sqlInstant } from './instant';
import { insertRuns } from './insert-runs';

/** Params: JSON array of schedule ids, 1 to keep waiting occurrences (attempt 1 of `schedule`) else 0. */
const TAKE_SQL = {
  sqlite: `DELETE FROM pending_attempts WHERE schedule_id IN (SELECT value FROM json_each(?)) AND in_flight = 0
      AND NOT (? = 1 AND attempt = 1 AND trigger = 'schedule')
    RETURNING schedule_id, scheduled_for, attempt, trigger`,
  postgresql: `DELETE FROM pending_attempts WHERE schedule_id IN (SELECT jsonb_array_elements_text($1::jsonb)) AND NOT in_flight
      AND NOT ($2::int = 1 AND attempt = 1 AND trigger = 'schedule')
    RETURNING schedule_id, scheduled_for, attempt, trigger`,
} as const;

/** Param: JSON array of {schedule_id, scheduled_for, attempt} (the attempt that failed). */
// The failed attempt a cancelled retry followed: same schedule, occurrence, trigger (the schedule's
// own, or a backfill's `backfill:<id>`) and the attempt before.
const MARK_SQL = {
  sqlite: `UPDATE runs SET exhausted = 'cancelled', next_attempt_at = NULL
    FROM json_each(?) AS c
    WHERE runs.schedule_id = c.value ->> 'schedule_id' AND runs.scheduled_for = c.value ->> 'scheduled_for'
      AND runs.trigger = c.value ->> 'trigger' AND runs.attempt = c.value ->> 'attempt'`,
  postgresql: `UPDATE runs AS r SET exhausted = 'cancelled', next_attempt_at = NULL
    FROM jsonb_to_recordset($1::jsonb) AS c(schedule_id text, scheduled_for timestamp(3), trigger text, attempt int)
    WHERE r.schedule_id = c.schedule_id AND r.scheduled_for = c.scheduled_for AND r.trigger = c.trigger AND r.attempt = c.attempt`,
} as const;

/** Why pending attempts are cancelled, named in the run recorded for a cancelled waiting occurrence. */
export interface CancelPendingOptions {
  /** When the cancellation happens: the recorded run's `created_at`. */
  now: Date;
  /** Why, as the run's `result.message` ends: e.g. "the schedule was disabled". */
  reason: string;
  /** Keep `buffer_one` occurrences waiting (a target change on a schedule that stays enabled). */
  keepWaiting?: boolean;
}

/** The message of the run recorded for a waiting occurrence cancelled because `reason`. */
export function cancelledWaitingMessage(reason: string): string {
  return `cancelled while it waited for the run in progress (overlap: buffer_one): ${reason}`;
}

/**
 * Cancel every pending attempt of `scheduleIds` (but waiting occurrences with `keepWaiting`); returns
 * how many were cancelled. A cancelled retry marks the failed attempt it followed `exhausted:
 * "cancelled"`; a cancelled waiting occurrence is recorded as its attempt 1, `status: "skipped"`,
 * `result: {error: "overlap", message}`, `exhausted: "cancelled"` (decision 330). Exactly once: the
 * DELETE … RETURNING takes each pending row once, and the run's unique key refuses a second record.
 */
export async function cancelPendingAttempts(tx: Tx, scheduleIds: string[], opts: CancelPendingOptions): Promise<number> {
  if (scheduleIds.length === 0) return 0;
  const dialect = dialectOfDb(tx);
  const taken = await tx.$queryRawUnsafe<{ schedule_id: string; scheduled_for: unknown; attempt: number | bigint; trigger: string }[]>(
    TAKE_SQL[dialect],
    JSON.stringify(scheduleIds),
    opts.keepWaiting ? 1 : 0,
  );
  if (taken.length === 0) return 0;
  // No retry has attempt 1 (its first attempt is a run already): attempt 1 is a waiting occurrence.
  const waiting = taken.filter((t) => Number(t.attempt) === 1 && t.trigger === 'schedule');
  const retries = taken.filter((t) => !waiting.includes(t));
  if (retries.length) {
    const doc = retries.map((t) => ({ schedule_id: t.schedule_id, scheduled_for: sqlInstant(dialect, rawInstant(t.scheduled_for)!), trigger: t.trigger, attempt: Number(t.attempt) - 1 }));
    await tx.$executeRawUnsafe(MARK_SQL[dialect], JSON.stringify(doc));
  }
  await insertRuns(
    tx,
    waiting.map((t) => ({
      id: globalThis.crypto.randomUUID(),
      scheduleId: t.schedule_id,
      scheduledFor: rawInstant(t.scheduled_for)!,
      trigger: 'schedule',
      attempt: 1,
      status: 'skipped',
      result: { error: 'overlap', message: cancelledWaitingMessage(opts.reason) },
      executionId: null,
      exhausted: 'cancelled',
      createdAt: opts.now,
    })),
  );
  return taken.length;
}
