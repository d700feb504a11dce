import type { Actor } from '../../auth';
import { searchSchedules, SCHEDULE_SORT_KEYS, type Db, type ScheduleSortKey } from '../../db';
import { requireSchedulerRole } from '../access';
import type { RunOutcomeState, Schedule, ScheduleState } from '../contract';
import { toSchedule } from './serialize';

export { SCHEDULE_SORT_KEYS, type ScheduleSortKey };

/** Rows per page of the schedule grid (the API's `list_schedules` page size, SPEC §3.1). */
export const GRID_PAGE_SIZE = 50;

export interface BrowseSchedulesOptions {
  db: Db;
  actor: Actor;
  revision: { id: string; blobId: string };
  state?: ScheduleState;
  enabled?: boolean;
  /** Only schedules whose newest run has this outcome (the grid's last-run filter, SPEC §16.3). */
  outcome?: RunOutcomeState;
  /** Case-insensitive text: name, id, description, cadence, timezone, target, workflow. */
  query?: string;
  /** Default `created` ascending: the API's `list_schedules` order. */
  sort?: ScheduleSortKey;
  descending?: boolean;
  /** 1-based page number; a page past the end is clamped to the last page. */
  page?: number;
  pageSize?: number;
}

export interface SchedulePage {
  schedules: Schedule[];
  /** Schedules matching the filters, across all pages. */
  total: number;
  /** The page returned (1-based, after clamping) and the number of pages (at least 1). */
  page: number;
  pageCount: number;
  pageSize: number;
}

/**
 * The schedule grid's page (SPEC §10): one scheduler's schedules filtered, searched and sorted on the
 * server, paged by page number so any sort can be paged. Needs `read` on the scheduler (else
 * `404 not_found`). The API keeps `list_schedules` with its cursor; this is the browser's view of the
 * same rows, so a scheduler with 10,000 schedules sends 50 to the browser.
 */
export async function browseSchedules(opts: BrowseSchedulesOptions): Promise<SchedulePage> {
  const { db, actor, revision } = opts;
  await requireSchedulerRole(db, actor, revision.blobId, 'read');
  const pageSize = opts.pageSize ?? GRID_PAGE_SIZE;
  const search = {
    revisionId: revision.id,
    state: opts.state,
    enabled: opts.enabled,
    outcome: opts.outcome,
    query: opts.query,
    sort: opts.sort ?? 'created',
    descending: opts.descending ?? false,
  } as const;
  let page = Math.max(1, Math.floor(opts.page ?? 1));
  let found = await searchSchedules(db, { ...search, offset: (page - 1) * pageSize, limit: pageSize });
  const pageCount = Math.max(1, Math.ceil(found.total / pageSize));
  if (page > pageCount) {
    // A stale link (schedules deleted meanwhile, or a hand-edited URL): show the last page instead.
    page = pageCount;
    found = await searchSchedules(db, { ...search, offset: (page - 1) * pageSize, limit: pageSize });
  }
  const schedules = found.rows.map(toSchedule);
  return { schedules, total: found.total, page, pageCount, pageSize };
}
