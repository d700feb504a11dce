import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import { requireBrowserUser, requireOrgRole } from '../org-admin';
import { requireAnotherAdmin } from './last-admin';

/**
 * Remove user `userId` from the org. The user keeps its account, blob grants and personal keys, but
 * loses the org role at once on every path; schedules it created keep existing and their fires are
 * refused with `access_denied` where its remaining standing does not reach (SPEC §8.1).
 * Needs `admin` on the org.
 * @throws `404 not_found` (org, or "member not found"), `403 forbidden`, `409 last_admin`.
 */
export async function removeOrgMember(db: Db, opts: { actor: Actor; org: string; userId: string }): Promise<void> {
  requireBrowserUser(opts.actor);
  await inTransaction(db, async (tx) => {
    const org = await requireOrgRole(tx, opts.actor, opts.org, 'admin');
    const userId = normalizeRef(opts.userId);
    const member = isIdShape(userId) ? await tx.membership.findUnique({ where: { userId_orgId: { userId, orgId: org.id } } }) : null;
    if (!member) throw new DomainError('not_found', 'member not found');
    if (member.role === 'admin') await requireAnotherAdmin(tx, org.id, member.userId);
    await tx.membership.delete({ where: { id: member.id } });
  });
}
