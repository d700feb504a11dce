import type { Actor } from '../../auth';
import { cancelPendingAttempts, findSchedules, inTransaction, type Db } from '../../db';
import { recordActivity } from '../activity';
import { requireSchedulerRole } from '../access';
import { countDueOccurrences, errorCodeOf, fireAtOf, nextOccurrenceInWindow } from '../../engine';
import { DomainError, toError } from '../../errors';

/**
 * `set_all_enabled` (SPEC §3.1, §12.5) — pause all / resume all of a scheduler's active schedules.
 * - `false`: every enabled active schedule is disabled with `paused: {by: <actor>, at: now, bulk: true}`;
 *   its pending retries are cancelled (SPEC §12.2) and due, unfired occurrences counted as skipped (SPEC §8).
 * - `true`: only the schedules a `set_all_enabled(false)` disabled (`bulk`) are enabled again, firing
 *   from the next occurrence after `now` (no catch-up, SPEC §5.1); one an operator disabled on its own
 *   stays disabled. A resumed schedule with no occurrence left is completed (SPEC §5.3).
 * SPEC §15: each changed schedule's `version` is incremented, and one scheduler-wide `pause_all` /
 * `resume_all` entry (with `count`, 0 included) names who pressed it.
 * Returns how many schedules changed.
 */
export async function setAllEnabled(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string }; enabled: boolean; now: Date }): Promise<{ updated: number }> {
  const { db, actor, revision, enabled, now } = opts;
  return inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    // On the driver through the row codec: a row it cannot read names itself (decision 425).
    const rows = await findSchedules(tx, { revisionIds: [revision.id], state: 'active', enabled: !enabled, ...(enabled ? { pausedBulk: true } : {}) });
    // Serialization is desired: one transaction client runs one statement at a time. Lock order
    // (decision 434): the rows are updated, so locked, in id order, as the worker's record of delivered
    // attempts locks them; in listing order, the two could each hold a row the other waits for.
    for (const row of [...rows].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))) {
      if (enabled) {
        const next = computedFor(row.id, 'resumed', () => nextOccurrenceInWindow(row, now));
        const fireAt = next ? fireAtOf(row.id, row.flexibleWindowMinutes, next) : null;
        await tx.schedule.update({
          where: { id: row.id },
          data: {
            enabled: true,
            nextFireAt: fireAt,
            nextScheduledFor: next && fireAt && next.getTime() !== fireAt.getTime() ? next : null,
            pausedByType: null,
            pausedById: null,
            pausedAt: null,
            pauseNote: null,
            pausedBulk: false,
            ...(next === null ? { state: 'completed' } : {}),
            version: { increment: 1 },
            updatedAt: now,
          },
        });
      } else {
        const due = row.nextFireAt && row.nextFireAt.getTime() <= now.getTime() ? row.nextFireAt : null;
        const dropped = due ? computedFor(row.id, 'paused', () => countDueOccurrences(row, row.id, row.flexibleWindowMinutes, row.nextScheduledFor ?? due, due, now)) : 0;
        await tx.schedule.update({
          where: { id: row.id },
          data: {
            enabled: false,
            nextFireAt: null,
            nextScheduledFor: null,
            pausedByType: actor.type,
            pausedById: actor.id,
            pausedAt: now,
            pauseNote: null,
            pausedBulk: true,
            skippedOccurrences: row.skippedOccurrences + dropped,
            version: { increment: 1 },
            updatedAt: now,
          },
        });
      }
    }
    if (!enabled) await cancelPendingAttempts(tx, rows.map((r) => r.id), { now, reason: 'the schedule was disabled (pause all)' });
    await recordActivity(tx, { revisionId: revision.id, action: enabled ? 'resume_all' : 'pause_all', by: actor, at: now, count: rows.length });
    return { updated: rows.length };
  });
}

/**
 * `compute()`, the time engine on schedule `scheduleId`'s stored expression, zone and window; when it
 * throws (a hand-edited expression no save would take), `500 internal_error` naming the schedule and
 * the way out, and the whole pause-all / resume-all rolls back: nothing is half-written (decision 428).
 */
function computedFor<T>(scheduleId: string, verb: 'paused' | 'resumed', compute: () => T): T {
  try {
    return compute();
  } catch (e) {
    const error = toError(e);
    throw new DomainError(
      'internal_error',
      `schedule ${scheduleId} cannot be ${verb}: its occurrences could not be computed (${errorCodeOf(error)}: ${error.message}); correct its expression with update_schedule or delete it (delete_schedule ${scheduleId}), then try again`,
      { cause: error },
    );
  }
}
