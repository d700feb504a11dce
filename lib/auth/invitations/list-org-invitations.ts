import type { Tx } from '../../db';
import type { Actor } from '../actor';
import { requireBrowserUser, requireOrgRole } from '../org-admin';
import { isRole, type Role } from '../roles';

export interface OrgInvitation {
  id: string;
  email: string;
  role: Role;
  createdAt: Date;
  expiresAt: Date;
  /** True once `expiresAt` has passed (the link no longer works; invite again for a new one). */
  expired: boolean;
}

/**
 * The invitations of org `org` not yet accepted or revoked, newest first. Only this org's: an email
 * another org invited is never listed here. Needs `admin` on the org.
 * @throws `404 not_found`, `403 forbidden` (see `requireOrgRole`).
 */
export async function listOrgInvitations(db: Tx, opts: { actor: Actor; org: string; now: Date }): Promise<OrgInvitation[]> {
  requireBrowserUser(opts.actor);
  const org = await requireOrgRole(db, opts.actor, opts.org, 'admin');
  const rows = await db.invitation.findMany({ where: { orgId: org.id }, orderBy: [{ createdAt: 'desc' }, { id: 'asc' }] });
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: isRole(r.role) ? r.role : 'read',
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    expired: r.expiresAt.getTime() <= opts.now.getTime(),
  }));
}
