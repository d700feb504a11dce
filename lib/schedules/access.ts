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

/**
 * A scheduler's admin settings — its signing secret (SPEC §13.1), its per-schedule series of
 * /metrics (§16.3) — need `admin` on the scheduler blob. API keys carry `read` or `write` only
 * (SPEC §2), so through the API the entity behind a `write` key must hold `admin` on the blob (an org
 * key's org does on its own blobs; docs/decisions.md). `what` names the setting in the refusal.
 * Refusals: `404 not_found` when the caller cannot read the scheduler (as for a missing one),
 * `403 forbidden` otherwise.
 */
export async function requireSchedulerAdmin(db: Tx, actor: Actor, blobId: string, what = 'managing the signing secret'): Promise<void> {
  if (!(await hasBlobAccess(db, actor, blobId, 'read'))) throw new DomainError('not_found', 'revision not found');
  // The entity's own standing decides (a key's cap is read or write, never admin); a read key never may.
  if (actor.roleCap === 'read' || !(await hasBlobAccess(db, { ...actor, roleCap: null }, blobId, 'admin'))) {
    throw new DomainError('forbidden', `${what} needs admin access to the scheduler (through the API: a write key of an admin)`);
  }
}
