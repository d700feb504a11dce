/**
 * The one authorization function family (SPEC §2). Every path (API, pages, server actions, worker)
 * asks here; none re-implements a check. Refusal looks like absence: callers turn a `null` role into
 * the same not-found answer as a missing row.
 */
import { blobReachable, reachableBlobs, type Tx } from '../db';
import type { Actor } from './actor';
import { maxRole, minRole, ROLES, type Role, isRole } from './roles';
import { blobsWith, rolesGranting } from './scope';

/**
 * True when `actor` holds at least `need` on blob `blobId`; false when it does not, or when the blob
 * does not exist (SPEC §2: the two look alike). One statement: `blobsWith`'s rule written as SQL
 * (lib/db/sql/blob-access.ts, run on the driver: docs/decisions.md 385).
 */
export async function hasBlobAccess(db: Tx, actor: Actor, blobId: string, need: Role): Promise<boolean> {
  const roles = rolesGranting(actor, need);
  if (roles.length === 0) return false;
  return blobReachable(db, blobId, actor, roles);
}

/**
 * Which of `blobIds` `actor` holds at least `need` on: `hasBlobAccess` for many blobs in ONE scoped
 * statement (the same rule as SQL, lib/db/sql/blob-access.ts), for the fire path's set-based
 * resolution and a create's target check.
 */
export async function blobsWithAccess(db: Tx, actor: Actor, blobIds: string[], need: Role): Promise<Set<string>> {
  const roles = rolesGranting(actor, need);
  if (blobIds.length === 0 || roles.length === 0) return new Set();
  return reachableBlobs(db, blobIds, actor, roles);
}

/**
 * The role `actor` holds on blob `blobId` (org role + blob grants, capped by the key's role), or
 * null when it holds none (or the blob does not exist). An org actor holds `admin` on its own org's blobs.
 * For where the role's value is needed (to show it); to decide what a caller sees, scope the query
 * instead (`readableBy`/`writableBy`, scope.ts) or ask `hasBlobAccess`.
 */
export async function blobRole(db: Tx, actor: Actor, blobId: string): Promise<Role | null> {
  const blob = await db.blob.findUnique({ where: { id: blobId }, select: { orgId: true } });
  if (!blob) return null;
  let role: Role | null = null;
  if (actor.type === 'org') {
    if (actor.id === blob.orgId) role = 'admin';
  } else {
    const m = await db.membership.findUnique({
      where: { userId_orgId: { userId: actor.id, orgId: blob.orgId } },
      select: { role: true },
    });
    if (m && isRole(m.role)) role = m.role;
  }
  const grants = await db.blobGrant.findMany({
    where: { blobId, granteeType: actor.type, granteeId: actor.id },
    select: { role: true },
  });
  for (const g of grants) if (isRole(g.role)) role = maxRole(role, g.role);
  return actor.roleCap ? minRole(role, actor.roleCap) : role;
}

/**
 * The role `actor` holds on each of `blobIds` (what `blobRole` answers for each; a blob it holds no role
 * on, or that does not exist, is absent), in one scoped query per role: for lists that show the role.
 */
export async function blobRoles(db: Tx, actor: Actor, blobIds: string[]): Promise<Map<string, Role>> {
  const out = new Map<string, Role>();
  if (blobIds.length === 0) return out;
  // ROLES ascends (read < write < admin): a blob in a higher role's scope overwrites the lower one.
  for (const role of ROLES) {
    const rows = await db.blob.findMany({ where: { AND: [{ id: { in: blobIds } }, blobsWith(actor, role)] }, select: { id: true } });
    for (const r of rows) out.set(r.id, role);
  }
  return out;
}

/** The role `actor` holds on org `orgId` as a whole (membership, or the org itself). */
export async function orgRole(db: Tx, actor: Actor, orgId: string): Promise<Role | null> {
  let role: Role | null = null;
  if (actor.type === 'org') role = actor.id === orgId ? 'admin' : null;
  else {
    const m = await db.membership.findUnique({
      where: { userId_orgId: { userId: actor.id, orgId } },
      select: { role: true },
    });
    role = m && isRole(m.role) ? m.role : null;
  }
  return actor.roleCap ? minRole(role, actor.roleCap) : role;
}

/**
 * Ids of the orgs whose blobs `actor` may see at least partly: member orgs, its own org, and orgs
 * of blobs granted to it. Used to list what a caller can read.
 */
export async function visibleOrgIds(db: Tx, actor: Actor): Promise<string[]> {
  const ids = new Set<string>();
  if (actor.type === 'org') ids.add(actor.id);
  else {
    const ms = await db.membership.findMany({ where: { userId: actor.id }, select: { orgId: true } });
    for (const m of ms) ids.add(m.orgId);
  }
  const grants = await db.blobGrant.findMany({
    where: { granteeType: actor.type, granteeId: actor.id },
    select: { blob: { select: { orgId: true } } },
  });
  for (const g of grants) ids.add(g.blob.orgId);
  return [...ids];
}
