import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import type { Actor } from '../actor';
import type { MemberRoleInput } from '../contract';
import { requireBrowserUser, requireOrgRole } from '../org-admin';
import { requireAnotherAdmin } from './last-admin';

/**
 * Change member `input.user_id`'s role on the org to `input.role`. Takes effect at once on every
 * path, fires included (SPEC §2, §8: a fire acts with its creator's standing at fire time).
 * Needs `admin` on the org.
 * @throws `404 not_found` (org, or a user who is not a member: "member not found"), `403 forbidden`,
 *   `409 last_admin` (demoting the only admin).
 */
export async function changeMemberRole(db: Db, opts: { actor: Actor; org: string; input: MemberRoleInput }): Promise<void> {
  requireBrowserUser(opts.actor);
  await inTransaction(db, async (tx) => {
    const org = await requireOrgRole(tx, opts.actor, opts.org, 'admin');
    const member = await tx.membership.findUnique({ where: { userId_orgId: { userId: opts.input.user_id, orgId: org.id } } });
    if (!member) throw new DomainError('not_found', 'member not found');
    if (member.role === 'admin' && opts.input.role !== 'admin') await requireAnotherAdmin(tx, org.id, member.userId);
    await tx.membership.update({ where: { id: member.id }, data: { role: opts.input.role } });
  });
}
