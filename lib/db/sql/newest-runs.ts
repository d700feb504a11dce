/**
 * The ids of a schedule's newest runs (by `created_at`, then `id`) among several statuses, after an
 * optional cursor, in one statement: one backward range of runs(schedule_id, status, created_at, id)
 * per status, merged (`list_executions` without a status filter; lib/schedules/read/list-runs.ts). Each arm
 * reads at most `limit` index entries, so the cost does not grow with the schedule's runs.
 */
import type { Tx } from '../client';
import { dialectOfDb } from '../client';
import type { Dialect } from '../dialect';
import { sqlInstant } from './instant';

/** The statement for `statusCount` statuses, with or without a cursor. Params in order: see `newestRunIds`. */
function newestRunsSql(dialect: Dialect, statusCount: number, withCursor: boolean): string {
  let n = 0;
  const p = (cast = '') => (dialect === 'sqlite' ? '?' : `$${++n}${cast}`);
  const arms = Array.from({ length: statusCount }, () => {
    const schedule = p();
    const status = p();
    const cursor = withCursor
      ? (() => {
          const at = p(dialect === 'postgresql' ? '::timestamp(3)' : '');
          const at2 = p(dialect === 'postgresql' ? '::timestamp(3)' : '');
          const at3 = p(dialect === 'postgresql' ? '::timestamp(3)' : '');
          const id = p();
          // The redundant `<=` bound starts PostgreSQL's range at the cursor (it derives none from the OR).
          return ` AND created_at <= ${at} AND (created_at < ${at2} OR (created_at = ${at3} AND id < ${id}))`;
        })()
      : '';
    const limit = p();
    return `SELECT * FROM (SELECT id, created_at FROM runs WHERE schedule_id = ${schedule} AND status = ${status}${cursor} ORDER BY created_at DESC, id DESC LIMIT ${limit}) AS r`;
  });
  return `SELECT id FROM (${arms.join(' UNION ALL ')}) AS newest ORDER BY created_at DESC, id DESC LIMIT ${p()}`;
}

/**
 * Up to `limit` ids of `scheduleId`'s runs whose status is one of `statuses`, newest first, strictly
 * after `cursor` (a run's `created_at` and `id`) when given.
 */
export async function newestRunIds(
  tx: Tx,
  scheduleId: string,
  statuses: readonly string[],
  cursor: { createdAt: Date; id: string } | null,
  limit: number,
): Promise<string[]> {
  if (statuses.length === 0) return [];
  const dialect = dialectOfDb(tx);
  const params: unknown[] = [];
  for (const status of statuses) {
    params.push(scheduleId, status);
    if (cursor) {
      const at = sqlInstant(dialect, cursor.createdAt);
      params.push(at, at, at, cursor.id);
    }
    params.push(limit);
  }
  params.push(limit);
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(newestRunsSql(dialect, statuses.length, cursor !== null), ...params);
  return rows.map((r) => r.id);
}
