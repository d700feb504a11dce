import { inTransaction, type Db } from '../../db';
import { type Actor, blobRole, readableBy, roleAtLeast } from '../../auth';
import { DomainError } from '../../errors';

export interface DeleteBlobOptions {
  actor: Actor;
  /** The blob's id. */
  blobId: string;
}

/**
 * Delete a blob and everything in it (SPEC §1): its revisions with their sessions, definitions and
 * executions (a workflow blob), or its schedules with their run history (a scheduler blob), and its
 * grants. Schedules elsewhere that aim at a deleted workflow blob are kept: their fires record
 * `target_not_found` (following), `session_not_found` (pinned) or `workflow_not_found` (SPEC §8.1);
 * `blobDeleteImpact` in lib/schedules names them beforehand. Needs `admin` on the blob (docs/decisions.md).
 * @throws `404 not_found` (missing or unreadable, SPEC §2), `403 forbidden` (readable, not admin).
 */
export async function deleteBlob(db: Db, opts: DeleteBlobOptions): Promise<{ type: string; name: string }> {
  return inTransaction(db, async (tx) => {
    // Scoped in the query: another org's blob and a made-up id are missed alike, in like time (decisions 163).
    const blob = await tx.blob.findFirst({ where: { AND: [{ id: opts.blobId }, readableBy(opts.actor)] }, select: { id: true, type: true, name: true } });
    const role = blob ? await blobRole(tx, opts.actor, blob.id) : null;
    if (!blob || !roleAtLeast(role, 'read')) throw new DomainError('not_found', 'blob not found');
    if (!roleAtLeast(role, 'admin')) throw new DomainError('forbidden', 'deleting a blob needs admin access to it');
    // Revisions, definitions, sessions, executions, schedules, runs and grants go with it (ON DELETE CASCADE).
    await tx.blob.delete({ where: { id: blob.id } });
    return { type: blob.type, name: blob.name };
  });
}
