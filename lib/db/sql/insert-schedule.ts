/**
 * `create_schedule`'s writes as typed statements on the transaction's driver connection
 * (docs/decisions.md 405): the new `schedules` row, every column written (the row is fully built
 * before the insert, defaults included), and one `activity` entry. Prisma stays the data model and the
 * migration tool; these statements write exactly what its model API wrote for the same values (pinned
 * by lib/schedules/__tests__/create.typed-insert.int.test.ts on both dialects): instants in the adapters' stored
 * form (`sqlInstant`), booleans as 0/1 on SQLite, JSON as its `JSON.stringify` text (SQLite) or
 * `jsonb` (PostgreSQL).
 *
 * A taken `(revision_id, alias)`, `(revision_id, name)` or id throws the driver's unique violation
 * (`SQLITE_CONSTRAINT_UNIQUE`, PostgreSQL `23505`; Prisma's `P2002` on the raw-query fallback):
 * `isUniqueViolation` (lib/workflows/guards.ts) takes all three alike.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import type { Dialect } from '../dialect';
import { sqlInstant } from './instant';
import { executeSql, queryRows } from './run-sql';
import { SCHEDULE_RECORD_KEYS, scheduleColumns, toScheduleRecord, type ScheduleRecord } from './schedule-record';

type Param = string | number | null;

/** The JSON columns of `schedules` (`Json` in prisma/schema.prisma). */
const SCHEDULE_JSON_KEYS: ReadonlySet<keyof ScheduleRecord> = new Set(['invocationTarget', 'facadeData']);
/** The boolean columns of `schedules`. */
const SCHEDULE_BOOLEAN_KEYS: ReadonlySet<keyof ScheduleRecord> = new Set(['enabled', 'pausedBulk']);

/** One bound value as both dialects store it (see the module comment); `json`: a JSON column's value. */
function bind(dialect: Dialect, v: unknown, json: boolean): Param {
  if (json) return v === null || v === undefined ? null : JSON.stringify(v);
  if (v === null || v === undefined) return null;
  if (v instanceof Date) return sqlInstant(dialect, v);
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' || typeof v === 'number') return v;
  throw new Error(`insertSchedule: a ${typeof v} value for a scalar column`);
}

/** PostgreSQL placeholder `$n` of column `key`, cast for the raw-query fallback (the driver path infers the same types from the columns). */
function pgPlaceholder(key: keyof ScheduleRecord, n: number): string {
  if (SCHEDULE_JSON_KEYS.has(key)) return `$${n}::jsonb`;
  if (SCHEDULE_BOOLEAN_KEYS.has(key)) return `$${n}::boolean`;
  if (key === 'rateAnchor' || key === 'startDate' || key === 'endDate' || key === 'pausedAt' || key === 'nextFireAt' || key === 'nextScheduledFor' || key === 'createdAt' || key === 'updatedAt') {
    return `$${n}::timestamp(3)`;
  }
  return `$${n}`;
}

/** Params: every column of `SCHEDULE_RECORD_KEYS`, in that order. Answers the stored row. */
export const INSERT_SCHEDULE_SQL = {
  sqlite: `INSERT INTO schedules (${scheduleColumns(SCHEDULE_RECORD_KEYS)}) VALUES (${SCHEDULE_RECORD_KEYS.map(() => '?').join(', ')}) RETURNING *`,
  postgresql: `INSERT INTO schedules (${scheduleColumns(SCHEDULE_RECORD_KEYS)}) VALUES (${SCHEDULE_RECORD_KEYS.map((k, i) => pgPlaceholder(k, i + 1)).join(', ')}) RETURNING *`,
} as const;

/**
 * Insert the schedule `record` (every column given: id, defaults, `createdAt`/`updatedAt`) inside the
 * caller's transaction and answer the row as stored, through the row codec (what `get_schedule` reads
 * back). Throws the driver's unique violation on a taken alias, name or id (see above).
 */
export async function insertSchedule(tx: Tx, record: ScheduleRecord): Promise<ScheduleRecord> {
  const dialect = dialectOfDb(tx);
  const params = SCHEDULE_RECORD_KEYS.map((k) => bind(dialect, record[k], SCHEDULE_JSON_KEYS.has(k)));
  const [row] = await queryRows(tx, INSERT_SCHEDULE_SQL, ...params);
  if (!row) throw new Error('insertSchedule: the insert answered no row');
  return toScheduleRecord(row);
}

/** One `activity` row (prisma/schema.prisma `ActivityEntry`), every column given. `details`: null or a JSON object. */
export interface ActivityRowInsert {
  id: string;
  revisionId: string;
  scheduleId: string | null;
  scheduleLabel: string | null;
  action: string;
  actorType: string;
  actorId: string | null;
  ownerType: string | null;
  ownerId: string | null;
  details: object | null;
  createdAt: Date;
}

/** Params: id, revision id, schedule id, label, action, actor type, actor id, owner type, owner id, details (JSON text), created at. */
export const INSERT_ACTIVITY_SQL = {
  sqlite: `INSERT INTO activity (id, revision_id, schedule_id, schedule_label, action, actor_type, actor_id, owner_type, owner_id, details, created_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  postgresql: `INSERT INTO activity (id, revision_id, schedule_id, schedule_label, action, actor_type, actor_id, owner_type, owner_id, details, created_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10::jsonb, $11::timestamp(3))`,
} as const;

/** Insert one activity entry inside the caller's transaction (SPEC §15: it commits with its change). */
export async function insertActivity(tx: Tx, row: ActivityRowInsert): Promise<void> {
  const dialect = dialectOfDb(tx);
  await executeSql(
    tx,
    INSERT_ACTIVITY_SQL,
    row.id,
    row.revisionId,
    row.scheduleId,
    row.scheduleLabel,
    row.action,
    row.actorType,
    row.actorId,
    row.ownerType,
    row.ownerId,
    row.details === null ? null : JSON.stringify(row.details),
    sqlInstant(dialect, row.createdAt),
  );
}
