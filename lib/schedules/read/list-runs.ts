import type { Actor } from '../../auth';
import { newestRunIds, type Db } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import { requireSchedulerRole } from '../access';
import { RUN_STATUSES, type Run, type RunStatus, type Schedule } from '../contract';
import { getScheduleRow } from './find-schedule';
import { toRun, toSchedule } from './serialize';

/** Page size of `list_executions` (SPEC §3.1). */
export const RUNS_PAGE_SIZE = 10;

export interface ListRunsOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  /** The schedule's id (SPEC §3.1: id only, an alias is `404 schedule_not_found`). */
  scheduleId: string;
  /** Exclusive cursor: the `last_execution_id` of the previous page. */
  startExecutionId?: string | null;
  includeSchedule?: boolean;
  /** Only runs with this status (the web app's filter). */
  status?: RunStatus;
}

/**
 * `list_executions` (SPEC §3.1, §8.1): a schedule's runs, 10 a page, newest first (by `created_at`,
 * then `id`). `last_execution_id` is null on the last page. A page costs the same whatever the
 * schedule holds: with a status filter it is one range of runs(schedule_id, status, created_at, id);
 * without one, the newest 11 of each status (one range each, RUN_STATUSES) merged in one statement
 * (lib/db/sql/newest-runs.ts), then those rows (docs/performance.md "list_executions").
 */
export async function listRuns(opts: ListRunsOptions): Promise<{ executions: Run[]; last_execution_id: string | null; schedule?: Schedule }> {
  const { db, actor, revision } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const schedule = await getScheduleRow(db, revision.id, opts.scheduleId, false);
  let cursor: { createdAt: Date; id: string } | null = null;
  if (opts.startExecutionId) {
    const id = normalizeRef(opts.startExecutionId);
    cursor = isIdShape(id) ? await db.run.findFirst({ where: { id, scheduleId: schedule.id }, select: { createdAt: true, id: true } }) : null;
    if (!cursor) throw new DomainError('invalid_request_body', 'start_execution_id is not a run of this schedule', { path: 'start_execution_id' });
  }
  const after = cursor
    ? // The redundant `created_at <= cursor` bound is what PostgreSQL starts the index range at (it
      // derives no range from the OR); without it a deep page reads every newer run first.
      { createdAt: { lte: cursor.createdAt }, OR: [{ createdAt: { lt: cursor.createdAt } }, { createdAt: cursor.createdAt, id: { lt: cursor.id } }] }
    : {};
  const order = [{ createdAt: 'desc' as const }, { id: 'desc' as const }];
  let rows;
  if (opts.status) {
    rows = await db.run.findMany({ where: { scheduleId: schedule.id, status: opts.status, ...after }, orderBy: order, take: RUNS_PAGE_SIZE + 1 });
  } else {
    // One range per status, merged in one statement; then the page's rows, put back in that order.
    const ids = await newestRunIds(db, schedule.id, RUN_STATUSES, cursor, RUNS_PAGE_SIZE + 1);
    const byId = new Map((await db.run.findMany({ where: { id: { in: ids } } })).map((r) => [r.id, r]));
    rows = ids.map((id) => byId.get(id)).filter((r) => r !== undefined);
  }
  const page = rows.slice(0, RUNS_PAGE_SIZE);
  return {
    executions: page.map(toRun),
    last_execution_id: rows.length > RUNS_PAGE_SIZE ? page[page.length - 1].id : null,
    ...(opts.includeSchedule ? { schedule: toSchedule(schedule) } : {}),
  };
}
