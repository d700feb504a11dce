/**
 * Schedules read on the driver (`readRows`, docs/decisions.md 385) through the row codec:
 * - one by its id, alias (SPEC §3.1) or name (SPEC §14), each one probe of a unique key
 *   (`schedules.id`; `(revision_id, alias)`; `(revision_id, name)`): `get_schedule`, GetSchedule and
 *   every command naming a schedule start here;
 * - a page of them (`findSchedules`): list_schedules, ListSchedules, pause-all / resume-all.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import type { ScheduleState } from '../contract';
import { sqlInstant } from './instant';
import { readRows } from './run-sql';
import { toScheduleRecord, type ScheduleRecord } from './schedule-record';

/** Params: id, revision id. */
export const SCHEDULE_BY_ID_SQL = {
  sqlite: 'SELECT * FROM schedules WHERE id = ? AND revision_id = ?',
  postgresql: 'SELECT * FROM schedules WHERE id = $1 AND revision_id = $2',
} as const;

/** Params: name, revision id (`(revision_id, name)` is unique: SPEC §14, one name per schedule group). */
export const SCHEDULE_BY_NAME_SQL = {
  sqlite: 'SELECT * FROM schedules WHERE name = ? AND revision_id = ?',
  postgresql: 'SELECT * FROM schedules WHERE name = $1 AND revision_id = $2',
} as const;

/** Params: alias, revision id. */
export const SCHEDULE_BY_ALIAS_SQL = {
  sqlite: 'SELECT * FROM schedules WHERE alias = ? AND revision_id = ?',
  postgresql: 'SELECT * FROM schedules WHERE alias = $1 AND revision_id = $2',
} as const;

const BY_KEY = { id: SCHEDULE_BY_ID_SQL, alias: SCHEDULE_BY_ALIAS_SQL, name: SCHEDULE_BY_NAME_SQL } as const;

/**
 * The schedule of revision `revisionId` whose id (or alias, or name: `by`) is `key`, or null. `key`
 * is already normalized. Throws UndecodableScheduleError when the row's columns cannot be read.
 */
export async function findScheduleByKey(db: Tx, revisionId: string, key: string, by: keyof typeof BY_KEY): Promise<ScheduleRecord | null> {
  const [row] = await readRows(db, BY_KEY[by], key, revisionId);
  return row ? toScheduleRecord(row) : null;
}

/** What `findSchedules` selects; every filter given is combined with AND. */
export interface ScheduleFilter {
  /** The scheduler revisions (schedule groups) to read; none → no rows. */
  revisionIds: readonly string[];
  state?: ScheduleState;
  enabled?: boolean;
  pausedBulk?: boolean;
  /** Names starting with this text, compared exactly (case-sensitive, no LIKE wildcards). */
  namePrefix?: string;
  /** Exclusive keyset cursor: rows after this `(created_at, id)`. */
  after?: { createdAt: Date; id: string } | null;
  /** At most this many rows; absent → all. */
  limit?: number;
}

/**
 * The schedules `filter` selects, ordered by `created_at` then `id` (the `(revision_id, created_at,
 * id)` index), read in one statement on the driver and decoded by the row codec: a row it cannot
 * read throws UndecodableScheduleError naming it (Prisma's model reads would throw an unnamed JSON
 * error on SQLite first; decision 425). For list_schedules, ListSchedules and pause-all/resume-all.
 */
export async function findSchedules(db: Tx, filter: ScheduleFilter): Promise<ScheduleRecord[]> {
  if (filter.revisionIds.length === 0) return [];
  const dialect = dialectOfDb(db);
  const params: (string | number)[] = [];
  // `?` on SQLite; `$n` on PostgreSQL, numbered in the order pushed.
  const p = (v: string | number) => (params.push(v), dialect === 'sqlite' ? '?' : `$${params.length}`);
  const bool = (b: boolean) => (dialect === 'sqlite' ? (b ? '1' : '0') : b ? 'true' : 'false');
  const where = [
    filter.revisionIds.length === 1
      ? `revision_id = ${p(filter.revisionIds[0])}`
      : dialect === 'sqlite'
        ? `revision_id IN (SELECT value FROM json_each(${p(JSON.stringify(filter.revisionIds))}))`
        : `revision_id IN (SELECT jsonb_array_elements_text(${p(JSON.stringify(filter.revisionIds))}::jsonb))`,
  ];
  if (filter.state !== undefined) where.push(`state = ${p(filter.state)}`);
  if (filter.enabled !== undefined) where.push(`enabled = ${bool(filter.enabled)}`);
  if (filter.pausedBulk !== undefined) where.push(`paused_bulk = ${bool(filter.pausedBulk)}`);
  // Characters are code points in both dialects' substr (UTF-8 text).
  if (filter.namePrefix) where.push(`substr(name, 1, ${p([...filter.namePrefix].length)}) = ${p(filter.namePrefix)}`);
  if (filter.after) {
    // Stored instants compare as instants in their stored form (instant.ts `sqlInstant`).
    const at = sqlInstant(dialect, filter.after.createdAt);
    where.push(`(created_at > ${p(at)} OR (created_at = ${p(at)} AND id > ${p(filter.after.id)}))`);
  }
  const limit = filter.limit !== undefined ? ` LIMIT ${p(filter.limit)}` : '';
  const sql = `SELECT * FROM schedules WHERE ${where.join(' AND ')} ORDER BY created_at, id${limit}`;
  const rows = await readRows(db, { sqlite: sql, postgresql: sql }, ...params);
  return rows.map(toScheduleRecord);
}
