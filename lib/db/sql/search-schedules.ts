/**
 * The schedule grid's query (SPEC §10): one scheduler's schedules filtered by state, enabled and a
 * text search, sorted by a whitelisted key, one page by offset, and how many match in all.
 *
 * `outcome` keeps the schedules whose newest run has that outcome (SPEC §16.3).
 * The text search matches a case-insensitive substring of the name (alias), id, description, cron
 * or rate expression, one-time local time, timezone, the target's org / blob / revision / session (and
 * `org/blob`), and the workflow's definition and source blob. Target and workflow live in the
 * `invocation_target` JSON document, so this is raw SQL with each dialect's JSON operator; Prisma's
 * JSON filters differ between the two. Cost: one pass over the scheduler's rows through the
 * `(revision_id, created_at, id)` index; measured at 10,000 schedules by `npm run bench:grid`.
 * Rows come back whole from raw SQL: for a page of 50, Prisma's model API costs ten times the
 * statement itself (bench:grid).
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import type { Dialect } from '../dialect';
import { toScheduleRecord, type ScheduleRecord } from './schedule-record';

/** The run statuses of undelivered attempts, which never carry an outcome (SPEC §8.1, §16.1). */
const RUN_STATUSES_WITHOUT_OUTCOME = ['limit_exceeded', 'invocation_error', 'skipped'] as const;

/** Sort keys of the grid, each with its SQL expression; every order ends with `id` so pages are stable. */
export const SCHEDULE_SORT_KEYS = ['name', 'description', 'timezone', 'state', 'enabled', 'next_fire', 'created'] as const;
export type ScheduleSortKey = (typeof SCHEDULE_SORT_KEYS)[number];

export interface ScheduleSearch {
  revisionId: string;
  state?: string;
  enabled?: boolean;
  /** Free text; blank means no text filter. */
  query?: string;
  /** Only schedules whose newest run (by `created_at`, then `id`) has this outcome (SPEC §16.3). */
  outcome?: string;
  sort: ScheduleSortKey;
  descending: boolean;
  /** Rows to skip (page index × page size) and rows to return. */
  offset: number;
  limit: number;
}

/**
 * Sort expressions. Text sorts compare bytes (PostgreSQL `COLLATE "C"`, SQLite's default BINARY), so
 * both dialects order aliases like `a-b` and `a_b` the same way whatever the server's locale.
 */
const SORT_SQL: Record<ScheduleSortKey, string> = {
  name: 'lower(coalesce(alias, id))',
  description: "lower(coalesce(description, ''))",
  timezone: 'timezone',
  state: 'state',
  enabled: 'enabled',
  // Nulls (completed or disabled) sort after every instant in either direction: see orderBy().
  next_fire: 'next_fire_at',
  created: 'created_at',
};
const TEXT_SORTS: ReadonlySet<ScheduleSortKey> = new Set(['name', 'description', 'timezone', 'state']);

/** The searchable text of a row: its fields joined by newlines, lower-cased. */
const SEARCH_TEXT: Record<Dialect, string> = {
  // SQLite's LIKE already ignores ASCII case (and its lower() folds only ASCII): no lower() per row.
  sqlite: `(coalesce(alias, '') || char(10) || id || char(10) || coalesce(description, '') || char(10)
    || coalesce(cron_expression, '') || char(10) || coalesce(rate_expression, '') || char(10) || coalesce(invocation_time, '') || char(10) || timezone || char(10)
    || coalesce(invocation_target ->> '$.target.org', '') || '/' || coalesce(invocation_target ->> '$.target.blob', '') || char(10)
    || coalesce(invocation_target ->> '$.target.revision', '') || char(10) || coalesce(invocation_target ->> '$.target.session', '') || char(10)
    || coalesce(invocation_target ->> '$.workflow.definition', '') || char(10) || coalesce(invocation_target ->> '$.workflow.blob', ''))`,
  postgresql: `lower(concat_ws(E'\\n', alias, id, description, cron_expression, rate_expression, invocation_time, timezone,
    coalesce(invocation_target #>> '{target,org}', '') || '/' || coalesce(invocation_target #>> '{target,blob}', ''),
    invocation_target #>> '{target,revision}', invocation_target #>> '{target,session}',
    invocation_target #>> '{workflow,definition}', invocation_target #>> '{workflow,blob}'))`,
};

/** `%`, `_` and `\` in the user's text match themselves (LIKE … ESCAPE '\'). */
function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * The spellings of `query` to try. PostgreSQL: the lower-cased text against the lower-cased row
 * (Unicode case folding). SQLite folds only ASCII case (in LIKE and lower() alike), so a query with
 * other letters is tried as typed, lower-cased, upper-cased and capitalized: `Überweisung`,
 * `überweisung` and `ÜBERWEISUNG` all find "Überweisung prüfen".
 */
