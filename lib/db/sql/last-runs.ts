/**
 * The grid's "Last run" column: the newest run (by `created_at`, then `id`) of each schedule of one
 * page, in one statement. Each lookup is one probe of the `runs(schedule_id, status, created_at, id)`
 * index per status (the newest run of each status; the newest of those is picked here), however many
 * runs a schedule has. Restricted to the scheduler revision's own schedules.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';

/** Params: SQLite JSON array of run statuses, revision id, JSON array of schedule ids; PostgreSQL revision id, schedule ids, statuses. */
export const LAST_RUNS_SQL = {
  sqlite: `SELECT s.id AS schedule_id, r.id AS id, r.status AS status, r.trigger AS trigger, r.created_at AS created_at, r.outcome AS outcome
    FROM schedules s
    JOIN json_each(?) AS st
    JOIN runs r ON r.id = (SELECT r2.id FROM runs r2 WHERE r2.schedule_id = s.id AND r2.status = st.value ORDER BY r2.created_at DESC, r2.id DESC LIMIT 1)
    WHERE s.revision_id = ? AND s.id IN (SELECT value FROM json_each(?))`,
  postgresql: `SELECT s.id AS schedule_id, r.id AS id, r.status AS status, r.trigger AS trigger, r.created_at AS created_at, r.outcome AS outcome
    FROM schedules s
    CROSS JOIN jsonb_array_elements_text($3::jsonb) AS st(status)
    JOIN runs r ON r.id = (SELECT r2.id FROM runs r2 WHERE r2.schedule_id = s.id AND r2.status = st.status ORDER BY r2.created_at DESC, r2.id DESC LIMIT 1)
    WHERE s.revision_id = $1 AND s.id IN (SELECT jsonb_array_elements_text($2::jsonb))`,
} as const;

export interface LastRunRecord {
  status: string;
  trigger: string;
  createdAt: Date;
  /** SPEC §16.1 outcome, or null. */
  outcome: string | null;
}

/**
 * The newest run of each of `scheduleIds` in revision `revisionId`, among runs whose status is one of
 * `statuses` (every run status, RUN_STATUSES); schedules without runs are absent.
 */
export async function findLastRuns(tx: Tx, revisionId: string, scheduleIds: string[], statuses: readonly string[]): Promise<Map<string, LastRunRecord>> {
  if (scheduleIds.length === 0) return new Map();
  const dialect = dialectOfDb(tx);
  const rows = await tx.$queryRawUnsafe<{ schedule_id: string; id: string; status: string; trigger: string; created_at: Date | string; outcome: string | null }[]>(
    LAST_RUNS_SQL[dialect],
    ...(dialect === 'sqlite' ? [JSON.stringify(statuses), revisionId, JSON.stringify(scheduleIds)] : [revisionId, JSON.stringify(scheduleIds), JSON.stringify(statuses)]),
  );
  // One candidate per status: keep the newest, then the greater id (lowercase UUIDs: the database's
  // text order and JavaScript's agree).
  const newest = new Map<string, { id: string; at: number; record: LastRunRecord }>();
  for (const r of rows) {
    const at = new Date(r.created_at).getTime();
    const seen = newest.get(r.schedule_id);
    if (!seen || at > seen.at || (at === seen.at && r.id > seen.id)) {
      newest.set(r.schedule_id, { id: r.id, at, record: { status: r.status, trigger: r.trigger, createdAt: new Date(r.created_at), outcome: r.outcome } });
    }
  }
  return new Map([...newest].map(([scheduleId, n]) => [scheduleId, n.record]));
}

/**
 * Params: revision id. Active schedules only: enabled (what "Pause all" would change), disabled, and
 * disabled by a pause all (`paused_bulk`: what "Resume all" would change, SPEC §12.5).
 */
export const ENABLED_COUNTS_SQL = {
  sqlite: `SELECT COALESCE(SUM(CASE WHEN enabled THEN 1 ELSE 0 END), 0) AS enabled, COALESCE(SUM(CASE WHEN enabled THEN 0 ELSE 1 END), 0) AS disabled,
      COALESCE(SUM(CASE WHEN NOT enabled AND paused_bulk THEN 1 ELSE 0 END), 0) AS bulk_paused
    FROM schedules WHERE revision_id = ? AND state = 'active'`,
  postgresql: `SELECT COUNT(*) FILTER (WHERE enabled) AS enabled, COUNT(*) FILTER (WHERE NOT enabled) AS disabled,
      COUNT(*) FILTER (WHERE NOT enabled AND paused_bulk) AS bulk_paused
    FROM schedules WHERE revision_id = $1 AND state = 'active'`,
} as const;

/**
 * How many active schedules of revision `revisionId` are enabled, disabled, and disabled by a pause
 * all (one pass over its rows).
 */
export async function countEnabled(tx: Tx, revisionId: string): Promise<{ enabled: number; disabled: number; bulkPaused: number }> {
  const [row] = await tx.$queryRawUnsafe<{ enabled: number | bigint; disabled: number | bigint; bulk_paused: number | bigint }[]>(ENABLED_COUNTS_SQL[dialectOfDb(tx)], revisionId);
  return { enabled: Number(row?.enabled ?? 0), disabled: Number(row?.disabled ?? 0), bulkPaused: Number(row?.bulk_paused ?? 0) };
}
