import type { Actor } from '../auth';
import { inTransaction, type Db } from '../db';
import { requireSchedulerRole } from './access';
import { nextOccurrenceInWindow } from './occurrences';

/**
 * `set_all_enabled` (SPEC §3.1): pause or resume every active schedule of a scheduler. Resuming
 * fires from the next occurrence after `now` (no catch-up, SPEC §5.1). Returns how many changed.
 */
export async function setAllEnabled(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string }; enabled: boolean; now: Date }): Promise<{ updated: number }> {
  const { db, actor, revision, enabled, now } = opts;
  return inTransaction(db, async (tx) => {
    await requireSchedulerRole(tx, actor, revision.blobId, 'write');
    const rows = await tx.schedule.findMany({ where: { revisionId: revision.id, state: 'active', enabled: !enabled } });
    for (const row of rows) {
      const next = enabled ? nextOccurrenceInWindow({ ...row, repeat: row.repeat as 'one_time' | 'recurring_cron' }, now) : null;
      await tx.schedule.update({
        where: { id: row.id },
        // A resumed schedule with no occurrence left is completed (SPEC §5.3).
        data: { enabled, nextFireAt: next, ...(enabled && next === null ? { state: 'completed' } : {}), updatedAt: now },
      });
    }
    return { updated: rows.length };
  });
}
