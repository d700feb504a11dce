import type { Actor } from '../../auth';
import { inTransaction, type Db } from '../../db';
import { recordActivity } from '../activity';
import { requireSchedulerAdmin } from '../access';

/**
 * `set_metrics_per_schedule` (SPEC §16.3): the scheduler's opt-in to the per-schedule series of
 * GET /metrics (`scheduler_schedule_*{scheduler, schedule}`), which name its schedules to whoever
 * scrapes. Needs `admin` on the scheduler (`403 forbidden`; `404 not_found` without read access).
 * Recorded in the activity log (`metrics_per_schedule`, details `{fields: ["metrics_per_schedule"]}`)
 * when it changes. Returns the setting now held.
 */
export async function setMetricsPerSchedule(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string }; enabled: boolean; now: Date }): Promise<{ metrics_per_schedule: boolean }> {
  const { db, actor, revision, enabled, now } = opts;
  return inTransaction(db, async (tx) => {
    // The same standing as the signing secret's: an admin, or through the API a write key of one.
    await requireSchedulerAdmin(tx, actor, revision.blobId, 'turning the per-schedule series of /metrics on or off');
    const { count } = await tx.blob.updateMany({ where: { id: revision.blobId, metricsPerSchedule: !enabled }, data: { metricsPerSchedule: enabled } });
    if (count > 0) await recordActivity(tx, { revisionId: revision.id, action: 'metrics_per_schedule', by: actor, at: now, fields: ['metrics_per_schedule'] });
    return { metrics_per_schedule: enabled };
  });
}
