import { hasBlobAccess, type Actor, type Role } from '../auth';
import type { Tx } from '../db';
import { DomainError } from '../errors';

/**
 * SPEC §2: scheduler reads need `read` on the scheduler blob, writes need `write`. A caller who
 * cannot read gets the same `404 not_found` as a missing revision; a reader asking to write gets 403.
 * Each check is one scoped query (`hasBlobAccess`); a refused write asks once more to tell 403 from 404.
 */
export async function requireSchedulerRole(db: Tx, actor: Actor, blobId: string, needed: Role): Promise<void> {
  if (await hasBlobAccess(db, actor, blobId, needed)) return;
  if (needed === 'read' || !(await hasBlobAccess(db, actor, blobId, 'read'))) throw new DomainError('not_found', 'revision not found');
  throw new DomainError('forbidden', `this needs ${needed} access to the scheduler`);
}
