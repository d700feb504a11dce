/**
 * Who manages which access key pairs (SPEC §14, like API keys in SPEC §2; docs/decisions.md):
 * - in the browser, a user manages the pairs that act as themself (in any org they belong to), and an
 *   org admin manages every pair of the org;
 * - through the product API, a key manages only the pairs that act as its own entity (an org key: the
 *   org's pairs acting as the org; a personal key: its user's pairs), never with more than its own
 *   role: a `read` key lists, a `write` key also creates (`read` or `write` pairs) and revokes.
 * The scope is a `where` (STYLE §2.2): a pair outside it answers exactly as a missing one.
 */
import type { Tx } from '../../db';
import { DomainError } from '../../errors';
import type { Actor } from '../actor';
import type { KeyRole } from '../contract';
import { findOrgWithRole, orgNotFound, type OrgRef } from '../org-admin';
import { orgRole } from '../access';
import { roleAtLeast } from '../roles';

/** Which pairs: an org's (`org`: id or alias), or those acting as the caller (`mine`). */
export type AccessKeyListRef = { type: 'org'; org: string } | { type: 'mine' };

/** Who a new pair acts as: the org itself, or the caller as one of the org's users. */
export type AccessKeyOwnerRef = { type: 'org' | 'user'; org: string };

const fromBrowser = (actor: Actor) => actor.type === 'user' && actor.roleCap === null;

/** The org `ref` names when `actor` holds a role on it; otherwise the one not-found answer. */
async function visibleOrg(db: Tx, actor: Actor, ref: string): Promise<OrgRef & { role: NonNullable<Awaited<ReturnType<typeof orgRole>>> }> {
  const org = await findOrgWithRole(db, actor, ref);
  if (!org) throw orgNotFound();
  return org;
}

/** `where` of the pairs `actor` may list for `ref`. @throws `404 not_found`, `403 forbidden`. */
export async function listScope(db: Tx, actor: Actor, ref: AccessKeyListRef): Promise<{ orgId?: string; userId?: string | null }> {
  if (ref.type === 'mine') return actor.type === 'user' ? { userId: actor.id } : { orgId: actor.id, userId: null };
  const org = await visibleOrg(db, actor, ref.org);
  if (fromBrowser(actor)) {
    if (!roleAtLeast(org.role, 'admin')) throw new DomainError('forbidden', 'this needs admin on the org');
    return { orgId: org.id };
  }
  if (actor.type === 'org') return { orgId: org.id, userId: null };
  return { orgId: org.id, userId: actor.id };
}

/**
 * The `{orgId, userId}` a new pair of `owner` gets, after checking that `actor` may create it with `role`.
 * @throws `404 not_found` (org missing or invisible), `403 forbidden` (not an admin for an org pair in
 *   the browser; an API key asking for another entity's pair, with a `read` key, or above its role).
 */
export async function createScope(db: Tx, actor: Actor, owner: AccessKeyOwnerRef, role: KeyRole): Promise<{ orgId: string; userId: string | null }> {
  const org = await visibleOrg(db, actor, owner.org);
  if (actor.roleCap !== null) {
    if (actor.roleCap !== 'write') throw new DomainError('forbidden', 'creating an access key needs a key with write');
    if (!roleAtLeast(actor.roleCap, role)) throw new DomainError('forbidden', `a ${actor.roleCap} key cannot create a ${role} access key`);
  }
  if (owner.type === 'org') {
    if (actor.type === 'org') return { orgId: org.id, userId: null };
    if (!fromBrowser(actor) || !roleAtLeast(org.role, 'admin')) {
      throw new DomainError('forbidden', 'an access key acting as the org is created by an org admin in the browser, or by an org API key');
    }
    return { orgId: org.id, userId: null };
  }
  if (actor.type !== 'user') throw new DomainError('forbidden', 'an org API key creates access keys acting as the org');
  return { orgId: org.id, userId: actor.id };
}

/** `where` of every pair `actor` may revoke. @throws `403 forbidden` for a `read` key. */
export async function revokeScope(db: Tx, actor: Actor) {
  if (actor.roleCap !== null && actor.roleCap !== 'write') throw new DomainError('forbidden', 'revoking an access key needs a key with write');
  if (actor.type === 'org') return { orgId: actor.id, userId: null };
  if (!fromBrowser(actor)) return { userId: actor.id };
  const adminOf = await db.membership.findMany({ where: { userId: actor.id, role: 'admin' }, select: { orgId: true } });
  return { OR: [{ userId: actor.id }, { orgId: { in: adminOf.map((m) => m.orgId) } }] };
}
