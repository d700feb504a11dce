import type { Actor } from '../../auth';
import { inTransaction, lockSchedule, type Db } from '../../db';
import { recordActivity } from '../activity';
import { requireSchedulerRole } from '../access';
import { endAlertingOfSchedules } from '../alerts/rules';
import { getScheduleRow } from '../read/find-schedule';
import { requireVersion } from './update-schedule';

/**
 * `delete_schedule` (SPEC §3.1): allowed in every state; its run history goes with it (cascade).
 * SPEC §15: a stale `expectedVersion` is `409 version_conflict` and deletes nothing; the delete is
 * recorded in the scheduler's activity log (the entry outlives the schedule), at `now` (UTC).
 * Throws `404 schedule_not_found`, `409 version_conflict`.
 */
export async function deleteSchedule(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string }; scheduleRef: string; now: Date; expectedVersion?: number }): Promise<void> {
  const { db, actor, revision } = opts;
  await inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const found = await getScheduleRow(tx, revision.id, opts.scheduleRef);
    // Locked (PostgreSQL FOR UPDATE) and read again: the version checked is the one deleted.
    const row = (await lockSchedule(tx, found.id)) ?? found;
    requireVersion(row, opts.expectedVersion);
    await tx.schedule.delete({ where: { id: row.id } });
    // Its rules and open incidents go with it (decision 344); its alert log stays.
    await endAlertingOfSchedules(tx, [row.id], opts.now);
    await recordActivity(tx, { revisionId: revision.id, schedule: row, action: 'delete', by: actor, at: opts.now });
  });
}
