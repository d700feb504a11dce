import type { Actor } from '../auth';
import { inTransaction, type Db } from '../db';
import { requireSchedulerRole } from './access';
import { getScheduleRow } from './find-schedule';

/**
 * `delete_schedule` (SPEC §3.1): allowed in every state; its run history goes with it (cascade).
 * Throws `404 schedule_not_found`.
 */
export async function deleteSchedule(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string }; scheduleRef: string }): Promise<void> {
  const { db, actor, revision } = opts;
  await inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const row = await getScheduleRow(tx, revision.id, opts.scheduleRef);
    await tx.schedule.delete({ where: { id: row.id } });
  });
}
