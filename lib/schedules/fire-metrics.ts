/**
 * What GET /metrics reports about firing, computed from the database at each scrape so that it
 * covers every worker process (any number may run) and survives restarts. Every read goes through an
 * index except the per-status run count, the skipped sum and the schedule counts (one pass each).
 */
import { fireLateness, type Db, type LatenessHistogram } from '../db';
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
}

/** Collect the figures at instant `now`. */
export async function collectFireMetrics(db: Db, now: Date): Promise<FireMetrics> {
  const since = new Date(now.getTime() - METRICS_WINDOW_SECONDS * 1000);
  const [byStatus, recent, lateness, dueBacklog, oldestDue, skipped, schedules, workers, retries, retriesPending, deadLetters, autoPaused] = await Promise.all([
    db.run.groupBy({ by: ['status'], _count: { _all: true } }),
    db.run.groupBy({ by: ['status'], where: { createdAt: { gt: since } }, _count: { _all: true } }),
    fireLateness(db, since),
    db.schedule.count({ where: { nextFireAt: { lte: now } } }),
    db.schedule.findFirst({ where: { nextFireAt: { lte: now } }, orderBy: { nextFireAt: 'asc' }, select: { nextFireAt: true } }),
    db.schedule.aggregate({ _sum: { skippedOccurrences: true } }),
    db.schedule.groupBy({ by: ['state', 'enabled'], _count: { _all: true } }),
    workerLiveness(db, now),
    db.run.groupBy({ by: ['status'], where: { createdAt: { gt: since }, attempt: { gt: 1 } }, _count: { _all: true } }),
    db.pendingAttempt.count(),
    db.deadLetter.count(),
    db.schedule.count({ where: { enabled: false, pausedByType: 'system' } }),
  ]);
  const toRecord = (rows: { status: string; _count: { _all: number } }[]) => Object.fromEntries(rows.map((r) => [r.status, r._count._all]));
  return {
    runsByStatus: toRecord(byStatus),
    recentRunsByStatus: toRecord(recent),
    lateness,
    dueBacklog,
    oldestDueAgeSeconds: oldestDue?.nextFireAt ? Math.max(0, (now.getTime() - oldestDue.nextFireAt.getTime()) / 1000) : 0,
    skippedOccurrences: skipped._sum.skippedOccurrences ?? 0,
    schedules: schedules.map((s) => ({ state: s.state, enabled: s.enabled, count: s._count._all })),
    liveWorkers: workers.alive,
    heartbeatAgeSeconds: workers.lastSeenAgeSeconds,
    recentRetriesByStatus: toRecord(retries),
    retriesPending,
    deadLetters,
    autoPaused,
  };
}
