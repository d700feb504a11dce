import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import { requireBrowserUser, requireOrgRole } from '../org-admin';
import { dropPendingGrants } from './pending-grants';

/**
 * Withdraw a pending invitation of org `org`: its link stops working at once, and the org's blob grants
 * held for its email (which only the link could give) are dropped. Needs `admin` on the org.
 * @throws `404 not_found` (org; or "invitation not found", also for another org's invitation), `403 forbidden`.
 */
export async function revokeInvitation(db: Db, opts: { actor: Actor; org: string; invitationId: string }): Promise<void> {
  requireBrowserUser(opts.actor);
  await inTransaction(db, async (tx) => {
    const org = await requireOrgRole(tx, opts.actor, opts.org, 'admin');
    const id = normalizeRef(opts.invitationId);
    const row = isIdShape(id) ? await tx.invitation.findFirst({ where: { id, orgId: org.id }, select: { id: true, email: true } }) : null;
    if (!row) throw new DomainError('not_found', 'invitation not found');
    await tx.invitation.delete({ where: { id: row.id } });
    await dropPendingGrants(tx, org.id, row.email);
  });
}
