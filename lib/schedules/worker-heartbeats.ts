/**
 * Worker liveness (GET /api/health, GET /metrics): each worker process keeps one `worker_heartbeats`
 * row, stamped between ticks and removed at a clean stop. The worker calls these; it writes no row
 * itself (STYLE §5: the worker imports lib/db to connect only).
 */
import { inTransaction, type Db } from '../db';

export interface HeartbeatOptions {
  /** The worker's id (`host:pid:random`), the row's key. */
  workerId: string;
  /** When the worker process started (UTC). */
  startedAt: Date;
  /** The beat's instant (UTC): the row's `last_seen_at`. */
  now: Date;
}

/** Record that worker `workerId` is alive at `now` (creates its row on the first beat). */
export async function recordHeartbeat(db: Db, opts: HeartbeatOptions): Promise<void> {
  await inTransaction(db, (tx) =>
    tx.workerHeartbeat.upsert({
      where: { id: opts.workerId },
      create: { id: opts.workerId, startedAt: opts.startedAt, lastSeenAt: opts.now },
      update: { lastSeenAt: opts.now },
    }),
  );
}

/** Remove worker `workerId`'s row at a clean stop; nothing happens when it has none. */
export async function removeHeartbeat(db: Db, workerId: string): Promise<void> {
  await inTransaction(db, (tx) => tx.workerHeartbeat.deleteMany({ where: { id: workerId } }));
}

/**
 * Seconds (whole, ≥ 0) from the freshest heartbeat of any worker to `now`, or null when no worker has
 * ever reported. Throws when the database cannot be read (the health check then reports it unreachable).
 */
export async function freshestHeartbeatAgeSeconds(db: Db, now: Date): Promise<number | null> {
  const beat = await db.workerHeartbeat.findFirst({ orderBy: { lastSeenAt: 'desc' }, select: { lastSeenAt: true } });
  return beat ? Math.max(0, Math.round((now.getTime() - beat.lastSeenAt.getTime()) / 1000)) : null;
}
