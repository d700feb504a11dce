/**
 * The fire-lateness histogram of GET /metrics, computed in the database from recent run records:
 * lateness = created_at − scheduled_for (SPEC §8.1: when the fire was recorded minus the occurrence),
 * for first attempts (`trigger = 'schedule'`, `attempt = 1`) created after `since` (the `runs(created_at)` index
 * bounds the read). A flexible time window's offset (SPEC §12.4) counts as lateness here.
 * Computing it from the runs (not from one process's memory) makes it cover every worker.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import { sqlInstant } from './instant';

/** Upper bounds of the lateness buckets, in seconds (Prometheus `le`, inclusive). */
export const LATENESS_BUCKETS_SECONDS = [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300] as const;

export interface LatenessHistogram {
  /** The buckets' upper bounds, in seconds (LATENESS_BUCKETS_SECONDS; Prometheus `le`, inclusive). */
  bounds: readonly number[];
  /** Cumulative count of fires with lateness ≤ each bound, in order. */
  buckets: number[];
  /** All fires in the window (the `+Inf` bucket). */
  count: number;
  /** Sum of their lateness, in seconds. */
  sum: number;
}

const LATENESS = {
  // Prisma's stored TEXT instants (instant.ts) are read by julianday(): fractional days → seconds.
  sqlite: `(julianday(created_at) - julianday(scheduled_for)) * 86400.0`,
  postgresql: `EXTRACT(EPOCH FROM (created_at - scheduled_for))::float8`,
} as const;

/** Param: since. One row: n, total, b0 … b11 (cumulative bucket counts). */
export const FIRE_LATENESS_SQL = Object.fromEntries(
  (['sqlite', 'postgresql'] as const).map((d) => [
    d,
    `SELECT COUNT(*) AS n, COALESCE(SUM(l), 0) AS total, ${LATENESS_BUCKETS_SECONDS.map((b, i) => `COALESCE(SUM(CASE WHEN l <= ${b} THEN 1 ELSE 0 END), 0) AS b${i}`).join(', ')}
     FROM (SELECT ${LATENESS[d]} AS l FROM runs WHERE trigger = 'schedule' AND attempt = 1 AND created_at > ${d === 'sqlite' ? '?' : '$1::timestamp(3)'}) AS recent`,
  ]),
) as Record<'sqlite' | 'postgresql', string>;

/** The lateness histogram of scheduled fires recorded after `since`. */
export async function fireLateness(tx: Tx, since: Date): Promise<LatenessHistogram> {
  const dialect = dialectOfDb(tx);
  const [row] = await tx.$queryRawUnsafe<Record<string, number | bigint | string | null>[]>(FIRE_LATENESS_SQL[dialect], sqlInstant(dialect, since));
  const num = (v: unknown) => Number(v ?? 0);
  return { bounds: LATENESS_BUCKETS_SECONDS, buckets: LATENESS_BUCKETS_SECONDS.map((_, i) => num(row[`b${i}`])), count: num(row.n), sum: num(row.total) };
}

/** Upper bounds of the run-duration buckets, in seconds (Prometheus `le`, inclusive): 1 s to 1 day. */
export const DURATION_BUCKETS_SECONDS = [1, 5, 10, 30, 60, 300, 900, 1800, 3600, 7200, 21600, 86400] as const;

/** A scheduler's label on GET /metrics: `<org alias or id>/<scheduler alias or id>`. */
const SCHEDULER_LABEL = `COALESCE(o.alias, o.id) || '/' || COALESCE(b.alias, b.id)`;

/** Param: since. One row per scheduler: scheduler, n, total (s), b0 … b11 (cumulative bucket counts). */
const RUN_DURATIONS_SQL = Object.fromEntries(
  (['sqlite', 'postgresql'] as const).map((d) => [
    d,
    `SELECT ${SCHEDULER_LABEL} AS scheduler, COUNT(*) AS n, COALESCE(SUM(r.duration_ms), 0) / 1000.0 AS total,
       ${DURATION_BUCKETS_SECONDS.map((b, i) => `COALESCE(SUM(CASE WHEN r.duration_ms <= ${b * 1000} THEN 1 ELSE 0 END), 0) AS b${i}`).join(', ')}
     FROM runs r JOIN schedules s ON s.id = r.schedule_id JOIN revisions v ON v.id = s.revision_id JOIN blobs b ON b.id = v.blob_id JOIN orgs o ON o.id = b.org_id
     WHERE r.finished_at > ${d === 'sqlite' ? '?' : '$1::timestamp(3)'} AND r.duration_ms IS NOT NULL
     GROUP BY ${SCHEDULER_LABEL} ORDER BY 1`,
  ]),
) as Record<'sqlite' | 'postgresql', string>;

