import { blobRole, orgRole, roleAtLeast, type Actor, type Role } from '../../../auth';
import type { Tx } from '../../../db';
import { DomainError } from '../../../errors';
import { DEFAULT_GROUP, GROUP_SELECT, toGroupInfo, type ScheduleGroupInfo } from './group-info';
import { accountCreatedAt } from './sync-schedule-groups';

/** The one answer for a group that is missing or that the caller cannot read (SPEC §2). */
export const groupNotFound = (name: string) => new DomainError('not_found', `schedule group ${name} does not exist`, { path: 'group' });

/**
 * The group `name` of org `orgId` in `region`, when `actor` holds at least `needed` on its scheduler
 * blob. A group of another region is missing here (SPEC §14: regions are isolated). A region's
 * `default` not made yet is answered as it will be (`unmadeDefaultGroup`), to whoever reads the org:
 * AWS's `default` always exists, and a read never makes it (decision 360).
 * @throws `404 not_found` when it is missing or unreadable (the same answer); `403 forbidden` when
 *   the actor can read it but holds less than `needed`.
 */
export async function requireGroup(db: Tx, actor: Actor, orgId: string, region: string, name: string, needed: Role): Promise<ScheduleGroupInfo> {
  const row = await db.scheduleGroup.findUnique({ where: { orgId_region_name: { orgId, region, name } }, select: GROUP_SELECT });
  if (!row && name === DEFAULT_GROUP) {
    const role = await orgRole(db, actor, orgId);
    if (!roleAtLeast(role, 'read')) throw groupNotFound(name);
    if (!roleAtLeast(role, needed)) throw new DomainError('forbidden', `this needs ${needed} access to the schedule group ${name}`);
    return unmadeDefaultGroup(orgId, region, await accountCreatedAt(db, orgId));
  }
  const role = row ? await blobRole(db, actor, row.blobId) : null;
  if (!row || !roleAtLeast(role, 'read')) throw groupNotFound(name);
  if (!roleAtLeast(role, needed)) throw new DomainError('forbidden', `this needs ${needed} access to the schedule group ${name}`);
  return toGroupInfo(row);
}

/**
 * The ids of the scheduler blobs of `orgId` that `actor` can read: all of them with a role on the
 * org, else those granted to it (SPEC §2).
 */
export async function readableGroupBlobIds(db: Tx, actor: Actor, orgId: string): Promise<string[] | 'all'> {
  if (roleAtLeast(await orgRole(db, actor, orgId), 'read')) return 'all';
  const grants = await db.blobGrant.findMany({
    where: { granteeType: actor.type, granteeId: actor.id, blob: { orgId, type: 'scheduler' } },
    select: { blobId: true },
  });
  const ids: string[] = [];
  for (const g of grants) if (roleAtLeast(await blobRole(db, actor, g.blobId), 'read')) ids.push(g.blobId);
  return ids;
}

/** Creating and deleting groups needs `write` on the org (SPEC §14: a group is a scheduler blob). */
export async function requireOrgWrite(db: Tx, actor: Actor, orgId: string): Promise<void> {
  const role = await orgRole(db, actor, orgId);
  if (!roleAtLeast(role, 'write')) throw new DomainError('forbidden', 'creating or deleting a schedule group needs write on the org');
}

/**
 * Region `region`'s `default` before a write made it (decision 360): no blob and no revision yet
 * (`blobId` and `revisionId` are ''), so it holds no schedule; no tags; dated `since` (the org's
 * creation), as it will be once made. Readers see it; a write makes the real one first
 * (`syncScheduleGroups` with `makeDefaultFor`).
 */
export function unmadeDefaultGroup(orgId: string, region: string, since: Date): ScheduleGroupInfo {
  return { name: DEFAULT_GROUP, region, blobId: '', revisionId: '', orgId, createdAt: since, updatedAt: since, tags: [] };
}
