/**
 * The activity log (SPEC §15): who changed what in a scheduler, and when. Every change to a schedule
 * or a scheduler writes one entry in the change's own transaction (`recordActivity(tx, …)`), so an
 * entry exists exactly when its change does. `list_activity` pages the entries, newest first. The
 * retention sweep deletes them with the runs (retention-sweep.ts).
 */
import type { Actor } from '../auth';
import { insertActivity, type ActivityRowInsert, type Db, type Prisma, type Tx } from '../db';
import { DomainError } from '../errors';
import { isIdShape, newId, normalizeRef } from '../ids';
import { requireSchedulerRole } from './access';
import type { ActivityAction, ActivityActor, ActivityEntry } from './contract';
import { getScheduleRow } from './read/find-schedule';

/** Page size of `list_activity`. */
export const ACTIVITY_PAGE_SIZE = 20;

/** Who an entry names: an actor (user, org key, or an access key of either), or the system (the worker). */
export type ActivityBy = Actor | 'system';

/** One change to record. `at` is the change's instant (UTC), the same `now` its write used. */
export interface ActivityInput {
  /** The scheduler's managed revision. */
  revisionId: string;
  /** The schedule changed, with its name at the time; absent for a scheduler-wide change. */
  schedule?: { id: string; name: string | null; alias: string | null };
  action: ActivityAction;
  by: ActivityBy;
  at: Date;
  /** Changed field names (`update`, `enable`, `disable`). */
  fields?: string[];
  /** Schedules changed (`pause_all`, `resume_all`). */
  count?: number;
  executionId?: string;
  deadLetterId?: string;
  /** `backfill`, `cancel_backfill` (SPEC §18.1). */
  backfillId?: string;
}

function actorColumns(by: ActivityBy) {
  if (by === 'system') return { actorType: 'system', actorId: null, ownerType: null, ownerId: null };
  if (by.accessKeyId) return { actorType: 'access_key', actorId: by.accessKeyId, ownerType: by.type, ownerId: by.id };
  return { actorType: by.type, actorId: by.id, ownerType: null, ownerId: null };
}

function rowOf(entry: ActivityInput): ActivityRowInsert {
  const details = {
    ...(entry.fields ? { fields: entry.fields } : {}),
    ...(entry.count !== undefined ? { count: entry.count } : {}),
    ...(entry.executionId ? { execution_id: entry.executionId } : {}),
    ...(entry.deadLetterId ? { dead_letter_id: entry.deadLetterId } : {}),
    ...(entry.backfillId ? { backfill_id: entry.backfillId } : {}),
  };
  return {
    id: newId(),
    revisionId: entry.revisionId,
    scheduleId: entry.schedule?.id ?? null,
    scheduleLabel: entry.schedule ? (entry.schedule.name ?? entry.schedule.alias ?? entry.schedule.id) : null,
    action: entry.action,
    ...actorColumns(entry.by),
    details: Object.keys(details).length ? details : null,
    createdAt: entry.at,
  };
}

/** `rowOf`'s entry for Prisma's model API: no details is an absent field (SQL NULL). */
function modelRowOf({ details, ...row }: ActivityRowInsert): Prisma.ActivityEntryCreateManyInput {
  return { ...row, ...(details ? { details } : {}) };
}

/**
 * Record one change (SPEC §15). Call it inside the change's transaction, after its write: a refused
 * or rolled-back change then leaves no entry, and a committed one always has its entry.
 */
export async function recordActivity(tx: Tx, entry: ActivityInput): Promise<void> {
  // A typed statement on the transaction's driver connection, not a model query (docs/decisions.md 405).
  await insertActivity(tx, rowOf(entry));
}

/** Record several changes in one statement (the worker's automatic pauses of one batch). Same rule as `recordActivity`. */
export async function recordActivities(tx: Tx, entries: ActivityInput[]): Promise<void> {
  if (entries.length) await tx.activityEntry.createMany({ data: entries.map((e) => modelRowOf(rowOf(e))) });
}

