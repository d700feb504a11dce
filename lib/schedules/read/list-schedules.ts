import { rolesGranting, type Actor } from '../../auth';
import { findScheduleIfReachable, findSchedules, type Db } from '../../db';
import { DomainError } from '../../errors';
import { idOfRef, isIdShape, normalizeRef } from '../../ids';
import { requireSchedulerRole } from '../access';
import type { Schedule, ScheduleState } from '../contract';
import { getScheduleRow } from './find-schedule';
import { toSchedule } from './serialize';

/** Page size of `list_schedules` (SPEC §3.1). */
export const SCHEDULES_PAGE_SIZE = 50;

export interface ListSchedulesOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  /** Exclusive cursor: the `last_schedule_id` of the previous page. */
  startScheduleId?: string | null;
  state?: ScheduleState;
  enabled?: boolean;
  pageSize?: number;
}

/**
 * `list_schedules` (SPEC §3.1): 50 a page, ordered by `created_at` then `id`. `last_schedule_id` is the
 * cursor for the next page, null on the last page. Throws `404 schedule_not_found` for an unknown cursor.
 */
export async function listSchedules(opts: ListSchedulesOptions): Promise<{ schedules: Schedule[]; last_schedule_id: string | null }> {
  const { db, actor, revision } = opts;
  const pageSize = opts.pageSize ?? SCHEDULES_PAGE_SIZE;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const after = opts.startScheduleId ? await cursorRow(db, revision.id, opts.startScheduleId) : null;
  // One statement on the driver through the row codec: a row it cannot read names itself (decision 425).
  const rows = await findSchedules(db, { revisionIds: [revision.id], state: opts.state, enabled: opts.enabled, after, limit: pageSize + 1 });
  const schedules = rows.slice(0, pageSize).map(toSchedule);
  return { schedules, last_schedule_id: rows.length > pageSize ? schedules[schedules.length - 1].id : null };
}

/**
 * The schedule `start_schedule_id` names (the previous page's last), or `404 schedule_not_found` on
 * `start_schedule_id` saying the cursor names no schedule of this scheduler (not an id, or deleted since).
 */
function cursorRow(db: Db, revisionId: string, startScheduleId: string) {
  return getScheduleRow(db, revisionId, startScheduleId, false, () =>
    new DomainError('schedule_not_found', 'start_schedule_id names no schedule of this scheduler: it is not a schedule id, or that schedule was deleted since the page that returned it; list again from the first page', { path: 'start_schedule_id' }),
  );
}

/**
 * `get_schedule` (SPEC §3.1): by id or alias. Throws `404 not_found` (no read access) or `404
 * schedule_not_found`. `directReadMissed`: `getScheduleIfReadable` already answered null for this
 * request (the router's direct read, decision 439), so its statement is not run again.
 */
export async function getSchedule(opts: { db: Db; actor: Actor; revision: { id: string; blobId: string }; scheduleRef: string; directReadMissed?: boolean }): Promise<Schedule> {
  const { db, actor, revision } = opts;
  // The answer in one statement (the access check inside it, docs/decisions.md 385)...
  const found = opts.directReadMissed ? null : await readableSchedule(db, actor, revision.id, opts.scheduleRef);
  if (found) return toSchedule(found);
  // ...and a refusal as always, in its order: no read access → 404 not_found, else 404 schedule_not_found.
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  return toSchedule(await getScheduleRow(db, revision.id, opts.scheduleRef));
}

/**
 * `get_schedule` before the router has resolved the revision (docs/decisions.md 439): the schedule
 * `scheduleRef` (id or alias) of revision `revisionId` (the path segment as sent) when both exist, the
 * revision is a scheduler's and `actor` may read it; else null, and the caller takes the command's
 * usual path, which gives each refusal in its order (SPEC §2, §3.1). At most one statement (none for
 * a revision id not of the id shape or an actor without a read role). Throws only `500` for a
 * schedule row the codec cannot read (decision 425), as `getSchedule` does.
 */
export async function getScheduleIfReadable(opts: { db: Db; actor: Actor; revisionId: string; scheduleRef: string }): Promise<Schedule | null> {
  const revisionId = idOfRef(opts.revisionId);
  if (revisionId === null) return null;
  const found = await readableSchedule(opts.db, opts.actor, revisionId, opts.scheduleRef);
  return found ? toSchedule(found) : null;
}

/** The schedule row `scheduleRef` of revision `revisionId` when `actor` may read it (one statement; none without a read role), else null. */
function readableSchedule(db: Db, actor: Actor, revisionId: string, scheduleRef: string) {
  const roles = rolesGranting(actor, 'read');
  const key = normalizeRef(scheduleRef);
  return roles.length > 0 ? findScheduleIfReachable(db, revisionId, key, isIdShape(key) ? 'id' : 'alias', actor, roles) : Promise.resolve(null);
}
