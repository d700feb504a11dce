import type { Tx } from '../../db';
import type { Actor } from '../actor';
import { requireBrowserUser, requireOrgRole, type OrgRef } from '../org-admin';
import { isRole, type Role } from '../roles';

export interface OrgMember {
  userId: string;
  email: string;
  name: string;
  role: Role;
  /** When the membership was created. */
  since: Date;
}

/**
 * The members of org `org` (id or alias) with their roles, by email. Needs `admin` on the org.
 * @throws `404 not_found` (missing or invisible org), `403 forbidden` (member below admin, or not a browser login).
 */
export async function listOrgMembers(db: Tx, opts: { actor: Actor; org: string }): Promise<{ org: OrgRef; members: OrgMember[] }> {
  requireBrowserUser(opts.actor);
  const org = await requireOrgRole(db, opts.actor, opts.org, 'admin');
  const rows = await db.membership.findMany({
    where: { orgId: org.id },
    select: { role: true, createdAt: true, user: { select: { id: true, email: true, name: true } } },
    orderBy: { user: { email: 'asc' } },
  });
  return {
    org: { id: org.id, alias: org.alias, name: org.name },
    members: rows.map((m) => ({ userId: m.user.id, email: m.user.email, name: m.user.name, role: isRole(m.role) ? m.role : 'read', since: m.createdAt })),
  };
}
