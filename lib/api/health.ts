import { getDb, type Db } from '../db';
import { toError } from '../errors';
import { DEAD_AFTER_INTERVALS, workerLiveness } from '../schedules';

/**
 * `GET /api/health` (JSON). `ok` needs the database reachable AND at least one worker alive (a
 * heartbeat within 3 × the interval it keeps, lib/schedules/worker-heartbeats.ts); otherwise the
 * answer is `degraded` with the `reason` in words.
 */
export interface HealthReport {
  status: 'ok' | 'degraded';
  database: 'reachable' | 'unreachable';
  /** Workers alive now; 0 when the database is unreachable (unknown). */
  workers_alive: number;
  /** When a worker was last seen alive (ISO UTC), or null when none ever reported. */
  worker_last_seen_at: string | null;
  /** Seconds since a worker was last seen (whole seconds), or null when none ever reported. */
  worker_heartbeat_age_seconds: number | null;
  /** Why the status is `degraded`; omitted when `ok`. */
  reason?: string;
  /** The database error, when it is unreachable. */
  error?: string;
}

/** The health report at `now` (UTC). Never throws: an unreachable database is a `degraded` report. */
export async function healthReport(now: Date, db: Db = getDb()): Promise<HealthReport> {
  let liveness;
  try {
    await db.$queryRawUnsafe('SELECT 1');
    liveness = await workerLiveness(db, now);
  } catch (e) {
    const error = toError(e).message;
    return { status: 'degraded', database: 'unreachable', workers_alive: 0, worker_last_seen_at: null, worker_heartbeat_age_seconds: null, reason: 'the database is unreachable', error };
  }
  const age = liveness.lastSeenAgeSeconds === null ? null : Math.round(liveness.lastSeenAgeSeconds);
  const report: HealthReport = {
    status: liveness.alive > 0 ? 'ok' : 'degraded',
    database: 'reachable',
    workers_alive: liveness.alive,
    worker_last_seen_at: liveness.lastSeenAt?.toISOString() ?? null,
    worker_heartbeat_age_seconds: age,
  };
  if (liveness.alive === 0) {
    report.reason = liveness.lastSeenAt
      ? `no worker is alive: one was last seen ${age} s ago (a worker counts as gone after ${DEAD_AFTER_INTERVALS} × its heartbeat interval without a heartbeat); schedules do not fire`
      : 'no worker has ever reported a heartbeat; schedules do not fire until one runs (npm run worker)';
  }
  return report;
}
