import type { Tx } from '../../db';
import type { Actor } from '../actor';
import { requireBrowserUser, requireOrgRole } from '../org-admin';
import { isRole, type Role } from '../roles';

export interface OrgInvitation {
  id: string;
  email: string;
  /** The org role it gives, or null when it carries blob grants only. */
  role: Role | null;
  /** How many of the org's blob grants it carries (held for the email until it is accepted). */
  grants: number;
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
  const pending = await db.blobGrant.groupBy({
    by: ['granteeId'],
    where: { granteeType: 'email', granteeId: { in: rows.map((r) => r.email) }, blob: { orgId: org.id } },
    _count: { _all: true },
  });
  const carried = new Map(pending.map((p) => [p.granteeId, p._count._all]));
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    role: r.role !== null && isRole(r.role) ? r.role : null,
    grants: carried.get(r.email) ?? 0,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    expired: r.expiresAt.getTime() <= opts.now.getTime(),
  }));
}
