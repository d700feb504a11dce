import { migrationStatus } from '../db';
import { storageFaultOf, toError } from '../errors';
import { logger } from '../log';
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
  /**
   * Whether the database takes writes: `ok`, `full` (disk full) or `read_only`; `unknown` when it
   * could not be asked (unreachable or not migrated).
   */
  storage: 'ok' | 'full' | 'read_only' | 'unknown';
  /** Workers alive now; 0 when the database is unreachable or not migrated (unknown). */
  workers_alive: number;
  /** When a worker was last seen alive (ISO UTC), or null when none ever reported. */
  worker_last_seen_at: string | null;
  /** Seconds since a worker was last seen (whole seconds), or null when none ever reported. */
  worker_heartbeat_age_seconds: number | null;
  /**
   * SPEC §17: `failing` while an alert channel's last send failed (an operator must look: alerts may
   * not reach anyone), else `ok`; `unknown` when the channels could not be read (the database
   * unreachable or not migrated, or the read failed: logged). Informational: it never makes the
   * status `degraded` (still 200).
   */
  alerts: 'ok' | 'failing' | 'unknown';
  /** Why the status is `degraded` (each cause, `; `-separated); omitted when `ok`. */
  reason?: string;
}

const PROBE_ID = 'web';

/**
 * The health report at `now` (UTC): database reachability, whether it takes writes, and the workers'
 * liveness. `client` is the process's client, or how to open it (default: `runtime()`'s). Never throws
 * (an unreachable database, one that cannot be opened, or one that answers but is not migrated, is a
 * `degraded` report; the last with `database: reachable` and a reason naming the pending migrations) and never carries the
 * driver's error text (it is logged instead). Writes nothing while all is well; after a write of this
 * process failed with a storage fault (lib/api/storage-health.ts), each call probes with one small
 * committed write, so the report clears by itself once space returns.
 */
export async function healthReport(now: Date, client: Runtime['db'] | (() => Runtime['db']) = () => runtime().db): Promise<HealthReport> {
  const probe = await probeDatabase(now, client);
  if (!probe.ok) {
    // A database that answers without the product's tables (never migrated) is named as such, not as
    // unreachable: the operator's next step is the migrations, not the network.
    const unmigrated = await notMigrated(probe);
    return {
      status: 'degraded',
      database: unmigrated ? 'reachable' : 'unreachable',
      // Neither was asked: saying `ok` would claim a check that did not run (decision 424).
      storage: 'unknown',
      workers_alive: 0,
      worker_last_seen_at: null,
      worker_heartbeat_age_seconds: null,
      alerts: 'unknown',
      reason: unmigrated ? `the database is not fully migrated: ${unmigrated.reason}` : UNREACHABLE,
    };
  }
  const { db, liveness } = probe;
  const storage = await probeStorage(db, now);
  const reasons: string[] = [];
  if (storage !== 'ok') reasons.push(storage === 'full' ? 'the database storage is full: writes are refused' : 'the database is read-only: writes are refused');
  const workers = noWorkerReason(liveness);
  if (workers) reasons.push(workers);
  const report: HealthReport = {
    status: reasons.length === 0 ? 'ok' : 'degraded',
    database: 'reachable',
    storage,
    workers_alive: liveness.alive,
    worker_last_seen_at: liveness.lastSeenAt?.toISOString() ?? null,
    worker_heartbeat_age_seconds: ageSeconds(liveness),
    alerts: await alertsHealth(db),
  };
  if (reasons.length > 0) report.reason = reasons.join('; ');
  return report;
}

const UNREACHABLE = 'the database is unreachable';

/** Whether the last read of the alert channels failed: a failure is logged when it starts, not at every probe. */
let alertsReadFailing = false;

/**
 * SPEC §17 in the health report: `failing` / `ok`, or `unknown` when the channels could not be read
 * within the probe's timeout (logged once when that starts, and once when it ends).
 */
async function alertsHealth(db: Runtime['db']): Promise<HealthReport['alerts']> {
  try {
    const failing = await withinProbeTimeout(anyAlertChannelFailing(db));
    if (alertsReadFailing) logger.info('health: the alert channels can be read again');
    alertsReadFailing = false;
    return failing ? 'failing' : 'ok';
  } catch (e) {
    if (!alertsReadFailing) logger.error('health: reading the alert channels failed', { error: toError(e).message });
    alertsReadFailing = true;
    return 'unknown';
  }
}

/**
 * The database opened and the workers' liveness read from it, or `ok: false` when that failed (logged);
 * `db` is then the client when it opened (the read failed: unreachable, or not migrated).
 */
