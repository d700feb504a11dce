import { storageFaultOf, toError } from '../errors';
import { anyAlertChannelFailing, DEAD_AFTER_INTERVALS, workerLiveness, writeStorageProbe, type WorkerLiveness } from '../schedules';
import { runtime, type Runtime } from './runtime';
import { clearStorageFault, currentStorageFault, noteStorageFault } from './storage-health';

/**
 * `GET /api/health` (JSON). `ok` needs the database reachable, taking writes, AND at least one worker
 * alive (a heartbeat within 3 × the interval it keeps, lib/schedules/operations/worker-heartbeats.ts); otherwise
 * the answer is `degraded` with the `reason` in words (503).
 */
export interface HealthReport {
  status: 'ok' | 'degraded';
  database: 'reachable' | 'unreachable';
  /** Whether the database takes writes: `ok`, `full` (disk full) or `read_only`. */
  storage: 'ok' | 'full' | 'read_only';
  /** Workers alive now; 0 when the database is unreachable (unknown). */
  workers_alive: number;
  /** When a worker was last seen alive (ISO UTC), or null when none ever reported. */
  worker_last_seen_at: string | null;
  /** Seconds since a worker was last seen (whole seconds), or null when none ever reported. */
  worker_heartbeat_age_seconds: number | null;
  /**
   * SPEC §17: `failing` while an alert channel's last send failed (an operator must look: alerts may
   * not reach anyone), else `ok`. Informational: it never makes the status `degraded` (still 200).
   */
  alerts: 'ok' | 'failing';
  /** Why the status is `degraded` (each cause, `; `-separated); omitted when `ok`. */
  reason?: string;
}

const PROBE_ID = 'web';

/**
 * The health report at `now` (UTC): database reachability, whether it takes writes, and the workers'
 * liveness. `client` is the process's client, or how to open it (default: `runtime()`'s). Never throws
 * (an unreachable database, or one that cannot be opened, is a `degraded` report) and never carries the
 * driver's error text (it is logged instead). Writes nothing while all is well; after a write of this
 * process failed with a storage fault (lib/api/storage-health.ts), each call probes with one small
 * committed write, so the report clears by itself once space returns.
 */
export async function healthReport(now: Date, client: Runtime['db'] | (() => Runtime['db']) = () => runtime().db): Promise<HealthReport> {
  let liveness: WorkerLiveness;
  let db: Runtime['db'];
  try {
    // Opening the client is part of the check: a SQLite file whose folder cannot be written (no WAL
    // files) fails here, and the next call opens it again (lib/db keeps no client that failed to open).
    db = typeof client === 'function' ? client() : client;
    // Reading the heartbeats is the reachability check: it answers only from a reachable, migrated database.
    liveness = await workerLiveness(db, now);
  } catch (e) {
    const err = toError(e);
    console.error(JSON.stringify({ level: 'error', msg: 'health: database unreachable', error: err.message }));
    return {
      status: 'degraded',
      database: 'unreachable',
      storage: 'ok',
      workers_alive: 0,
      worker_last_seen_at: null,
      worker_heartbeat_age_seconds: null,
      alerts: 'ok',
      reason: 'the database is unreachable',
    };
  }
  const storage = await probeStorage(db, now);
  const age = liveness.lastSeenAgeSeconds === null ? null : Math.round(liveness.lastSeenAgeSeconds);
  const reasons: string[] = [];
  if (storage !== 'ok') reasons.push(storage === 'full' ? 'the database storage is full: writes are refused' : 'the database is read-only: writes are refused');
  if (liveness.alive === 0) {
    reasons.push(
      liveness.lastSeenAt
        ? `no worker is alive: one was last seen ${age} s ago (a worker counts as gone after ${DEAD_AFTER_INTERVALS} × its heartbeat interval without a heartbeat); schedules do not fire`
        : 'no worker has ever reported a heartbeat; schedules do not fire until one runs (npm run worker)',
    );
  }
  const report: HealthReport = {
    status: reasons.length === 0 ? 'ok' : 'degraded',
    database: 'reachable',
    storage,
    workers_alive: liveness.alive,
    worker_last_seen_at: liveness.lastSeenAt?.toISOString() ?? null,
    worker_heartbeat_age_seconds: age,
    alerts: (await anyAlertChannelFailing(db).catch(() => false)) ? 'failing' : 'ok',
  };
  if (reasons.length > 0) report.reason = reasons.join('; ');
  return report;
}

async function probeStorage(db: Runtime['db'], now: Date): Promise<HealthReport['storage']> {
  if (!currentStorageFault()) return 'ok';
  try {
    await writeStorageProbe(db, PROBE_ID, now);
    clearStorageFault();
    return 'ok';
  } catch (e) {
    // Any other failure (a busy timeout) proves nothing either way: keep reporting the noted fault.
    const code = storageFaultOf(e) ?? currentStorageFault()?.code ?? 'storage_full';
    noteStorageFault(code, now);
    return code === 'storage_full' ? 'full' : 'read_only';
  }
}
