/**
 * Schedules addressed the EventBridge way (SPEC §14): by group and name, and listed across the
 * org's groups. Each answer carries what this facade stored beside the schedule (its facade data, the
 * `eventbridge` column) with its product shape, for the mapping to answer from.
 */
import type { Actor, Role } from '../../../auth';
import { findScheduleByKey, findSchedules, type Db } from '../../../db';
import { DomainError } from '../../../errors';
import { toSchedule, type Schedule } from '../../../schedules';
import { readableGroupBlobIds, requireGroup } from './group-access';
import { GROUP_SELECT, toGroupInfo, type RegionScope, type ScheduleGroupInfo } from './group-info';
import { syncScheduleGroups } from './sync-schedule-groups';

/** A schedule with its group and what the EventBridge API stored beside it. */
export interface GroupSchedule {
  schedule: Schedule;
  groupName: string;
  /** The `eventbridge` column: null for a schedule never saved through the EventBridge API. */
  eventbridge: unknown;
}

/** The keyset cursor of `listGroupSchedules`: the last schedule returned (created_at, then id). */
export interface ScheduleCursor {
  createdAt: Date;
  id: string;
}

const scheduleNotFound = (name: string) => new DomainError('schedule_not_found', `schedule ${name} does not exist`, { path: 'name' });

/**
 * Schedule `name` of group `groupName` of `scope.region` in org `orgId`, with `needed` on the group.
 * @throws `404 not_found` (group missing or unreadable, path `group`), `404 schedule_not_found`,
 *   `403 forbidden` (readable, but less than `needed`).
 */
export async function getGroupSchedule(opts: {
  db: Db;
  actor: Actor;
  orgId: string;
  scope: RegionScope;
  groupName: string;
  name: string;
  needed: Role;
  now: Date;
}): Promise<GroupSchedule & { group: ScheduleGroupInfo }> {
  const { db } = opts;
  await syncScheduleGroups(db, opts.orgId, opts.scope, opts.now);
  const group = await requireGroup(db, opts.actor, opts.orgId, opts.scope.region, opts.groupName, opts.needed);
  const row = await findScheduleByKey(db, group.revisionId, opts.name, 'name');
  if (!row) throw scheduleNotFound(opts.name);
  return { group, groupName: group.name, schedule: toSchedule(row), eventbridge: row.facadeData };
}

/**
 * The org's schedules in `scope.region` that `actor` can read (SPEC §14 ListSchedules), filters combined with AND: `groupName`
 * (exact; a missing or unreadable group is `404 not_found`), `namePrefix` (case-sensitive), `enabled`.
 * Ordered by `created_at` then `id`, after the exclusive keyset cursor `after`, at most `pageSize`.
 * `next` is the cursor of the next page, or null on the last. Keyset paging is complete and free of
 * duplicates: every schedule that exists throughout the paging is returned exactly once.
 */
export async function listGroupSchedules(opts: {
  db: Db;
  actor: Actor;
  orgId: string;
  scope: RegionScope;
  groupName?: string;
  namePrefix?: string;
  enabled?: boolean;
  after?: ScheduleCursor | null;
  pageSize: number;
  now: Date;
}): Promise<{ items: GroupSchedule[]; next: ScheduleCursor | null }> {
  const { db, actor, orgId, pageSize } = opts;
  await syncScheduleGroups(db, orgId, opts.scope, opts.now);
  const groups = opts.groupName
    ? [await requireGroup(db, actor, orgId, opts.scope.region, opts.groupName, 'read')]
    : await readableGroups(db, actor, orgId, opts.scope.region);
  const groupOf = new Map(groups.map((g) => [g.revisionId, g.name]));
  // One statement on the driver through the row codec (a row it cannot read names itself, decision
  // 425); the name prefix compares exactly (case-sensitive), as ListSchedules' NamePrefix does.
  const rows = await findSchedules(db, {
    revisionIds: [...groupOf.keys()],
    enabled: opts.enabled,
    namePrefix: opts.namePrefix,
    after: opts.after,
    limit: pageSize + 1,
  });
  const items = rows.slice(0, pageSize).map((row) => ({ schedule: toSchedule(row), groupName: groupOf.get(row.revisionId)!, eventbridge: row.facadeData }));
  const last = rows.length > pageSize ? rows[pageSize - 1] : null;
  return { items, next: last ? { createdAt: last.createdAt, id: last.id } : null };
}

async function readableGroups(db: Db, actor: Actor, orgId: string, region: string): Promise<ScheduleGroupInfo[]> {
  const readable = await readableGroupBlobIds(db, actor, orgId);
  const rows = await db.scheduleGroup.findMany({ where: { orgId, region, ...(readable === 'all' ? {} : { blobId: { in: readable } }) }, select: GROUP_SELECT });
  return rows.map(toGroupInfo);
}
