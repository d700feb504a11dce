/**
 * What the schedule form's payload preview names the schedule with (SPEC §13.4): the identity its
 * fires would use, from the process's engine (with its facades), so the preview's
 * `<aws.scheduler.schedule-arn>` is the one the worker substitutes.
 */
import type { Db } from '../../db';
import type { Engine } from '../../engine';
import type { ContextPreviewFacts } from '../contract';

/**
 * The preview facts of a schedule of scheduler revision `revisionId`: of schedule `scheduleId` (edit),
 * or of a new one (create). Reads only; the caller has checked the actor may read the scheduler.
 * `engine`: the process's (`runtime().engine`), whose facades know a stored identity.
 */
export async function contextPreviewFacts(db: Db, engine: Engine, opts: { revisionId: string; scheduleId?: string }): Promise<ContextPreviewFacts> {
  const row = opts.scheduleId ? await db.schedule.findUnique({ where: { id: opts.scheduleId }, select: { facadeData: true } }) : null;
  const facadeData = row?.facadeData ?? null;
  const stored = engine.deps.facade.storedIdentity(facadeData);
  if (stored) return { scheduleArn: stored.scheduleArn, arnPrefix: null, scheduleId: opts.scheduleId ?? null };
  // The name is left empty: the form appends the alias being typed (else the id). The facade data
  // goes along: a schedule saved on a facade in another region than the worker's is named there.
  const identity = await engine.identityOf(db, { scheduleId: '', revisionId: opts.revisionId, name: '', facadeData });
  return { scheduleArn: null, arnPrefix: identity.scheduleArn, scheduleId: opts.scheduleId ?? null };
}
