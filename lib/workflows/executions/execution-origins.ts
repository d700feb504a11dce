import type { Tx } from '../../db';
import { type Actor, blobRole, roleAtLeast } from '../../auth';

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
export async function executionOrigins(db: Tx, opts: ExecutionOriginsOptions): Promise<Map<string, ExecutionOrigin>> {
  const ids = [...new Set(opts.scheduleIds)];
  const out = new Map<string, ExecutionOrigin>();
  if (ids.length === 0) return out;
  const rows = await db.schedule.findMany({
    where: { id: { in: ids } },
    select: { id: true, alias: true, revisionId: true, revision: { select: { blobId: true } } },
  });
  const readable = new Map<string, boolean>();
  for (const r of rows) {
    const blobId = r.revision.blobId;
    if (!readable.has(blobId)) readable.set(blobId, roleAtLeast(await blobRole(db, opts.actor, blobId), 'read'));
    if (!readable.get(blobId)) continue;
    out.set(r.id, { revisionId: r.revisionId, ...(r.alias != null ? { alias: r.alias } : {}) });
  }
  return out;
}
