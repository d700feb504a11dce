import { toError } from '../errors';
import { freshestHeartbeatAgeSeconds } from '../schedules';
import { runtime } from './runtime';

export interface HealthReport {
  status: 'ok' | 'unavailable';
  database: 'reachable' | 'unreachable';
  /** Seconds since the freshest worker heartbeat, or null when no worker has ever reported. */
  worker_heartbeat_age_seconds: number | null;
  error?: string;
}

/** `GET /api/health`: database reachability and the freshest worker heartbeat's age. */
export async function healthReport(now: Date): Promise<HealthReport> {
  try {
    // Reading the heartbeats is the reachability check: it answers only from a reachable, migrated database.
    const age = await freshestHeartbeatAgeSeconds(runtime().db, now);
    return { status: 'ok', database: 'reachable', worker_heartbeat_age_seconds: age };
  } catch (e) {
    return { status: 'unavailable', database: 'unreachable', worker_heartbeat_age_seconds: null, error: toError(e).message };
  }
}
