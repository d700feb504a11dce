/**
 * Which of a batch's occurrences already have a scheduled run record. A claimed occurrence that
 * already fired (possible only if next_fire_at was moved back onto it, e.g. by a save that computed
 * from a slower clock) is advanced WITHOUT firing again, instead of failing the whole batch on the
 * UNIQUE (schedule_id, scheduled_for, trigger, attempt) key on every tick.
 * Reads the unique index; one statement per batch.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { queryRows } from './run-sql';
import { sqlInstant } from './instant';

/** Param: JSON array of {id, scheduled_for}. Returns schedule_id of each occurrence that has a run. */
export const FIND_FIRED_OCCURRENCES_SQL = {
  sqlite: `SELECT r.schedule_id AS schedule_id FROM json_each(?) AS o
    JOIN runs r ON r.schedule_id = o.value ->> 'id' AND r.scheduled_for = o.value ->> 'scheduled_for' AND r.trigger = 'schedule' AND r.attempt = 1`,
  // One unique-index probe per occurrence (LATERAL … LIMIT 1): a plain join lets the planner, which
  // guesses 100 rows for the document and may hold stale statistics for a fast-growing runs table,
  // pick a hash join over a scan of every run (160 ms per 500-row batch at 10,000 runs).
  postgresql: `SELECT o.id AS schedule_id FROM jsonb_to_recordset($1::jsonb) AS o(id text, scheduled_for timestamp(3))
    CROSS JOIN LATERAL (SELECT 1 FROM runs r
      WHERE r.schedule_id = o.id AND r.scheduled_for = o.scheduled_for AND r.trigger = 'schedule' AND r.attempt = 1 LIMIT 1) AS fired`,
} as const;

/** Ids of the schedules in `occurrences` whose occurrence already has a `trigger = 'schedule'` run. */
export async function findFiredOccurrences(tx: Tx, occurrences: { scheduleId: string; scheduledFor: Date }[]): Promise<Set<string>> {
  if (occurrences.length === 0) return new Set();
  const dialect = dialectOfDb(tx);
  const doc = occurrences.map((o) => ({ id: o.scheduleId, scheduled_for: sqlInstant(dialect, o.scheduledFor) }));
  const rows = await queryRows<{ schedule_id: string }>(tx, FIND_FIRED_OCCURRENCES_SQL, JSON.stringify(doc));
  return new Set(rows.map((r) => r.schedule_id));
}
