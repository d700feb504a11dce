import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import { requireBrowserUser } from '../org-admin';
import { blobsWith } from '../scope';

/**
 * Revoke blob grant `grantId`. Takes effect at once on every path: the next fire of a schedule whose
 * creator's standing came from this grant records `access_denied` (SPEC §2, §8.1). Needs `admin` on
 * the grant's blob. Revoking the last pending grant (by email) that a blob-grants-only invitation
 * carried withdraws that invitation too: its link would give nothing.
 * @throws `404 not_found` ("grant not found") for a grant that does not exist or whose blob the caller
 *   does not administer (one answer for both).
 */
export async function revokeBlobGrant(db: Db, opts: { actor: Actor; grantId: string }): Promise<void> {
  requireBrowserUser(opts.actor);
  await inTransaction(db, async (tx) => {
    const id = normalizeRef(opts.grantId);
    // Scoped in the query: only grants on blobs the actor administers are found.
    const grant = isIdShape(id)
      ? await tx.blobGrant.findFirst({ where: { id, blob: blobsWith(opts.actor, 'admin') }, select: { id: true, granteeType: true, granteeId: true, blob: { select: { orgId: true } } } })
      : null;
    if (!grant) throw new DomainError('not_found', 'grant not found');
    await tx.blobGrant.delete({ where: { id: grant.id } });
    if (grant.granteeType === 'email') {
      const { orgId } = grant.blob;
      const left = await tx.blobGrant.count({ where: { granteeType: 'email', granteeId: grant.granteeId, blob: { orgId } } });
      if (left === 0) await tx.invitation.deleteMany({ where: { orgId, email: grant.granteeId, role: null } });
    }
  });
}