/**
 * The worker's automatic pause (SPEC §12.5) of `schedules`, by `system`, at `now`: one `auto_pause`
 * entry each. For the fire path's transaction that disables them (lib/engine/settle.ts), which must also
 * increment their `version` (SPEC §15: the automatic pause is a change; a fire alone is not).
 */
export async function recordAutomaticPauses(tx: Tx, schedules: { id: string; revisionId: string; name: string | null; alias: string | null }[], now: Date): Promise<void> {
  await recordActivities(
    tx,
    schedules.map((s) => ({ revisionId: s.revisionId, schedule: s, action: 'auto_pause' as const, by: 'system' as const, fields: ['enabled'], at: now })),
  );
}

type ActivityRow = Awaited<ReturnType<Db['activityEntry']['findFirstOrThrow']>>;

function byOf(row: ActivityRow): ActivityActor {
  if (row.actorType === 'access_key') return { type: 'access_key', id: row.actorId ?? '', owner: { type: row.ownerType === 'org' ? 'org' : 'user', id: row.ownerId ?? '' } };
  if (row.actorType === 'user' || row.actorType === 'org') return { type: row.actorType, id: row.actorId ?? '' };
  return { type: 'system' };
}

/** An `activity` row → its wire shape (SPEC §15); absent details are omitted. */
export function toActivityEntry(row: ActivityRow): ActivityEntry {
  const d = (row.details ?? {}) as { fields?: string[]; count?: number; execution_id?: string; dead_letter_id?: string; backfill_id?: string };
  return {
    id: row.id,
    ...(row.scheduleId ? { schedule_id: row.scheduleId } : {}),
    ...(row.scheduleLabel ? { schedule_name: row.scheduleLabel } : {}),
    action: row.action as ActivityAction,
    by: byOf(row),
    at: row.createdAt.toISOString(),
    ...(d.fields ? { fields: d.fields } : {}),
    ...(d.count !== undefined ? { count: d.count } : {}),
    ...(d.execution_id ? { execution_id: d.execution_id } : {}),
    ...(d.dead_letter_id ? { dead_letter_id: d.dead_letter_id } : {}),
    ...(d.backfill_id ? { backfill_id: d.backfill_id } : {}),
  };
}

export interface ListActivityOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  /** One schedule's entries (id or alias of an existing schedule); absent: the whole scheduler's, deleted schedules' included. */
  scheduleRef?: string;
  /** Exclusive cursor: the `last_activity_id` of the previous page. */
  startActivityId?: string | null;
  /** Default ACTIVITY_PAGE_SIZE (the schedule page's panel shows fewer). */
  pageSize?: number;
}

/**
 * `list_activity` (SPEC §15): a scheduler's activity, or one schedule's, 20 a page, newest first (by
 * the change's instant, then id). Needs `read`. `last_activity_id` is null on the last page.
 * Throws `404 not_found` (scheduler), `404 schedule_not_found`, `400 invalid_request_body` (cursor).
 */
export async function listActivity(opts: ListActivityOptions): Promise<{ activity: ActivityEntry[]; last_activity_id: string | null }> {
  const { db, actor, revision } = opts;
  const size = opts.pageSize ?? ACTIVITY_PAGE_SIZE;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const scheduleId = opts.scheduleRef !== undefined ? (await getScheduleRow(db, revision.id, opts.scheduleRef)).id : undefined;
  const scope = { revisionId: revision.id, ...(scheduleId ? { scheduleId } : {}) };
  let cursor: { createdAt: Date; id: string } | null = null;
  if (opts.startActivityId) {
    const id = normalizeRef(opts.startActivityId);
    cursor = isIdShape(id) ? await db.activityEntry.findFirst({ where: { id, ...scope }, select: { createdAt: true, id: true } }) : null;
    if (!cursor) throw new DomainError('invalid_request_body', 'start_activity_id is not an entry of this list', { path: 'start_activity_id' });
  }
  const rows = await db.activityEntry.findMany({
    where: { ...scope, ...(cursor ? { OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] } : {}) },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: size + 1,
  });
  const page = rows.slice(0, size);
  return { activity: page.map(toActivityEntry), last_activity_id: rows.length > size ? page[page.length - 1].id : null };
}
