/**
 * Schedule groups (SPEC §14): create (a new scheduler blob), get, list, delete (the blob with its
 * schedules), and their tags. Every verb runs `syncScheduleGroups` first, so the org's scheduler blobs
 * are all groups; a write makes the region's `default` when missing, a read answers it unmade
 * (decision 360: a read never writes).
 */
import type { Actor } from '../../../auth';
import { inTransaction, type Db } from '../../../db';
import { DomainError } from '../../../errors';
import type { AlsoInTransaction } from '../../../schedules';
import { aliasProblem } from '../../../ids';
import { deleteBlobCascade, insertSchedulerBlob, isUniqueViolation, refuseDefaultSchedulerDelete } from '../../../workflows';
import { readableGroupBlobIds, requireGroup, requireOrgWrite, unmadeDefaultGroup } from './group-access';
import { DEFAULT_GROUP, EVENTBRIDGE_NAME, GROUP_SELECT, GROUPS_PER_ORG, toGroupInfo, type GroupTag, type RegionScope, type ScheduleGroupInfo } from './group-info';
import { accountCreatedAt, syncScheduleGroups } from './sync-schedule-groups';

interface GroupOptions {
  db: Db;
  actor: Actor;
  /** The org (AWS account) the request acts in. */
  orgId: string;
  /** The request's region and the home region (SPEC §14): a verb sees only `scope.region`'s groups. */
  scope: RegionScope;
  now: Date;
  /** A write of the caller's that commits with the verb's or not at all (the ClientToken, lib/api/eventbridge/client-token.ts). */
  alsoInTransaction?: AlsoInTransaction;
}

const nameTaken = (name: string, cause?: unknown) => new DomainError('name_taken', `schedule group ${name} already exists`, { path: 'name', cause });

/**
 * Create group `name` with `tags`: a new scheduler blob (display name = the group name; alias = the
 * name when it fits the SPEC §4 grammar and is free in the org) and its group row.
 * @throws `400 invalid_request_body` (name grammar), `409 name_taken`, `409 group_limit_reached`,
 *   `403 forbidden` (no write on the org).
 */
