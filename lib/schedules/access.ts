import { blobRole, roleAtLeast, type Actor, type Role } from '../auth';
import type { Tx } from '../db';
import { DomainError } from '../errors';

/**
 * SPEC §2: scheduler reads need `read` on the scheduler blob, writes need `write`. A caller who
 * cannot read gets the same `404 not_found` as a missing revision; a reader asking to write gets 403.
 */
export async function requireSchedulerRole(db: Tx, actor: Actor, blobId: string, needed: Role): Promise<void> {
  const role = await blobRole(db, actor, blobId);
  if (!roleAtLeast(role, 'read')) throw new DomainError('not_found', 'revision not found');
  if (!roleAtLeast(role, needed)) throw new DomainError('forbidden', `this needs ${needed} access to the scheduler`);
}
