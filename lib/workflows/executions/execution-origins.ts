import type { Db } from '../../db';
import { type Actor, readableBy } from '../../auth';

export interface ExecutionOriginsOptions {
  actor: Actor;
  /** The `schedule_id`s carried by executions (SPEC §3.2 `list_workflow_executions`); duplicates are fine. */
  scheduleIds: string[];
}

/** Where a fired execution came from: the schedule's scheduler (managed) revision and its alias. */
export interface ExecutionOrigin {
  /** The scheduler blob's managed revision id (the `/schedulers/<revisionId>` page). */
  revisionId: string;
  alias?: string;
}

/**
 * For the catalog pages: schedule id → its scheduler revision id (and alias), so an execution created by
 * a fire (SPEC §8) can link to the schedule's page. Schedules that no longer exist, or whose scheduler
 * the actor cannot read, are left out of the map (SPEC §2: refusal looks like absence). Never throws
 * for an unknown id.
 */
export async function executionOrigins(db: Db, opts: ExecutionOriginsOptions): Promise<Map<string, ExecutionOrigin>> {
  const ids = [...new Set(opts.scheduleIds)];
  const out = new Map<string, ExecutionOrigin>();
  if (ids.length === 0) return out;
  // Scoped in the query: schedules of schedulers the actor cannot read are not found.
  const rows = await db.schedule.findMany({
    where: { id: { in: ids }, revision: { blob: readableBy(opts.actor) } },
    select: { id: true, alias: true, revisionId: true },
  });
  for (const r of rows) out.set(r.id, { revisionId: r.revisionId, ...(r.alias != null ? { alias: r.alias } : {}) });
  return out;
}
