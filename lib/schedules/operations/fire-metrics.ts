/**
 * What GET /metrics reports about firing, computed from the database at each scrape so that it
 * covers every worker process (any number may run) and survives restarts. Constant work per scrape
 * whatever the tables hold: the whole-table figures (runs by status, schedules by state, skipped
 * occurrences, automatic pauses, pending attempts, dead letters) are read from `metric_counters`, a
 * few rows that database triggers keep exact as rows change (migration 0012_metric_counters); the
 * others read an index range bounded by what they report (the last METRICS_WINDOW_SECONDS of runs,
 * the due schedules, the worker heartbeats). See docs/performance.md "/metrics".
 */
import { fireLateness, perScheduleSeries, runDurations, type Db, type LatenessHistogram, type ScheduleSeries } from '../../db';
import { workerLiveness } from './worker-heartbeats';

/** Window of the "recent" figures (fires by status, lateness histogram), in seconds. */
export const METRICS_WINDOW_SECONDS = 300;

export interface FireMetrics {
  /** Run records held (within retention), by status. */
  runsByStatus: Record<string, number>;
  /** Runs recorded in the last METRICS_WINDOW_SECONDS, by status. */
  recentRunsByStatus: Record<string, number>;
  /** Lateness (created_at − scheduled_for) of scheduled fires in the last METRICS_WINDOW_SECONDS. */
  lateness: LatenessHistogram;
  /** Schedules whose next_fire_at ≤ now: due and not yet fired. */
  dueBacklog: number;
  /** now − the oldest due next_fire_at, in seconds; 0 when nothing is due. */
  oldestDueAgeSeconds: number;
  /** Sum of skipped_occurrences over all schedules (occurrences missed beyond the catch-up window). */
  skippedOccurrences: number;
  /** Schedules by state (`active` | `completed`) and enabled flag. */
  schedules: { state: string; enabled: boolean; count: number }[];
  /** Workers alive (not stopped, a heartbeat within 3 × their interval: `workerLiveness`). */
  liveWorkers: number;
  /** Seconds since the freshest heartbeat, or null when no worker ever reported. */
  heartbeatAgeSeconds: number | null;
  /** Retries (attempt ≥ 2) recorded in the last METRICS_WINDOW_SECONDS, by status (SPEC §12.2). */
  recentRetriesByStatus: Record<string, number>;
  /** Attempts waiting for their turn (SPEC §12.2). */
  retriesPending: number;
  /** Exhausted occurrences kept in dead-letter lists (SPEC §12.3). */
  deadLetters: number;
  /** Schedules the scheduler disabled after consecutive failures (SPEC §12.5), still disabled. */
  autoPaused: number;
  /** Durations of the runs whose outcome ended in the last METRICS_WINDOW_SECONDS, by scheduler (SPEC §16.3). */
  durations: { scheduler: string; histogram: LatenessHistogram }[];
  /** The per-schedule series of the schedulers with `metrics_per_schedule` (SPEC §16.3). */
  perSchedule: ScheduleSeries[];
}

/**
 * Collect the figures at instant `now`. `schedulesPerScheduler` bounds the per-schedule series of each
 * opted-in scheduler (the schedule limit, SPEC §16.3).
 */
export async function collectFireMetrics(db: Db, now: Date, schedulesPerScheduler: number): Promise<FireMetrics> {
  const since = new Date(now.getTime() - METRICS_WINDOW_SECONDS * 1000);
  const [counters, recent, lateness, dueBacklog, oldestDue, workers, retries, durations, perSchedule] = await Promise.all([
    // A figure is the sum of its key's rows (PostgreSQL spreads a hot key over several, see the migration).
    db.metricCounter.groupBy({ by: ['key'], _sum: { value: true } }),
    db.run.groupBy({ by: ['status'], where: { createdAt: { gt: since } }, _count: { _all: true } }),
    fireLateness(db, since),
    db.schedule.count({ where: { nextFireAt: { lte: now } } }),
    db.schedule.findFirst({ where: { nextFireAt: { lte: now } }, orderBy: { nextFireAt: 'asc' }, select: { nextFireAt: true } }),
    workerLiveness(db, now),
    db.run.groupBy({ by: ['status'], where: { createdAt: { gt: since }, attempt: { gt: 1 } }, _count: { _all: true } }),
    runDurations(db, since),
    perScheduleSeries(db, schedulesPerScheduler),
  ]);
  const counter = new Map(counters.map((c) => [c.key, Number(c._sum.value ?? 0)]));
  const prefixed = (prefix: string) => [...counter].filter(([key]) => key.startsWith(prefix)).map(([key, n]) => [key.slice(prefix.length), n] as const);
  const toRecord = (rows: { status: string; _count: { _all: number } }[]) => Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
  return {
    // Only statuses some run holds, as a GROUP BY over the runs would list them.
    runsByStatus: Object.fromEntries(prefixed('runs:').filter(([, n]) => n !== 0)),
    recentRunsByStatus: toRecord(recent),
    lateness,
    dueBacklog,
    oldestDueAgeSeconds: oldestDue?.nextFireAt ? Math.max(0, (now.getTime() - oldestDue.nextFireAt.getTime()) / 1000) : 0,
    skippedOccurrences: counter.get('skipped_occurrences') ?? 0,
    schedules: prefixed('schedules:')
      .filter(([, n]) => n !== 0)
      .map(([group, count]) => {
        const at = group.lastIndexOf(':');
        return { state: group.slice(0, at), enabled: group.slice(at + 1) === 'true', count };
      })
      .sort((a, b) => a.state.localeCompare(b.state) || Number(b.enabled) - Number(a.enabled)),
    liveWorkers: workers.alive,
    heartbeatAgeSeconds: workers.lastSeenAgeSeconds,
    recentRetriesByStatus: toRecord(retries),
    retriesPending: counter.get('pending_attempts') ?? 0,
    deadLetters: counter.get('dead_letters') ?? 0,
    autoPaused: counter.get('schedules_auto_paused') ?? 0,
    durations,
    perSchedule,
  };
}
