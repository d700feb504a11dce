import type { Actor } from '../../auth';
import { rawOneOf, type Db } from '../../db';
import { requireSchedulerRole } from '../access';
import { OPEN_OUTCOMES, type RunOutcomeState } from '../contract';

/** A schedule's run in progress, as its page says "in progress since …" (SPEC §16.3). */
export interface InProgress {
  run_id: string;
  /** `pending` (delivered, nothing heard) or `running` (`/start` came). */
  outcome: RunOutcomeState;
  /** The `/start` instant, else the delivery (ISO UTC). */
  since: string;
  /** When it becomes `timed_out` (ISO UTC), or null for a schedule without `completion`. */
  due_at: string | null;
}

/**
 * The oldest run of schedule `scheduleId` (in scheduler revision `revision.id`) whose outcome is still
 * open (`pending` or `running`, SPEC §16.1–16.2), or null when none is. Outcomes are only on delivered
 * runs, so one range of the runs(schedule_id, status, created_at, id) index is read. Needs `read` on
 * the scheduler (else `404 not_found`).
 */
export async function inProgressRun(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string }; scheduleId: string }): Promise<InProgress | null> {
  const { db, actor, revision, scheduleId } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const run = await db.run.findFirst({
    where: { scheduleId, schedule: { revisionId: revision.id }, status: 'success', outcome: { in: [...OPEN_OUTCOMES] } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
    select: { id: true, outcome: true, startedAt: true, createdAt: true, outcomeDueAt: true },
  });
  if (!run) return null;
  return {
    run_id: run.id,
    outcome: rawOneOf(OPEN_OUTCOMES, 'runs.outcome', run.outcome),
    since: (run.startedAt ?? run.createdAt).toISOString(),
    due_at: run.outcomeDueAt ? run.outcomeDueAt.toISOString() : null,
  };
}
