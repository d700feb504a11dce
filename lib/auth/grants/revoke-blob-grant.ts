import type { Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import { blobRole } from '../access';
import type { Actor } from '../actor';
import { requireBrowserUser } from '../org-admin';
import { roleAtLeast } from '../roles';

/**
 * Revoke blob grant `grantId`. Takes effect at once on every path: the next fire of a schedule whose
 * creator's standing came from this grant records `access_denied` (SPEC §2, §8.1). Needs `admin` on
 * the grant's blob.
 * @throws `404 not_found` ("grant not found") for a grant that does not exist or whose blob the caller
 *   does not administer (one answer for both).
 */
export async function revokeBlobGrant(db: Db, opts: { actor: Actor; grantId: string }): Promise<void> {
  requireBrowserUser(opts.actor);
  await db.$transaction(async (tx) => {
    const id = normalizeRef(opts.grantId);
    const grant = isIdShape(id) ? await tx.blobGrant.findUnique({ where: { id }, select: { id: true, blobId: true } }) : null;
    if (!grant || !roleAtLeast(await blobRole(tx, opts.actor, grant.blobId), 'admin')) {
      throw new DomainError('not_found', 'grant not found');
    }
    await tx.blobGrant.delete({ where: { id: grant.id } });
  });
}
