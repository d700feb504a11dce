import type { Actor } from '../../auth';
import { inTransaction, lockPendingAttemptsOf, lockSchedule, lockScheduleIdentity, UndecodableScheduleError, type Db, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { recordActivity } from '../activity';
import { requireSchedulerRole } from '../access';
import { endAlertingOfSchedules } from '../alerts/rules';
import { getScheduleRow } from '../read/find-schedule';
import type { AlsoInTransaction } from './save-schedule';
import { requireVersion } from './update-schedule';

/**
 * `delete_schedule` (SPEC §3.1): allowed in every state; its run history goes with it (cascade).
 * SPEC §15: a stale `expectedVersion` is `409 version_conflict` and deletes nothing; the delete is
 * recorded in the scheduler's activity log (the entry outlives the schedule), at `now` (UTC).
 * A schedule whose row the codec cannot read is deleted too, by what names it (decision 425): it is
 * the way out its read errors point to.
 * Throws `404 schedule_not_found`, `409 version_conflict`.
 */
export async function deleteSchedule(opts: {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  scheduleRef: string;
  now: Date;
  expectedVersion?: number;
  /** A facade's own write that commits with the delete or not at all (`AlsoInTransaction`). */
  alsoInTransaction?: AlsoInTransaction;
}): Promise<void> {
  const { db, actor, revision } = opts;
  await inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const row = await lockedForDelete(tx, revision.id, opts.scheduleRef);
    requireVersion(row, opts.expectedVersion);
    // Lock order (decision 434): its pending attempts in id order, after its row, before the cascade.
    await lockPendingAttemptsOf(tx, [row.id]);
    // deleteMany: a count back, no row for Prisma to read (an unreadable row's columns included).
    await tx.schedule.deleteMany({ where: { id: row.id } });
    // Its rules and open incidents go with it (decision 344); its alert log stays.
    await endAlertingOfSchedules(tx, [row.id], opts.now);
    await recordActivity(tx, { revisionId: revision.id, schedule: row, action: 'delete', by: actor, at: opts.now });
    await opts.alsoInTransaction?.(tx);
  });
}

/**
 * The schedule `ref` names, locked (PostgreSQL FOR UPDATE) and read again: the version checked is the
 * one deleted. A row the codec cannot read is locked by its id, reading only its names and version.
 */
async function lockedForDelete(tx: Tx, revisionId: string, ref: string) {
  try {
    const found = await getScheduleRow(tx, revisionId, ref);
    return (await lockSchedule(tx, found.id)) ?? found;
  } catch (e) {
    if (!(e instanceof UndecodableScheduleError)) throw e;
    const row = await lockScheduleIdentity(tx, e.scheduleId);
    // Found in this revision a moment ago; gone (or moved) since: as if never found.
    if (!row || row.revisionId !== revisionId) throw new DomainError('schedule_not_found', 'schedule not found', { path: 'schedule_id' });
    return row;
  }
}
