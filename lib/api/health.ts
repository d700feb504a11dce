import { storageFaultOf, toError } from '../errors';
import { freshestHeartbeatAgeSeconds, writeStorageProbe } from '../schedules';
import { runtime, type Runtime } from './runtime';
import { clearStorageFault, currentStorageFault, noteStorageFault } from './storage-health';

export interface HealthReport {
  /** `ok`; `degraded` when reads work but writes fail (storage full or read-only); `unavailable`. */
  status: 'ok' | 'degraded' | 'unavailable';
  database: 'reachable' | 'unreachable';
  /** Whether the database takes writes: `ok`, `full` (disk full) or `read_only`. */
  storage: 'ok' | 'full' | 'read_only';
  /** Seconds since the freshest worker heartbeat, or null when no worker has ever reported. */
  worker_heartbeat_age_seconds: number | null;
}

const PROBE_ID = 'web';

/**
 * `GET /api/health`: database reachability, whether it takes writes, and the freshest worker
 * heartbeat's age. Never carries the driver's error text (it is logged instead). Writes nothing while
 * all is well; after a write of this process failed with a storage fault (lib/api/storage-health.ts),
 * each call probes with one small committed write, so the report clears by itself once space returns.
 */
export async function healthReport(now: Date, db: Runtime['db'] = runtime().db): Promise<HealthReport> {
  let age: number | null;
  try {
    // Reading the heartbeats is the reachability check: it answers only from a reachable, migrated database.
    age = await freshestHeartbeatAgeSeconds(db, now);
  } catch (e) {
    const err = toError(e);
    console.error(JSON.stringify({ level: 'error', msg: 'health: database unreachable', error: err.message }));
    return { status: 'unavailable', database: 'unreachable', storage: 'ok', worker_heartbeat_age_seconds: null };
  }
  const storage = await probeStorage(db, now);
  return { status: storage === 'ok' ? 'ok' : 'degraded', database: 'reachable', storage, worker_heartbeat_age_seconds: age };
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
