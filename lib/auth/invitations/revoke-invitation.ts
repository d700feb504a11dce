import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import { requireBrowserUser, requireOrgRole } from '../org-admin';

/**
 * Withdraw a pending invitation of org `org`: its link stops working at once. Needs `admin` on the org.
 * @throws `404 not_found` (org; or "invitation not found", also for another org's invitation), `403 forbidden`.
 */
export async function revokeInvitation(db: Db, opts: { actor: Actor; org: string; invitationId: string }): Promise<void> {
  requireBrowserUser(opts.actor);
  await inTransaction(db, async (tx) => {
    const org = await requireOrgRole(tx, opts.actor, opts.org, 'admin');
    const id = normalizeRef(opts.invitationId);
    const gone = isIdShape(id) ? await tx.invitation.deleteMany({ where: { id, orgId: org.id } }) : { count: 0 };
    if (gone.count === 0) throw new DomainError('not_found', 'invitation not found');
  });
}
