import { blobRole, readableBy, type Actor } from '../../auth';
import type { Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';

/** A scheduler blob as the web app lists it. `revisionId` is its one managed revision. */
export interface SchedulerSummary {
  blobId: string;
  alias: string | null;
  name: string;
  org: { id: string; alias: string | null; name: string };
  revisionId: string;
  scheduleCount: number;
  activeCount: number;
}

/** Every scheduler blob `actor` can read (scoped in the query), with schedule counts, ordered by org then name. */
export async function listSchedulers(db: Db, actor: Actor): Promise<SchedulerSummary[]> {
  const blobs = await db.blob.findMany({
    where: { AND: [{ type: 'scheduler' }, readableBy(actor)] },
    include: { org: true },
    orderBy: [{ org: { name: 'asc' } }, { name: 'asc' }],
  });
  const out: SchedulerSummary[] = [];
  for (const b of blobs) {
    if (!b.defaultRevisionId) continue;
    const [scheduleCount, activeCount] = await Promise.all([
      db.schedule.count({ where: { revisionId: b.defaultRevisionId } }),
      db.schedule.count({ where: { revisionId: b.defaultRevisionId, state: 'active' } }),
    ]);
    out.push({
      blobId: b.id,
      alias: b.alias,
      name: b.name,
      org: { id: b.org.id, alias: b.org.alias, name: b.org.name },
      revisionId: b.defaultRevisionId,
      scheduleCount,
      activeCount,
    });
  }
  return out;
}

/**
 * The scheduler whose managed revision is `revisionId`, readable by `actor`. Throws `404 not_found`
 * for a missing or unreadable one (SPEC §2 non-disclosure), found by one scoped statement that does
 * the same work for both (docs/decisions.md 163).
 */
export async function getSchedulerByRevision(db: Db, actor: Actor, revisionId: string): Promise<SchedulerSummary & { role: 'read' | 'write' | 'admin'; metricsPerSchedule: boolean }> {
  const id = normalizeRef(revisionId);
  // Scoped in the query (STYLE §2.2): another org's scheduler is not found by the very statement that
  // misses a made-up id, so the two refusals take the same time.
  const rev = isIdShape(id)
    ? await db.revision.findFirst({ where: { id, blob: { AND: [{ type: 'scheduler' }, readableBy(actor)] } }, include: { blob: { include: { org: true } } } })
    : null;
  // The page shows what the role allows, so the role's value is loaded (blobRole) once it is readable.
  const role = rev ? await blobRole(db, actor, rev.blobId) : null;
  if (!rev || !role) throw new DomainError('not_found', 'revision not found');
  const [scheduleCount, activeCount] = await Promise.all([
    db.schedule.count({ where: { revisionId: rev.id } }),
    db.schedule.count({ where: { revisionId: rev.id, state: 'active' } }),
  ]);
  return {
    blobId: rev.blobId,
    alias: rev.blob.alias,
    name: rev.blob.name,
    org: { id: rev.blob.org.id, alias: rev.blob.org.alias, name: rev.blob.org.name },
    revisionId: rev.id,
    scheduleCount,
    activeCount,
    role,
    metricsPerSchedule: rev.blob.metricsPerSchedule,
  };
}
