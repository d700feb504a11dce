import type { Tx } from '../../db';
import type { Actor } from '../actor';
import type { ApiKeyOwnerRef } from './api-key-info';
import { requireBrowserUser, requireOrgRole } from '../org-admin';

/**
 * The `where` that selects the keys `actor` manages for `owner` (STYLE §2.2: the scope lives in the
 * query). Org keys need `admin` on the org; personal keys are the caller's own.
 * @throws `404 not_found` (org missing or invisible), `403 forbidden` (not an org admin, or not a browser login).
 */
export async function ownerScope(db: Tx, actor: Actor, owner: ApiKeyOwnerRef): Promise<{ orgId: string; userId: null } | { userId: string; orgId: null }> {
  requireBrowserUser(actor);
  if (owner.type === 'user') return { userId: actor.id, orgId: null };
  const org = await requireOrgRole(db, actor, owner.org, 'admin');
  return { orgId: org.id, userId: null };
}

/**
 * Every key `actor` may revoke: its personal keys and the keys of the orgs it administers (through
 * its memberships, i.e. `orgRole` = admin for a browser user).
 */
export async function manageableKeysWhere(db: Tx, actor: Actor) {
  requireBrowserUser(actor);
  const adminOf = await db.membership.findMany({ where: { userId: actor.id, role: 'admin' }, select: { orgId: true } });
  return { OR: [{ userId: actor.id }, { orgId: { in: adminOf.map((m) => m.orgId) } }] };
}
