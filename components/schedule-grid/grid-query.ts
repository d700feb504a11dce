/**
 * The grid's list settings, as the URL holds them (`?q=`, `?state=`, `?enabled=`, `?outcome=`, `?sort=`, `?page=`):
 * the server searches, filters, sorts and pages by them (lib/schedules/read/browse-schedules.ts).
 */
import type { SortingState } from '@tanstack/react-table';
import type { RunOutcomeState, ScheduleState } from '@/lib/schedules/contract';

/** The list settings the page was rendered with, as in the URL ('' = not set). */
export interface GridQuery {
  q: string;
  state: '' | ScheduleState;
  enabled: '' | 'true' | 'false';
  /** The newest run's outcome (SPEC §16.3). */
  outcome: '' | RunOutcomeState;
  /** A sort key of the server (`name`, `timezone`, `state`, `enabled`, `next_fire`), `-` first for descending. */
  sort: string;
}

/** A change to the list settings; `page` is 1-based. */
export type GridChange = Partial<GridQuery> & { page?: number };

/** `-next_fire` → TanStack's sorting state (`[{id: 'next_fire', desc: true}]`); anything else sorts by nothing. */
export function parseSort(s: string): SortingState {
  const m = /^(-)?([a-z_]+)$/.exec(s);
  return m ? [{ id: m[2], desc: m[1] === '-' }] : [];
}

/** TanStack's sorting state → the `?sort=` value ('' when unsorted). */
export function sortParam(sorting: SortingState): string {
  return sorting.length ? `${sorting[0].desc ? '-' : ''}${sorting[0].id}` : '';
}

/** The URL of this grid with `changes` applied; any change but the page starts again from page 1. */
export function gridHref(pathname: string, current: GridQuery, changes: GridChange): string {
  const next = { ...current, ...changes };
  const params = new URLSearchParams();
  if (next.q.trim()) params.set('q', next.q.trim());
  if (next.state) params.set('state', next.state);
  if (next.enabled) params.set('enabled', next.enabled);
  if (next.outcome) params.set('outcome', next.outcome);
  if (next.sort) params.set('sort', next.sort);
  if (changes.page && changes.page > 1) params.set('page', String(changes.page));
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}
