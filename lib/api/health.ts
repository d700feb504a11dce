import { getDb } from '../db';
import { toError } from '../errors';

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
    const db = getDb();
    await db.$queryRawUnsafe('SELECT 1');
    const beat = await db.workerHeartbeat.findFirst({ orderBy: { lastSeenAt: 'desc' } });
    return {
      status: 'ok',
      database: 'reachable',
      worker_heartbeat_age_seconds: beat ? Math.max(0, Math.round((now.getTime() - beat.lastSeenAt.getTime()) / 1000)) : null,
    };
  } catch (e) {
    return { status: 'unavailable', database: 'unreachable', worker_heartbeat_age_seconds: null, error: toError(e).message };
  }
}
