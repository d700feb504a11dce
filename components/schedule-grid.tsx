'use client';
/**
 * A scheduler's schedules (SPEC §10) on TanStack Table. The server pages with the API's cursor
 * (`?cursor=`, 50 a page) and filters by `?state=` and `?enabled=`; sorting and the text filter act
 * on the page in hand and are kept in the URL too (`?q=`, `?sort=`), without a server round trip.
 */
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  getFilteredRowModel,
  getSortedRowModel,
  useReactTable,
  type FilterFn,
  type SortingState,
} from '@tanstack/react-table';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useMemo, useState } from 'react';
import { describeCron } from '@/lib/cron';
import type { RunStatus, RunTrigger, Schedule } from '@/lib/schedules/contract';
import { EnabledBadge, RunStatusBadge, StateBadge } from './badges';
import { formatInZone, formatLocalTime, shortId, targetLabel, workflowSourceLabel } from './format';
import { ScheduleActions, type Notice, type ScheduleCommandActions } from './schedule-actions';
import { TargetLabel } from './target-label';
import { ZonedTime } from './zoned-time';

export interface GridRow {
  schedule: Schedule;
  /** The newest run, or null when the schedule never fired. */
  lastRun: { status: RunStatus; trigger: RunTrigger; created_at: string } | null;
}

export interface ScheduleGridProps {
  revisionId: string;
  rows: GridRow[];
  actions: ScheduleCommandActions;
  canWrite: boolean;
  filters: { state: '' | 'active' | 'completed'; enabled: '' | 'true' | 'false' };
  /** The cursor of this page (null on the first) and of the next one (null on the last). */
  paging: { cursor: string | null; nextCursor: string | null };
  /** `?q=` and `?sort=` as the page was requested. */
  initialQuery: string;
  initialSort: string;
  /** Schedules in the scheduler, whatever the filters (tells "empty" from "nothing matches"). */
  scheduleCount: number;
}

interface Row extends GridRow {
  label: string;
  cadence: string;
  cadenceDetail: string;
  target: string;
  workflow: string;
  workflowSource: string | null;
}

const column = createColumnHelper<Row>();

function cadenceOf(s: Schedule): { cadence: string; detail: string } {
  if (s.repeat === 'one_time') return { cadence: formatLocalTime(s.invocation_time ?? ''), detail: 'One-time' };
  let detail: string;
  try {
    detail = describeCron(s.cron_expression ?? '');
  } catch {
    detail = 'Not a valid expression';
  }
  return { cadence: s.cron_expression ?? '', detail };
}

const searchText: FilterFn<Row> = (row, _columnId, value: string) => {
  const q = value.trim().toLowerCase();
  if (!q) return true;
  const r = row.original;
  return [r.label, r.schedule.id, r.schedule.description ?? '', r.cadence, r.cadenceDetail, r.schedule.timezone, r.target, r.workflow, r.workflowSource ?? '']
    .join('\n')
    .toLowerCase()
    .includes(q);
};

function parseSort(s: string): SortingState {
  const m = /^(-)?([a-z_]+)$/.exec(s);
  return m ? [{ id: m[2], desc: m[1] === '-' }] : [];
}

