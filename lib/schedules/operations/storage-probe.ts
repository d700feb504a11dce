/**
 * The health check's write probe (GET /api/health, lib/api/health.ts): one `storage_probes` row per
 * web process kind, rewritten only while a storage fault (disk full, read-only) is being reported, to
 * find out whether writes work again. Beside the worker heartbeats, the other rows health reads.
 */
import { inTransaction, type Db } from '../../db';

/** What a probe writes beside its instant: room for a real write (a schedule with its input is ~5 KiB). */
const PROBE_ROOM = 'x'.repeat(64 * 1024);

/**
 * Rewrite probe row `probeId` with `now` (UTC) and 64 KiB, then clear the 64 KiB, each in a transaction
 * of its own, committed: a nearly full disk still takes a tiny update, so the probe asks for room a real
 * write needs. Resolves when the database took both writes; throws the driver's error when it did not
 * (a storage fault, a busy timeout).
 */
export async function writeStorageProbe(db: Db, probeId: string, now: Date): Promise<void> {
  await inTransaction(db, (tx) =>
    tx.storageProbe.upsert({ where: { id: probeId }, create: { id: probeId, checkedAt: now, room: PROBE_ROOM }, update: { checkedAt: now, room: PROBE_ROOM } }),
  );
  await inTransaction(db, (tx) => tx.storageProbe.update({ where: { id: probeId }, data: { room: null } }));
}