type DatabaseProbe = { ok: true; db: Runtime['db']; liveness: WorkerLiveness } | { ok: false; db?: Runtime['db']; error: unknown };

/** How long the database probe of `/api/health` and `/api/health/ready` waits for its answer (ms). */
export const PROBE_TIMEOUT_MS = 5_000;

class ProbeTimeout extends Error {}

/** `work`, or a rejection when it has not settled within PROBE_TIMEOUT_MS (the work itself is left to finish). */
function withinProbeTimeout<T>(work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout(`the database gave no answer within ${PROBE_TIMEOUT_MS / 1000} s`)), PROBE_TIMEOUT_MS);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

async function probeDatabase(now: Date, client: Runtime['db'] | (() => Runtime['db'])): Promise<DatabaseProbe> {
  let db: Runtime['db'] | undefined;
  try {
    // Opening the client is part of the check: a SQLite file whose folder cannot be written (no WAL
    // files) fails here, and the next call opens it again (lib/db keeps no client that failed to open).
    db = typeof client === 'function' ? client() : client;
    // Reading the heartbeats is the reachability check: it answers only from a reachable, migrated database.
    // Bounded: a database that accepts connections but never answers makes the probe fail in
    // PROBE_TIMEOUT_MS instead of holding the probe's request (and the orchestrator's) open.
    return { ok: true, db, liveness: await withinProbeTimeout(workerLiveness(db, now)) };
  } catch (e) {
    // Logged by `notMigrated`, which tells an unreachable database from one never migrated.
    // A database that does not answer is not asked again (for its migrations) in the same probe.
    return e instanceof ProbeTimeout ? { ok: false, error: e } : { ok: false, db, error: e };
  }
}

/**
 * For a failed probe: the migrations check when the database answers but some (or every) migration
 * is pending or failed, i.e. it is reachable and not migrated; else null (unreachable). Logs which.
 * `migrationsDir`: the dialect's committed migrations folder unless given (tests).
 */
async function notMigrated(probe: DatabaseProbe & { ok: false }, migrationsDir?: string): Promise<(ReadinessCheck & { status: 'failing' }) | null> {
  // Bounded like the probe itself: a database that answered the first read with an error may still hang on this one.
  const check = probe.db ? await withinProbeTimeout(migrationsCheck(probe.db, migrationsDir, false)).catch(() => null) : null;
  if (check && check.status === 'failing' && check.reason !== UNREADABLE_MIGRATIONS) {
    logger.error('health: database not migrated', { reason: check.reason });
    return { status: 'failing', reason: check.reason };
  }
  logger.error('health: database unreachable', { error: toError(probe.error).message });
  return null;
}

/** Whole seconds since a worker was last seen, or null when none ever reported. */
function ageSeconds(liveness: WorkerLiveness): number | null {
  return liveness.lastSeenAgeSeconds === null ? null : Math.round(liveness.lastSeenAgeSeconds);
}

/** Why no worker counts as alive (in words), or null when one does. */
function noWorkerReason(liveness: WorkerLiveness): string | null {
  if (liveness.alive > 0) return null;
  return liveness.lastSeenAt
    ? `no worker is alive: one was last seen ${ageSeconds(liveness)} s ago (a worker counts as gone after ${DEAD_AFTER_INTERVALS} × its heartbeat interval without a heartbeat); schedules do not fire`
    : 'no worker has ever reported a heartbeat; schedules do not fire until one runs (npm run worker; in a container: worker)';
}

/**
 * `GET /api/health/live` (JSON, always 200): the web process answers. Reads no database, so a slow or
 * unreachable database never gets a healthy process restarted by its supervisor.
 */
export interface LivenessReport {
  status: 'ok';
  /** Whole seconds since the process started. */
  uptime_seconds: number;
}

/** The liveness answer (no I/O). */
export function livenessReport(): LivenessReport {
  return { status: 'ok', uptime_seconds: Math.floor(process.uptime()) };
}

/** One readiness check: `ok`, or `failing` with the `reason` in words. */
export interface ReadinessCheck {
  status: 'ok' | 'failing';
  reason?: string;
}

export type ReadinessCheckName = 'database' | 'migrations' | 'worker';

