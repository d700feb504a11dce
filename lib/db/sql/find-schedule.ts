/**
 * One schedule of a scheduler revision by its id or by its alias (SPEC §3.1), read on the driver
 * (`readRows`, docs/decisions.md 385): `get_schedule` and every command naming a schedule start here.
 * Each is one probe of a unique key (`schedules.id`; `(revision_id, alias)`).
 */
import type { Tx } from '../client';
import { readRows } from './run-sql';
import { toScheduleRecord, type ScheduleRecord } from './schedule-record';

/** Params: id, revision id. */
export const SCHEDULE_BY_ID_SQL = {
  sqlite: 'SELECT * FROM schedules WHERE id = ? AND revision_id = ?',
  postgresql: 'SELECT * FROM schedules WHERE id = $1 AND revision_id = $2',
} as const;

/** Params: alias, revision id. */
export const SCHEDULE_BY_ALIAS_SQL = {
  sqlite: 'SELECT * FROM schedules WHERE alias = ? AND revision_id = ?',
  postgresql: 'SELECT * FROM schedules WHERE alias = $1 AND revision_id = $2',
} as const;

/** The schedule of revision `revisionId` whose id (or, `by: 'alias'`, alias) is `key`, or null. `key` is already normalized. */
export async function findScheduleByKey(db: Tx, revisionId: string, key: string, by: 'id' | 'alias'): Promise<ScheduleRecord | null> {
  const [row] = await readRows(db, by === 'id' ? SCHEDULE_BY_ID_SQL : SCHEDULE_BY_ALIAS_SQL, key, revisionId);
  return row ? toScheduleRecord(row) : null;
}

/** Params: revision id, JSON array of schedule ids. */
export const SCHEDULES_BY_IDS_SQL = {
  sqlite: 'SELECT * FROM schedules WHERE revision_id = ? AND id IN (SELECT value FROM json_each(?))',
  postgresql: 'SELECT * FROM schedules WHERE revision_id = $1 AND id IN (SELECT jsonb_array_elements_text($2::jsonb))',
} as const;

/**
 * The schedules `ids` of revision `revisionId`, in the order of `ids` (an id no longer there is
 * left out), read on the driver and decoded by the row codec: a row it cannot read throws
 * UndecodableScheduleError naming it (Prisma's model reads would throw an unnamed JSON error first).
 */
export async function findSchedulesByIds(db: Tx, revisionId: string, ids: string[]): Promise<ScheduleRecord[]> {
  if (ids.length === 0) return [];
  const rows = await readRows(db, SCHEDULES_BY_IDS_SQL, revisionId, JSON.stringify(ids));
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  return ids.flatMap((id) => (byId.has(id) ? [toScheduleRecord(byId.get(id)!)] : []));
}