export function ScheduleGrid(props: ScheduleGridProps) {
  const { revisionId, actions, canWrite, filters, paging } = props;
  const router = useRouter();
  const pathname = usePathname();
  const [query, setQuery] = useState(props.initialQuery);
  const [sorting, setSorting] = useState<SortingState>(() => parseSort(props.initialSort));
  const [notice, setNotice] = useState<Notice | null>(null);
  const base = `/schedulers/${revisionId}`;

  const data = useMemo<Row[]>(
    () =>
      props.rows.map((r) => {
        const { cadence, detail } = cadenceOf(r.schedule);
        return {
          ...r,
          label: r.schedule.alias ?? r.schedule.id,
          cadence,
          cadenceDetail: detail,
          target: targetLabel(r.schedule.invocation_target.target),
          workflow: r.schedule.invocation_target.workflow.definition,
          workflowSource: workflowSourceLabel(r.schedule.invocation_target.workflow),
        };
      }),
    [props.rows],
  );

  /** Keep client-only list state in the URL without asking the server again (STYLE §2.8). */
  function replaceUrl(next: { q?: string; sort?: SortingState }) {
    const params = new URLSearchParams(window.location.search);
    const q = next.q ?? query;
    const sort = next.sort ?? sorting;
    if (q) params.set('q', q);
    else params.delete('q');
    if (sort.length) params.set('sort', `${sort[0].desc ? '-' : ''}${sort[0].id}`);
    else params.delete('sort');
    const qs = params.toString();
    window.history.replaceState(null, '', qs ? `${pathname}?${qs}` : pathname);
  }

  /** Server-side filters: a new request from the first page. */
  function setServerFilter(name: 'state' | 'enabled', value: string) {
    const params = new URLSearchParams(window.location.search);
    params.delete('cursor');
    if (value) params.set(name, value);
    else params.delete(name);
    const qs = params.toString();
    router.push(qs ? `${pathname}?${qs}` : pathname);
  }

  const columns = useMemo(
    () => [
      column.accessor('label', {
        id: 'name',
        header: 'Name',
        cell: ({ row }) => {
          const s = row.original.schedule;
          return (
            <div className="cell-name">
              <Link href={`${base}/schedules/${s.id}`} className="strong-link">
                {s.alias ?? s.id}
              </Link>
              {s.alias ? (
                <span className="mono muted small" title={s.id}>
                  {shortId(s.id)}
                </span>
              ) : null}
            </div>
          );
        },
      }),
      column.accessor((r) => r.schedule.description ?? '', {
        id: 'description',
        header: 'Description',
        cell: ({ getValue }) => {
          const v = getValue();
          return v ? (
            <span className="clamp-2" title={v}>
              {v}
            </span>
          ) : (
            <span className="muted">—</span>
          );
        },
      }),
      column.accessor('cadence', {
        id: 'cadence',
        header: 'Cadence',
        cell: ({ row }) => {
          const r = row.original;
          return r.schedule.repeat === 'recurring_cron' ? (
            <div className="cell-cadence">
              <code>{r.cadence}</code>
              <span className="muted small">{r.cadenceDetail}</span>
            </div>
          ) : (
            <div className="cell-cadence">
              <span>{r.cadence}</span>
              <span className="muted small">One-time, local time</span>
            </div>
          );
        },
      }),
      column.accessor((r) => r.schedule.timezone, {
        id: 'timezone',
        header: 'Timezone',
        // Let long zone names break after each "/" (America/<wbr>Argentina/<wbr>Buenos_Aires).
        cell: ({ getValue }) =>
          getValue()
            .split('/')
            .map((part, i) => (
              <span key={i}>
                {i > 0 ? '/' : null}
                {i > 0 ? <wbr /> : null}
                {part}
              </span>
            )),
      }),
      column.accessor((r) => r.schedule.state, { id: 'state', header: 'State', cell: ({ getValue }) => <StateBadge state={getValue()} /> }),
      column.accessor((r) => r.schedule.enabled, {
        id: 'enabled',
        header: 'Enabled',
        sortingFn: 'basic',
        cell: ({ getValue }) => <EnabledBadge enabled={getValue()} />,
      }),
      column.accessor((r) => r.schedule.next_fire_at, {
        id: 'next_fire',
        header: 'Next fire',
        sortUndefined: 'last',
        sortingFn: (a, b) => {
          const x = a.original.schedule.next_fire_at;
          const y = b.original.schedule.next_fire_at;
          if (x === y) return 0;
          if (x === null) return 1;
          if (y === null) return -1;
          return x < y ? -1 : 1;
        },
        cell: ({ row }) => {
          const s = row.original.schedule;
          return s.next_fire_at ? <ZonedTime instant={s.next_fire_at} zone={s.timezone} seconds={false} stacked /> : <span className="muted">—</span>;
        },
      }),
      column.accessor('target', {
        id: 'target',
        header: 'Target',
        cell: ({ row }) => <TargetLabel target={row.original.schedule.invocation_target.target} />,
      }),
      column.accessor('workflow', {
        id: 'workflow',
        header: 'Workflow',
        cell: ({ row }) => (
          <div className="cell-stack">
            <span className="mono small">{row.original.workflow}</span>
            {row.original.workflowSource ? (
              <span className="muted small mono nowrap" title={row.original.workflowSource}>
                from {row.original.workflowSource.length > 28 ? `${row.original.workflowSource.slice(0, 27)}…` : row.original.workflowSource}
              </span>
            ) : null}
          </div>
        ),
      }),
      column.accessor((r) => r.lastRun?.status ?? '', {
        id: 'last_run',
        header: 'Last run',
        cell: ({ row }) => {
          const lr = row.original.lastRun;
          if (!lr) return <span className="muted">Never</span>;
          return (
            <span title={`${lr.trigger === 'manual' ? 'Run now' : 'Scheduled'} · recorded ${formatInZone(lr.created_at, row.original.schedule.timezone)}`}>
              <RunStatusBadge status={lr.status} />
            </span>
          );
        },
      }),
      column.display({
        id: 'actions',
        header: () => <span className="visually-hidden">Actions</span>,
        cell: ({ row }) => {
          const s = row.original.schedule;
          return (
            <ScheduleActions
              variant="menu"
              schedule={{ id: s.id, label: row.original.label, enabled: s.enabled, state: s.state }}
              openHref={`${base}/schedules/${s.id}`}
              editHref={`${base}/schedules/${s.id}/edit`}
              actions={actions}
              canWrite={canWrite}
              onNotice={setNotice}
            />
          );
        },
      }),
    ],
    [actions, base, canWrite],
  );

  const table = useReactTable({
    data,
    columns,
    state: { sorting, globalFilter: query },
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      setSorting(next);
      replaceUrl({ sort: next });
    },
    globalFilterFn: searchText,
    sortDescFirst: false,
    getCoreRowModel: getCoreRowModel(),
    getSortedRowModel: getSortedRowModel(),
    getFilteredRowModel: getFilteredRowModel(),
    getRowId: (r) => r.schedule.id,
  });

  const filtered = filters.state !== '' || filters.enabled !== '' || paging.cursor !== null;
  const visible = table.getRowModel().rows;

  if (props.scheduleCount === 0) {
    return (
      <div className="empty-state">
        <h2>No schedules yet</h2>
        <p>A schedule starts a workflow execution once, at a local time, or on a cron cadence in its time zone.</p>
        {canWrite ? (
          <Link className="btn btn-primary" href={`${base}/new`}>
            Create your first schedule
          </Link>
        ) : null}
      </div>
    );
  }

  return (
    <div className="grid-panel">
      <div className="toolbar" role="search">
        <div className="field field-inline field-grow">
          <label htmlFor="grid-q">Find schedules</label>
          <input
            id="grid-q"
            type="search"
            placeholder="Name, description, cron, target…"
            value={query}
            onChange={(e) => {
              setQuery(e.target.value);
              replaceUrl({ q: e.target.value });
            }}
          />
        </div>
        <div className="field field-inline">
          <label htmlFor="grid-state">State</label>
          <select id="grid-state" value={filters.state} onChange={(e) => setServerFilter('state', e.target.value)}>
            <option value="">Any</option>
            <option value="active">active</option>
            <option value="completed">completed</option>
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor="grid-enabled">Enabled</label>
          <select id="grid-enabled" value={filters.enabled} onChange={(e) => setServerFilter('enabled', e.target.value)}>
            <option value="">Any</option>
            <option value="true">Enabled</option>
            <option value="false">Disabled</option>
          </select>
        </div>
      </div>

      <div className="notice-slot" aria-live="polite">
        {notice ? (
          <p className={`notice notice-${notice.tone}`}>
            {notice.text}
            <button type="button" className="link-button" onClick={() => setNotice(null)} aria-label="Dismiss message">
              ×
            </button>
          </p>
        ) : null}
      </div>

      <div className="table-scroll">
        <table className="table table-grid" aria-label="Schedules">
          <thead>
            {table.getHeaderGroups().map((hg) => (
              <tr key={hg.id}>
                {hg.headers.map((h) => {
                  const sorted = h.column.getIsSorted();
                  return (
                    <th key={h.id} scope="col" aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined} className={`col-${h.column.id}`}>
                      {h.column.getCanSort() ? (
                        <button type="button" className="sort-button" onClick={h.column.getToggleSortingHandler()}>
                          {flexRender(h.column.columnDef.header, h.getContext())}
                          <span aria-hidden="true" className="sort-indicator">
                            {sorted === 'asc' ? '▲' : sorted === 'desc' ? '▼' : '↕'}
                          </span>
                        </button>
                      ) : (
                        flexRender(h.column.columnDef.header, h.getContext())
                      )}
                    </th>
                  );
                })}
              </tr>
            ))}
          </thead>
          <tbody>
            {visible.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={`col-${cell.column.id}`}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {visible.length === 0 ? (
          <div className="empty-inline">
            <p>{props.rows.length === 0 ? 'No schedules match these filters.' : `No schedule on this page matches “${query}”.`}</p>
            {filtered || query ? (
              <Link href={pathname} className="btn" onClick={() => setQuery('')}>
                Clear filters
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>

      <nav className="pager" aria-label="Schedule pages">
        <span className="muted small">
          {visible.length} shown{query ? ` of ${props.rows.length} on this page` : ''} · 50 a page
        </span>
        <span className="pager-links">
          {paging.cursor ? (
            <Link href={pageHref(pathname, filters, null)} className="btn btn-small">
              ← First page
            </Link>
          ) : null}
          {paging.nextCursor ? (
            <Link href={pageHref(pathname, filters, paging.nextCursor)} className="btn btn-small">
              Next page →
            </Link>
          ) : null}
        </span>
      </nav>
    </div>
  );
}

function pageHref(pathname: string, filters: ScheduleGridProps['filters'], cursor: string | null): string {
  const params = new URLSearchParams();
  if (filters.state) params.set('state', filters.state);
  if (filters.enabled) params.set('enabled', filters.enabled);
  if (cursor) params.set('cursor', cursor);
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}
