'use client';
/**
 * A scheduler's schedules (SPEC §10) on TanStack Table in manual mode: the server searches, filters,
 * sorts and pages (lib/schedules/read/browse-schedules.ts), so a scheduler with 10,000 schedules sends one
 * page of 50. Every list setting lives in the URL (`?q=`, `?state=`, `?enabled=`, `?sort=`, `?page=`);
 * changing one navigates, the text filter after a short pause in typing. Where each part lives:
 * - `grid-query.ts`, `use-grid-url.ts`: the list settings in the URL, and navigating by them.
 * - `rows.ts`, `columns.tsx`: what a row holds and the columns that show it.
 * - `row-actions.tsx`: each row's actions menu and the outcome it reports.
 * - `filters.tsx`, `table.tsx`, `pager.tsx`: the toolbar, the table, the pager.
 */
import { getCoreRowModel, useReactTable } from '@tanstack/react-table';
import Link from 'next/link';
import { useMemo, useRef } from 'react';
import type { ScheduleCommandActions } from '../schedule-actions';
import { scheduleColumns } from './columns';
import { GridFilters } from './filters';
import { gridHref, parseSort, sortParam, type GridQuery } from './grid-query';
import { GridPager, type GridPaging } from './pager';
import { RowActionNotice, useRowActionNotice } from './row-actions';
import { toRow, type GridRow } from './rows';
import { GridTable } from './table';
import { useGridUrl } from './use-grid-url';

export type { GridQuery } from './grid-query';
export type { GridRow, GridSchedule } from './rows';

export interface ScheduleGridProps {
  revisionId: string;
  rows: GridRow[];
  actions: ScheduleCommandActions;
  canWrite: boolean;
  query: GridQuery;
  paging: GridPaging;
  /** Schedules in the scheduler, whatever the filters (tells "empty" from "nothing matches"). */
  scheduleCount: number;
}

export function ScheduleGrid(props: ScheduleGridProps) {
  const { revisionId, canWrite, query, paging } = props;
  // The server actions arrive as new functions on every refresh (every 10 s). The columns must not
  // change with them: a new cell renderer is a new component type, and React would remount every
  // row's controls, closing open menus and dialogs and dropping focus. Cells read the latest here.
  const actionsRef = useRef(props.actions);
  actionsRef.current = props.actions;
  const url = useGridUrl(query);
  const { notice, setNotice, noticeRef } = useRowActionNotice();
  const base = `/schedulers/${revisionId}`;
  const sorting = useMemo(() => parseSort(query.sort), [query.sort]);
  const data = useMemo(() => props.rows.map(toRow), [props.rows]);
  const columns = useMemo(() => scheduleColumns({ base, canWrite, actionsRef, onNotice: setNotice }), [base, canWrite]);

  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    manualSorting: true,
    manualFiltering: true,
    manualPagination: true,
    enableMultiSort: false,
    sortDescFirst: false,
    onSortingChange: (updater) => url.go({ sort: sortParam(typeof updater === 'function' ? updater(sorting) : updater) }),
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.schedule.id,
  });

  if (props.scheduleCount === 0) return <NoSchedules base={base} canWrite={canWrite} />;

  const filtered = query.q !== '' || query.state !== '' || query.enabled !== '' || query.outcome !== '';
  const rowCount = table.getRowModel().rows.length;
  return (
    <div className="grid-panel">
      <GridFilters url={url} />
      <RowActionNotice notice={notice} noticeRef={noticeRef} onDismiss={() => setNotice(null)} />
      <div className="table-scroll" aria-busy={url.pending}>
        <GridTable table={table} pending={url.pending} />
        {rowCount === 0 ? (
          <div className="empty-inline">
            <p>{query.q ? `No schedule matches “${query.q}”${query.state || query.enabled || query.outcome ? ' with these filters' : ''}.` : 'No schedules match these filters.'}</p>
            {filtered ? (
              <Link href={gridHref(url.pathname, query, { q: '', state: '', enabled: '', outcome: '' })} className="btn" onClick={url.clearText}>
                Clear filters
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>
      <GridPager pathname={url.pathname} query={query} paging={paging} rowCount={rowCount} scheduleCount={props.scheduleCount} filtered={filtered} pending={url.pending} />
    </div>
  );
}

/** The empty scheduler: what a schedule does, and (with write access) a way to create the first. */
function NoSchedules({ base, canWrite }: { base: string; canWrite: boolean }) {
  return (
    // Flush: it sits inside the Schedules section's card already (no card in a card).
    <div className="empty-state empty-state-flush">
      <h2>No schedules yet</h2>
      <p>A schedule starts a workflow execution once, at a local time, on a cron cadence in its time zone, or every fixed interval.</p>
      {canWrite ? (
        <Link className="btn btn-primary" href={`${base}/new`}>
          Create your first schedule
        </Link>
      ) : null}
    </div>
  );
}
