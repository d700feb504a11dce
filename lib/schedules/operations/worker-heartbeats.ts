/**
 * Worker liveness (SPEC §8: "while the worker is healthy"; issue "honest health"). Each worker process
 * writes one `worker_heartbeats` row and refreshes it between ticks, recording the longest pause it
 * keeps between two heartbeats (`intervalMs`), so the web process can judge a worker it does not run:
 * - alive: not stopped, and seen within `DEAD_AFTER_INTERVALS` × its interval;
 * - pruned: not seen for `PRUNE_AFTER_INTERVALS` × its interval (deleted by a live worker's heartbeat).
 * Only live workers prune, so while none is alive the newest row says since when none has run.
 * There are a handful of rows (one per worker process), so every read takes them all.
 * The worker calls these; it writes no row itself (STYLE §5: the worker imports lib/db to connect only).
 */
import { inTransaction, type Db, type Tx } from '../../db';
import type { OverdueReason } from '../contract';

/** A worker not seen within this many of its intervals is dead (GET /api/health answers `degraded`). */
export const DEAD_AFTER_INTERVALS = 3;
/** A worker not seen within this many of its intervals has its row deleted by a live worker. */
export const PRUNE_AFTER_INTERVALS = 10;

export interface RecordHeartbeatOptions {
  workerId: string;
  /** When the worker process started (UTC). */
  startedAt: Date;
  /** The longest pause the worker keeps between two heartbeats, in ms (> 0). */
  intervalMs: number;
  /** The heartbeat's instant (UTC). */
  now: Date;
}

/**
 * Record that `workerId` is alive at `now`, then delete the rows of workers not seen for
 * PRUNE_AFTER_INTERVALS × their own interval (dead processes: SIGKILL, crash, lost host, or stopped
 * long ago). Returns how many rows were pruned.
 */
export async function recordHeartbeat(db: Db, opts: RecordHeartbeatOptions): Promise<{ pruned: number }> {
  const { workerId, startedAt, intervalMs, now } = opts;
  return inTransaction(db, async (tx) => {
    await tx.workerHeartbeat.upsert({
      where: { id: workerId },
      create: { id: workerId, startedAt, lastSeenAt: now, intervalMs },
      update: { lastSeenAt: now, intervalMs, stoppedAt: null },
    });
    const rows = await tx.workerHeartbeat.findMany({ select: { id: true, lastSeenAt: true, intervalMs: true } });
    const dead = rows.filter((r) => r.id !== workerId && now.getTime() - r.lastSeenAt.getTime() > PRUNE_AFTER_INTERVALS * r.intervalMs).map((r) => r.id);
    if (dead.length === 0) return { pruned: 0 };
    // A pruned worker that was only stalled writes its row again at its next heartbeat (the upsert).
    const { count } = await tx.workerHeartbeat.deleteMany({ where: { id: { in: dead } } });
    return { pruned: count };
  });
}

/** A graceful stop: the worker says it is gone at `now` (its row stays until a live worker prunes it). */
export async function markWorkerStopped(db: Db, workerId: string, now: Date): Promise<void> {
  await inTransaction(db, (tx) => tx.workerHeartbeat.updateMany({ where: { id: workerId }, data: { lastSeenAt: now, stoppedAt: now } }));
}

export interface WorkerLiveness {
  /** Workers alive at `now`: not stopped, seen within DEAD_AFTER_INTERVALS × their interval. */
  alive: number;
  /** When a worker was last seen alive (its newest heartbeat or its stop), or null when none ever reported. */
  lastSeenAt: Date | null;
  /** Seconds from `lastSeenAt` to `now` (≥ 0), or null when none ever reported. */
  lastSeenAgeSeconds: number | null;
}

/** Whether a worker heartbeat row counts as alive at `now` (the one liveness rule). */
export function isWorkerAlive(row: { lastSeenAt: Date; intervalMs: number; stoppedAt: Date | null }, now: Date): boolean {
  return row.stoppedAt === null && now.getTime() - row.lastSeenAt.getTime() <= DEAD_AFTER_INTERVALS * row.intervalMs;
}

/** The workers' liveness at `now`, from every heartbeat row. Throws when the database cannot be read. */
export async function workerLiveness(db: Tx, now: Date): Promise<WorkerLiveness> {
  const rows = await db.workerHeartbeat.findMany({ select: { lastSeenAt: true, intervalMs: true, stoppedAt: true } });
  let lastSeenAt: Date | null = null;
  let alive = 0;
  for (const r of rows) {
    if (isWorkerAlive(r, now)) alive++;
    if (!lastSeenAt || r.lastSeenAt > lastSeenAt) lastSeenAt = r.lastSeenAt;
  }
  return {
    alive,
    lastSeenAt,
    lastSeenAgeSeconds: lastSeenAt ? Math.max(0, (now.getTime() - lastSeenAt.getTime()) / 1000) : null,
  };
}

/** With a worker alive, a next fire this far in the past means the workers are behind, in seconds. */
export const OVERDUE_GRACE_SECONDS = 30;

/**
 * Whether a pending `next_fire_at` (ISO UTC, or null when none) is overdue at `now`, for the pages
 * that show one: with no worker alive, as soon as it is past (nothing will fire it); with a worker
 * alive, once it is OVERDUE_GRACE_SECONDS past (a live worker fires a due occurrence within about one
 * poll interval). Undefined when it is not overdue.
 */
export function overdueReason(nextFireAt: string | null, liveness: Pick<WorkerLiveness, 'alive'>, now: Date): OverdueReason | undefined {
  if (!nextFireAt) return undefined;
  const late = now.getTime() - Date.parse(nextFireAt);
  if (liveness.alive === 0) return late > 0 ? 'no_worker' : undefined;
  return late > OVERDUE_GRACE_SECONDS * 1000 ? 'behind' : undefined;
}