export async function createScheduleGroup(opts: GroupOptions & { name: string; tags: GroupTag[] }): Promise<ScheduleGroupInfo> {
  const { db, actor, orgId, name, now } = opts;
  if (!EVENTBRIDGE_NAME.test(name)) throw new DomainError('invalid_request_body', 'a schedule group name is 1 to 64 characters from 0-9, a-z, A-Z, "-", "_" and "."', { path: 'name' });
  await syncScheduleGroups(db, orgId, opts.scope, now, { makeDefaultFor: actor });
  try {
    return await inTransaction(db, async (tx) => {
      await requireOrgWrite(tx, actor, orgId);
      const { region } = opts.scope;
      if (await tx.scheduleGroup.findUnique({ where: { orgId_region_name: { orgId, region, name } } })) throw nameTaken(name);
      const count = await tx.scheduleGroup.count({ where: { orgId, region } });
      if (count >= GROUPS_PER_ORG) throw new DomainError('group_limit_reached', `this account already holds ${count} schedule groups in ${region}, the most allowed`);
      const aliasFree = !aliasProblem(name) && !(await tx.blob.findUnique({ where: { orgId_alias: { orgId, alias: name } } }));
      const blob = await insertSchedulerBlob(tx, { actor, org: orgId, ...(aliasFree ? { alias: name } : {}), name, now });
      const row = await tx.scheduleGroup.create({ data: { blobId: blob.id, orgId, region, name, tags: dedupe(opts.tags), createdAt: now, updatedAt: now }, select: GROUP_SELECT });
      await opts.alsoInTransaction?.(tx);
      return toGroupInfo(row);
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw nameTaken(name, e);
    throw e;
  }
}

/**
 * Group `name`, with `needed` (default `read`) on it. `write` on `default` (a schedule is about to be
 * created in it) makes the region's `default` first when missing; `read`, or a write to another group,
 * answers it unmade (decision 360).
 * @throws `404 not_found` (missing or unreadable), `403 forbidden` (readable, less than `needed`).
 */
export async function getScheduleGroup(opts: GroupOptions & { name: string; needed?: 'read' | 'write' }): Promise<ScheduleGroupInfo> {
  const needed = opts.needed ?? 'read';
  await syncScheduleGroups(opts.db, opts.orgId, opts.scope, opts.now, needed === 'write' && opts.name === DEFAULT_GROUP ? { makeDefaultFor: opts.actor } : {});
  return requireGroup(opts.db, opts.actor, opts.orgId, opts.scope.region, opts.name, needed);
}

/**
 * The org's groups `actor` can read, by name (byte order), `namePrefix` (case-sensitive) applied,
 * after the exclusive cursor `afterName`, at most `pageSize` (1–100). `nextName` is the cursor of the
 * next page, or null on the last one. Complete and free of duplicates under concurrent changes: the
 * cursor is the last name returned, and names are unique in the org.
 */
export async function listScheduleGroups(
  opts: GroupOptions & { namePrefix?: string; afterName?: string | null; pageSize: number },
): Promise<{ groups: ScheduleGroupInfo[]; nextName: string | null }> {
  const { db, actor, orgId } = opts;
  await syncScheduleGroups(db, orgId, opts.scope, opts.now);
  const readable = await readableGroupBlobIds(db, actor, orgId);
  const { region } = opts.scope;
  const rows = (
    await db.scheduleGroup.findMany({
      where: {
        orgId,
        region,
        ...(readable === 'all' ? {} : { blobId: { in: readable } }),
        ...(opts.namePrefix ? { name: { startsWith: opts.namePrefix } } : {}),
      },
      select: GROUP_SELECT,
    })
  ).map(toGroupInfo);
  // The region's `default` not made yet is listed as it will be, to whoever reads the org (decision 360).
  if (readable === 'all' && !rows.some((g) => g.name === DEFAULT_GROUP) && !(await db.scheduleGroup.findUnique({ where: { orgId_region_name: { orgId, region, name: DEFAULT_GROUP } } }))) {
    rows.push(unmadeDefaultGroup(orgId, region, await accountCreatedAt(db, orgId)));
  }
  // Sorted and cut here: byte order and a case-sensitive prefix on both dialects (SQLite's LIKE,
  // behind startsWith, ignores ASCII case). A group count is bounded by GROUPS_PER_ORG.
  const sorted = rows
    .filter((r) => (opts.namePrefix ? r.name.startsWith(opts.namePrefix) : true))
    .filter((r) => (opts.afterName ? r.name > opts.afterName : true))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const page = sorted.slice(0, opts.pageSize);
  return { groups: page, nextName: sorted.length > opts.pageSize ? page[page.length - 1].name : null };
}

/**
 * Delete group `name` with every schedule in it and their history (SPEC §14): its scheduler blob
 * goes, with its revision, schedules, runs and grants. `default` is never deleted. Executions the
 * schedules created stay in their workflow blobs.
 * @throws `404 not_found`, `400 default_scheduler_protected`, `403 forbidden` (no write on the org or the group).
 */
export async function deleteScheduleGroup(opts: GroupOptions & { name: string }): Promise<void> {
  const { db, actor, orgId, name } = opts;
  await syncScheduleGroups(db, orgId, opts.scope, opts.now, { makeDefaultFor: actor });
  await inTransaction(db, async (tx) => {
    const group = await requireGroup(tx, actor, orgId, opts.scope.region, name, 'write');
    await refuseDefaultSchedulerDelete(tx, group.blobId);
    await requireOrgWrite(tx, actor, orgId);
    await deleteBlobCascade(tx, group.blobId, opts.now);
    await opts.alsoInTransaction?.(tx);
  });
}

/** Set `tags` on group `name` (a key already there takes the new value). @throws `404 not_found`, `403 forbidden`. */
export async function tagScheduleGroup(opts: GroupOptions & { name: string; tags: GroupTag[] }): Promise<ScheduleGroupInfo> {
  return changeTags(opts, (current) => {
    const next = [...current];
    for (const t of dedupe(opts.tags)) {
      const i = next.findIndex((c) => c.key === t.key);
      if (i >= 0) next[i] = t;
      else next.push(t);
    }
    return next;
  });
}

/** Remove the tags with `keys` from group `name` (absent keys are ignored). @throws `404 not_found`, `403 forbidden`. */
export async function untagScheduleGroup(opts: GroupOptions & { name: string; keys: string[] }): Promise<ScheduleGroupInfo> {
  const drop = new Set(opts.keys);
  return changeTags(opts, (current) => current.filter((t) => !drop.has(t.key)));
}

async function changeTags(opts: GroupOptions & { name: string }, change: (current: GroupTag[]) => GroupTag[]): Promise<ScheduleGroupInfo> {
  const { db, actor, orgId, name, now } = opts;
  await syncScheduleGroups(db, orgId, opts.scope, now, { makeDefaultFor: actor });
  return inTransaction(db, async (tx) => {
    const group = await requireGroup(tx, actor, orgId, opts.scope.region, name, 'write');
    const row = await tx.scheduleGroup.update({ where: { blobId: group.blobId }, data: { tags: change(group.tags), updatedAt: now }, select: GROUP_SELECT });
    return toGroupInfo(row);
  });
}

/** The last value of each key, in the order keys first appear. */
function dedupe(tags: GroupTag[]): GroupTag[] {
  const out = new Map<string, string>();
  for (const t of tags) out.set(t.key, t.value);
  return [...out].map(([key, value]) => ({ key, value }));
}
