/**
 * Access as a query scope (SPEC §2, STYLE §2.2): Prisma `where` fragments that keep only the blobs an
 * actor holds a role on, so a query decides what a caller sees in its own WHERE clause and a blob the
 * caller cannot reach is simply not found. The standing is `blobRole`'s, written as a filter:
 *
 * - the actor's org role (a user's membership of the blob's org; an org actor holds `admin` on its
 *   own org's blobs), or a blob grant to the actor, at least `need`;
 * - capped by the API key's role (`roleCap`): a `read` key reaches no blob as `write`, whatever the
 *   memberships say.
 *
 * ```ts
 * const revision = await db.revision.findFirst({ where: { id, blob: readableBy(actor) } });
 * if (!revision) throw new DomainError('not_found', 'revision not found'); // missing and unreadable alike
 * const blobs = await db.blob.findMany({ where: { AND: [{ orgId }, readableBy(actor)] } });
 * ```
 *
 * Use a fragment as a relation filter (`blob: readableBy(actor)`) or inside `AND`; never spread it
 * into a `where` that has keys of its own (its `OR` or `id` would replace theirs).
 *
 * One SQL statement (EXISTS subqueries on `memberships` and `blob_grants`, both indexed by actor)
 * instead of loading the blob, the membership and the grants and comparing them. `blobRole` stays for
 * where the role's value itself is needed (a page that shows it).
 */
import type { Prisma } from '../db';
import type { Actor } from './actor';
import { ROLES, roleAtLeast, type Role } from './roles';

/** A filter no blob passes (Prisma's `in: []` is false on both dialects). */
const NO_BLOB: Prisma.BlobWhereInput = { id: { in: [] } };

/**
 * The roles (of an org membership or a blob grant) that give `actor` at least `need`: none when its
 * key's role caps it below `need`. Shared by `blobsWith` and the SQL scope of the API's hot reads
 * (lib/db/sql/blob-access.ts, `hasBlobAccess`, `getReadableRevision`).
 */
export function rolesGranting(actor: Actor, need: Role): Role[] {
  if (actor.roleCap && !roleAtLeast(actor.roleCap, need)) return [];
  return ROLES.filter((r) => roleAtLeast(r, need));
}

/** The blobs on which `actor` holds at least `need` (org role or a grant, capped by its key's role). */
export function blobsWith(actor: Actor, need: Role): Prisma.BlobWhereInput {
  const granting = rolesGranting(actor, need);
  if (granting.length === 0) return NO_BLOB;
  const roles = { in: granting };
  const granted: Prisma.BlobWhereInput = { grants: { some: { granteeType: actor.type, granteeId: actor.id, role: roles } } };
  // An org acts with `admin` on its own org's blobs (at least any `need`); a user with its membership role.
  const ofOrg: Prisma.BlobWhereInput =
    actor.type === 'org' ? { orgId: actor.id } : { org: { memberships: { some: { userId: actor.id, role: roles } } } };
  return { OR: [ofOrg, granted] };
}

/** The blobs `actor` may read (SPEC §2 `read`). */
export function readableBy(actor: Actor): Prisma.BlobWhereInput {
  return blobsWith(actor, 'read');
}

/** The blobs `actor` may write (SPEC §2 `write`). */
export function writableBy(actor: Actor): Prisma.BlobWhereInput {
  return blobsWith(actor, 'write');
}

/**
 * The orgs `actor` can see (SPEC §2): its own org (an org actor), an org it is a member of with at
 * least `read`, or an org holding a blob it may read. As a filter, an org the caller cannot see is not
 * found by the same one statement that finds a missing one, so the two answer alike and in like time
 * (no second query for the hidden case).
 */
export function orgsVisibleTo(actor: Actor): Prisma.OrgWhereInput {
  const roles = { in: ROLES.filter((r) => roleAtLeast(r, 'read')) };
  const own: Prisma.OrgWhereInput =
    actor.type === 'org'
      ? actor.roleCap && !roleAtLeast(actor.roleCap, 'read')
        ? { id: { in: [] } }
        : { id: actor.id }
      : { memberships: { some: { userId: actor.id, role: roles } } };
  return { OR: [own, { blobs: { some: readableBy(actor) } }] };
}
