/**
 * Step 1 of a fire, CLAIM (SPEC §8, §12.2 "exactly once"): take due occurrences and due pending
 * attempts for the caller's transaction, so that no other worker fires them until it commits or rolls
 * back. The statements are lib/db/sql/claim-due.ts and claim-retries.ts (what each locks, on each
 * dialect, is said there); this step names them, and the plain reads of what is due that the worker's
 * one-by-one fallback uses (the sleep bound is lib/db/sql/due-probes.ts).
 */
import { claimDue, claimRetries, type ClaimedRetry, type ClaimedSchedule, type Db, type Tx } from '../db';

/** What one transaction claimed: due occurrences (their schedules) and due pending attempts. */
export interface Claimed {
  rows: ClaimedSchedule[];
  retries: ClaimedRetry[];
}

/**
 * Claim up to `limit` occurrences and up to `limit` pending attempts due at `now`, oldest first.
 * Must be the transaction's first statements: the claim lasts until it ends.
 */
export async function claimBatch(tx: Tx, now: Date, limit: number): Promise<Claimed> {
  const rows = await claimDue(tx, now, limit);
  // Exactly once (SPEC §12.2): claimRetries DELETEs the rows it returns; only those are fired, by this transaction.
  const retries = await claimRetries(tx, now, limit);
  return { rows, retries };
}

/** Due pending attempts (retries and expired in-flight leases), oldest first, through the due_at index. A plain read. */
export async function listDueRetries(db: Db, now: Date, limit: number): Promise<{ pendingId: string; scheduleId: string; scheduledFor: Date }[]> {
  const rows = await db.pendingAttempt.findMany({ where: { dueAt: { lte: now } }, orderBy: { dueAt: 'asc' }, take: limit, select: { id: true, scheduleId: true, scheduledFor: true } });
  return rows.map((r) => ({ pendingId: r.id, scheduleId: r.scheduleId, scheduledFor: r.scheduledFor }));
}

/**
 * Due occurrences: schedules whose next_fire_at ≤ now, oldest first, through the next_fire_at index
 * (never a scan of every schedule). Disabled and completed schedules have next_fire_at null. A plain
 * read that claims nothing (the worker's fallback, metrics, tests).
 */
export async function listDueOccurrences(db: Db, now: Date, limit: number): Promise<{ scheduleId: string; scheduledFor: Date }[]> {
  const rows = await db.schedule.findMany({
    where: { nextFireAt: { lte: now } },
    orderBy: { nextFireAt: 'asc' },
    take: limit,
    select: { id: true, nextFireAt: true },
  });
  return rows.flatMap((r) => (r.nextFireAt ? [{ scheduleId: r.id, scheduledFor: r.nextFireAt }] : []));
}
