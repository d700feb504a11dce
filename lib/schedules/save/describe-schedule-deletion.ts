import type { Actor } from '../../auth';
import type { Db } from '../../db';
import { requireSchedulerRole } from '../access';
import { getScheduleRow } from '../read/find-schedule';

/** What `delete_schedule` takes with a schedule, for its confirmation (SPEC §3.1: its history goes with it). */
export interface ScheduleDeletion {
  /** Its run records (SPEC §8.1), every trigger, within retention. */
  runs: number;
  /** The workflow executions its fires created: kept (they belong to the catalog). */
  executions: number;
}

/**
 * What deleting schedule `scheduleRef` (id or alias) of the scheduler would take with it. Read-only;
 * needs `read` on the scheduler. Throws `404 not_found` / `404 schedule_not_found`.
 */
export async function describeScheduleDeletion(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string }; scheduleRef: string }): Promise<ScheduleDeletion> {
  const { db, actor, revision } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const row = await getScheduleRow(db, revision.id, opts.scheduleRef);
  const [runs, executions] = await Promise.all([db.run.count({ where: { scheduleId: row.id } }), db.execution.count({ where: { scheduleId: row.id } })]);
  return { runs, executions };
}

/** What deleting a scheduler blob takes with it: its schedules and their runs. */
export interface SchedulerDeletion {
  schedules: number;
  runs: number;
}

/** What deleting the scheduler of managed revision `revision` takes with it. Read-only; needs `read` on it. */
export async function describeSchedulerDeletion(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string } }): Promise<SchedulerDeletion> {
  const { db, actor, revision } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const [schedules, runs] = await Promise.all([db.schedule.count({ where: { revisionId: revision.id } }), db.run.count({ where: { schedule: { revisionId: revision.id } } })]);
  return { schedules, runs };
}