/**
 * SPEC §16.3 `scheduler_run_duration_seconds`, by scheduler: `duration_ms` of the runs whose outcome
 * became terminal after `since` (the `runs(finished_at)` index bounds the read). Schedulers with no
 * such run are absent.
 */
export async function runDurations(tx: Tx, since: Date): Promise<{ scheduler: string; histogram: LatenessHistogram }[]> {
  const dialect = dialectOfDb(tx);
  const rows = await tx.$queryRawUnsafe<Record<string, number | bigint | string | null>[]>(RUN_DURATIONS_SQL[dialect], sqlInstant(dialect, since));
  const num = (v: unknown) => Number(v ?? 0);
  return rows.map((row) => ({
    scheduler: String(row.scheduler),
    histogram: { bounds: DURATION_BUCKETS_SECONDS, buckets: DURATION_BUCKETS_SECONDS.map((_, i) => num(row[`b${i}`])), count: num(row.n), sum: num(row.total) },
  }));
}

/** One schedule's series of GET /metrics (SPEC §16.3), for a scheduler with `metrics_per_schedule`. */
export interface ScheduleSeries {
  /** `<org>/<scheduler>` as `runDurations` labels it. */
  scheduler: string;
  /** The schedule's name (unique in its scheduler). */
  schedule: string;
  /** When its last successful occurrence ended (UTC), or null when none is held. */
  lastSuccessAt: Date | null;
  /** Its next fire (UTC), or null when none is planned. */
  nextFireAt: Date | null;
  consecutiveFailures: number;
}

/**
 * The per-schedule series of the schedulers that opted in (`blobs.metrics_per_schedule`), at most
 * `perScheduler` schedules each (the schedule limit; the oldest first). A success is a scheduled
 * occurrence delivered (`status = 'success'`) whose outcome, when it has one, is `succeeded`; its
 * instant is the outcome's `finished_at`, else the run's record instant. Read per schedule through
 * the `runs(schedule_id, status, created_at, id)` index.
 */
export async function perScheduleSeries(tx: Tx, perScheduler: number): Promise<ScheduleSeries[]> {
  const dialect = dialectOfDb(tx);
  const rows = await tx.$queryRawUnsafe<{ scheduler: string; schedule: string; last_success: string | Date | null; next_fire_at: string | Date | null; consecutive_failures: number | bigint }[]>(
    `SELECT scheduler, schedule, next_fire_at, consecutive_failures,
       (SELECT MAX(COALESCE(r.finished_at, r.created_at)) FROM runs r
         WHERE r.schedule_id = ranked.id AND r.status = 'success' AND r.trigger = 'schedule' AND (r.outcome IS NULL OR r.outcome = 'succeeded')) AS last_success
     FROM (SELECT s.id, s.name AS schedule, s.next_fire_at, s.consecutive_failures, ${SCHEDULER_LABEL} AS scheduler,
             ROW_NUMBER() OVER (PARTITION BY b.id ORDER BY s.created_at, s.id) AS k
           FROM blobs b JOIN orgs o ON o.id = b.org_id JOIN revisions v ON v.blob_id = b.id JOIN schedules s ON s.revision_id = v.id
           WHERE b.metrics_per_schedule = ${dialect === 'sqlite' ? '1' : 'true'}) ranked
     WHERE k <= ${dialect === 'sqlite' ? '?' : '$1'}
     ORDER BY scheduler, schedule`,
    perScheduler,
  );
  const instant = (v: string | Date | null) => (v === null ? null : v instanceof Date ? v : new Date(v.replace('+00:00', 'Z')));
  return rows.map((r) => ({
    scheduler: r.scheduler,
    schedule: r.schedule,
    lastSuccessAt: instant(r.last_success),
    nextFireAt: instant(r.next_fire_at),
    consecutiveFailures: Number(r.consecutive_failures),
  }));
}
