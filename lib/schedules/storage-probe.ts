/**
 * The health check's write probe (GET /api/health, lib/api/health.ts): one `storage_probes` row per
 * web process kind, rewritten only while a storage fault (disk full, read-only) is being reported, to
 * find out whether writes work again. Beside the worker heartbeats, the other rows health reads.
 */
import { inTransaction, type Db } from '../db';

/**
 * Rewrite probe row `probeId` with `now` (UTC) in a transaction of its own, committed. Resolves when
 * the database took the write; throws the driver's error when it did not (a storage fault, a busy timeout).
 */
export async function writeStorageProbe(db: Db, probeId: string, now: Date): Promise<void> {
  await inTransaction(db, (tx) => tx.storageProbe.upsert({ where: { id: probeId }, create: { id: probeId, checkedAt: now }, update: { checkedAt: now } }));
}