/**
 * `GET /api/health/ready` (JSON): 200 `ready` when every check is `ok`, else 503 `not_ready` with
 * `failing` naming each failing check (in check order) and `reason` joining their reasons (`; `).
 * - `database`: reachable (the heartbeats table answers a read);
 * - `migrations`: every migration committed for the dialect (prisma/migrations, or
 *   prisma/postgresql/migrations) applied, none pending or failed (lib/db migrationStatus);
 * - `worker`: a worker heartbeat fresh, as `/api/health` counts it (within 3 × the worker's interval).
 * With the database unreachable, the other two cannot be read and fail too; a database that answers
 * without the product's tables (never migrated) fails `migrations` (every migration pending) and `worker`.
 */
export interface ReadinessReport {
  status: 'ready' | 'not_ready';
  checks: Record<ReadinessCheckName, ReadinessCheck>;
  failing?: ReadinessCheckName[];
  reason?: string;
}

/**
 * The readiness report at `now` (UTC). `client` as for `healthReport`; `migrationsDir` overrides the
 * dialect's migrations folder (tests). Reads only; never throws (a failure of a check is that check failing).
 */
export async function readinessReport(
  now: Date,
  client: Runtime['db'] | (() => Runtime['db']) = () => runtime().db,
  opts: { migrationsDir?: string } = {},
): Promise<ReadinessReport> {
  const probe = await probeDatabase(now, client);
  let checks: ReadinessReport['checks'];
  // The heartbeats could not be read, but the database may answer without the product's tables (a new
  // database before its first migration): then it is the migrations that fail, not the database.
  const unmigrated = probe.ok ? null : await notMigrated(probe, opts.migrationsDir);
  if (unmigrated) {
    checks = { database: { status: 'ok' }, migrations: unmigrated, worker: { status: 'failing', reason: 'not checked: the database is not migrated' } };
  } else if (!probe.ok) {
    const unread = { status: 'failing', reason: 'not checked: the database is unreachable' } as const;
    checks = { database: { status: 'failing', reason: UNREACHABLE }, migrations: unread, worker: unread };
  } else {
    const workers = noWorkerReason(probe.liveness);
    checks = {
      database: { status: 'ok' },
      migrations: await migrationsCheck(probe.db, opts.migrationsDir),
      worker: workers ? { status: 'failing', reason: workers } : { status: 'ok' },
    };
  }
  const failing = (Object.keys(checks) as ReadinessCheckName[]).filter((k) => checks[k].status === 'failing');
  if (failing.length === 0) return { status: 'ready', checks };
  return { status: 'not_ready', checks, failing, reason: failing.map((k) => `${k}: ${checks[k].reason}`).join('; ') };
}

const UNREADABLE_MIGRATIONS = 'the applied migrations could not be read; see the log';

/**
 * Migration names for a reason: all of up to four; of more, the first two, how many between, and the
 * last (`0001_init, 0002_…, … (16 more), 0027_backfill`), so a never-migrated database's reason
 * stays one readable line.
 */
function someNames(names: string[]): string {
  if (names.length <= 4) return names.join(', ');
  return `${names[0]}, ${names[1]}, … (${names.length - 3} more), ${names[names.length - 1]}`;
}

/** The `migrations` check; a failure to read them is logged unless `logFailure` is false. */
async function migrationsCheck(db: Runtime['db'], dir: string | undefined, logFailure = true): Promise<ReadinessCheck> {
  try {
    const { pending, failed } = await migrationStatus(db, dir);
    const reasons: string[] = [];
    if (failed.length > 0) reasons.push(`${failed.length} failed or changed after it was applied (${someNames(failed)}): see docs/ops.md "Changing the schema"`);
    if (pending.length > 0) reasons.push(`${pending.length} pending (${someNames(pending)}): run the migrations (npm run db:migrate; in a container: migrate)`);
    return reasons.length === 0 ? { status: 'ok' } : { status: 'failing', reason: reasons.join('; ') };
  } catch (e) {
    if (logFailure) logger.error('health: reading the applied migrations failed', { error: toError(e).message });
    return { status: 'failing', reason: UNREADABLE_MIGRATIONS };
  }
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

/**
 * A health route's answer (`/api/health`, `/api/health/ready`): `report()` as JSON, 200 when
 * `healthy` says so, else 503; never cached. Anything thrown is logged (`health: <what> failed`) and
 * answered 503 with `failed`, so a probe always reads JSON.
 */
export async function probeResponse<T>(what: string, report: () => Promise<T>, healthy: (r: T) => boolean, failed: { status: string; reason: string }): Promise<Response> {
  const headers = { 'cache-control': 'no-store' };
  try {
    const r = await report();
    return Response.json(r, { status: healthy(r) ? 200 : 503, headers });
  } catch (e) {
    logger.error(`health: ${what} failed`, { error: toError(e).message });
    return Response.json(failed, { status: 503, headers });
  }
}
