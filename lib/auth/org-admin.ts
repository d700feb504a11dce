/**
 * Org lookups for the account screens, with the caller's standing decided by `orgRole` (access.ts).
 * An org the caller holds no role on answers exactly as one that does not exist (SPEC §2).
 */
import type { Prisma, Tx } from '../db';
import { DomainError } from '../errors';
import { isIdShape, normalizeRef } from '../ids';
import { orgRole } from './access';
import type { Actor } from './actor';
import { roleAtLeast, type Role } from './roles';

export interface OrgRef {
  id: string;
  alias: string | null;
  name: string;
}

/** The org named by id or alias (trimmed, lowercased), or null. No access check. */
export async function findOrg(db: Tx, ref: string): Promise<OrgRef | null> {
  const key = normalizeRef(ref);
  if (!key) return null;
  const select = { id: true, alias: true, name: true } as const;
  return isIdShape(key) ? db.org.findUnique({ where: { id: key }, select }) : db.org.findUnique({ where: { alias: key }, select });
}

/** The one answer for an org that is missing or invisible to the caller. */
export const orgNotFound = () => new DomainError('not_found', 'org not found');

/**
 * The org `ref` names (id or alias) with the role `actor` holds on it (`orgRole`), or null when it
 * does not exist or the actor holds no role on it. Both are missed by the same one statement (the org
 * by its reference, among the orgs the actor belongs to), so they take the same time (docs/decisions.md 163).
 */
export async function findOrgWithRole(db: Tx, actor: Actor, ref: string): Promise<(OrgRef & { role: Role }) | null> {
  const key = normalizeRef(ref);
  const mine: Prisma.OrgWhereInput = actor.type === 'org' ? { id: actor.id } : { memberships: { some: { userId: actor.id } } };
  const org = key
    ? await db.org.findFirst({ where: { AND: [isIdShape(key) ? { id: key } : { alias: key }, mine] }, select: { id: true, alias: true, name: true } })
    : null;
  const role = org ? await orgRole(db, actor, org.id) : null;
  return org && role ? { ...org, role } : null;
}

/**
 * The org `ref` names, when `actor` holds at least `needed` on it.
 * @throws `404 not_found` ("org not found") when it does not exist or the actor holds no role on it;
 *   `403 forbidden` when the actor is a member below `needed`.
 */
export async function requireOrgRole(db: Tx, actor: Actor, ref: string, needed: Role): Promise<OrgRef & { role: Role }> {
  const org = await findOrgWithRole(db, actor, ref);
  if (!org) throw orgNotFound();
  const { role } = org;
  if (!roleAtLeast(role, needed)) throw new DomainError('forbidden', `this needs ${needed} on the org`);
  return { ...org, role };
}

/**
 * Account management (members, grants, keys) is done by a person in a browser: a user actor without
 * a key's role cap. An API key cannot mint or revoke keys or change members.
 * @throws `403 forbidden` otherwise.
 */
export function requireBrowserUser(actor: Actor): asserts actor is Actor & { type: 'user'; roleCap: null } {
  if (actor.type !== 'user' || actor.roleCap !== null) {
    throw new DomainError('forbidden', 'account management needs a browser login');
  }
}