function spellings(dialect: Dialect, query: string): string[] {
  const lower = query.toLowerCase();
  if (dialect === 'postgresql' || !/[^\x00-\x7f]/.test(query)) return [lower];
  return [...new Set([query, lower, query.toUpperCase(), lower.charAt(0).toUpperCase() + lower.slice(1)])];
}

function whereClause(dialect: Dialect, s: ScheduleSearch): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const p = (value: unknown, cast = '') => {
    params.push(value);
    return dialect === 'sqlite' ? '?' : `$${params.length}${cast}`;
  };
  const parts = [`revision_id = ${p(s.revisionId)}`];
  if (s.state) parts.push(`state = ${p(s.state)}`);
  if (s.enabled !== undefined) parts.push(dialect === 'sqlite' ? `enabled = ${p(s.enabled ? 1 : 0)}` : `enabled = ${p(s.enabled, '::boolean')}`);
  if (s.outcome) {
    // The newest run carries the outcome: the newest delivered (`success`) run has it, and no run of
    // another status is newer. Outcomes are only ever on delivered runs. Each part is one probe of the
    // runs(schedule_id, status, created_at, id) index per schedule.
    // Placeholders in the order they appear (SQLite binds `?` by position).
    const outcome = p(s.outcome);
    const others = RUN_STATUSES_WITHOUT_OUTCOME.map((x) => p(x)).join(', ');
    parts.push(`EXISTS (SELECT 1 FROM runs r WHERE r.id = (SELECT r2.id FROM runs r2 WHERE r2.schedule_id = schedules.id AND r2.status = 'success' ORDER BY r2.created_at DESC, r2.id DESC LIMIT 1)
      AND r.outcome = ${outcome}
      AND NOT EXISTS (SELECT 1 FROM runs r3 WHERE r3.schedule_id = schedules.id AND r3.status IN (${others}) AND (r3.created_at > r.created_at OR (r3.created_at = r.created_at AND r3.id > r.id))))`);
  }
  const q = s.query?.trim();
  if (q) {
    const likes = spellings(dialect, q).map((text) => `${SEARCH_TEXT[dialect]} LIKE ${p(likePattern(text))} ESCAPE '\\'`);
    parts.push(likes.length === 1 ? likes[0] : `(${likes.join(' OR ')})`);
  }
  return { sql: parts.join(' AND '), params };
}

function orderBy(dialect: Dialect, s: ScheduleSearch): string {
  const dir = s.descending ? 'DESC' : 'ASC';
  const key = dialect === 'postgresql' && TEXT_SORTS.has(s.sort) ? `${SORT_SQL[s.sort]} COLLATE "C"` : SORT_SQL[s.sort];
  // `x IS NULL` is 0/false for values, so ascending on it puts nulls last in both dialects.
  const nullsLast = s.sort === 'next_fire' ? `(${key} IS NULL) ASC, ` : '';
  return `${nullsLast}${key} ${dir}, id ${dialect === 'postgresql' ? 'COLLATE "C" ' : ''}${dir}`;
}

/** Param: JSON array of ids. */
const ROWS_BY_ID_SQL = {
  sqlite: 'SELECT * FROM schedules WHERE id IN (SELECT value FROM json_each(?))',
  postgresql: 'SELECT * FROM schedules WHERE id IN (SELECT jsonb_array_elements_text($1::jsonb))',
} as const;

/**
 * One page of a scheduler's schedules in grid order, and the number of schedules matching the
 * filters. The sort carries ids only, then the page's rows are read by id: sorting whole rows made
 * SQLite move every column of 10,000 rows through its sorter (36 ms vs 4 ms for a sort by name).
 */
export async function searchSchedules(tx: Tx, s: ScheduleSearch): Promise<{ rows: ScheduleRecord[]; total: number }> {
  const dialect = dialectOfDb(tx);
  const where = whereClause(dialect, s);
  const n = where.params.length;
  const page = dialect === 'sqlite' ? 'LIMIT ? OFFSET ?' : `LIMIT $${n + 1} OFFSET $${n + 2}`;
  const [ids, count] = await Promise.all([
    tx.$queryRawUnsafe<{ id: string }[]>(`SELECT id FROM schedules WHERE ${where.sql} ORDER BY ${orderBy(dialect, s)} ${page}`, ...where.params, s.limit, s.offset),
    tx.$queryRawUnsafe<{ total: number | bigint }[]>(`SELECT COUNT(*) AS total FROM schedules WHERE ${where.sql}`, ...where.params),
  ]);
  const rows = ids.length
    ? await tx.$queryRawUnsafe<Record<string, unknown>[]>(ROWS_BY_ID_SQL[dialect], JSON.stringify(ids.map((r) => r.id)))
    : [];
  const byId = new Map(rows.map((r) => [r.id as string, r]));
  return { rows: ids.flatMap(({ id }) => (byId.has(id) ? [toScheduleRecord(byId.get(id)!)] : [])), total: Number(count[0]?.total ?? 0) };
}
