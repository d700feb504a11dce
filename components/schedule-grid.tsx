'use client';
/**
 * A scheduler's schedules (SPEC §10) on TanStack Table in manual mode: the server searches, filters,
 * sorts and pages (lib/schedules/browse-schedules.ts), so a scheduler with 10,000 schedules sends one
 * page of 50. Every list setting lives in the URL (`?q=`, `?state=`, `?enabled=`, `?sort=`, `?page=`);
 * changing one navigates, the text filter after a short pause in typing.
 */
import {
  createColumnHelper,
  flexRender,
  getCoreRowModel,
  useReactTable,
  type SortingState,
} from '@tanstack/react-table';
import Link from 'next/link';
import { usePathname, useRouter } from 'next/navigation';
import { useEffect, useMemo, useRef, useState, useTransition } from 'react';
import { describeCron } from '@/lib/cron';
import type { RunStatus, RunTrigger, Schedule } from '@/lib/schedules/contract';
import { EnabledBadge, RunStatusBadge, StateBadge } from './badges';
import { formatInZone, formatLocalTime, shortId, targetLabel, workflowSourceLabel } from './format';
import { ScheduleActions, type Notice, type ScheduleCommandActions } from './schedule-actions';
import { TargetLabel } from './target-label';
import { ZonedTime } from './zoned-time';

/** The fields of a schedule the grid shows: the page sends only these to the browser (50 rows a page). */
export type GridSchedule = Pick<Schedule, 'id' | 'alias' | 'description' | 'repeat' | 'invocation_time' | 'cron_expression' | 'timezone' | 'state' | 'enabled' | 'next_fire_at'> & {
  invocation_target: Pick<Schedule['invocation_target'], 'target' | 'workflow'>;
};

export interface GridRow {
  schedule: GridSchedule;
  /** The newest run, or null when the schedule never fired. */
  lastRun: { status: RunStatus; trigger: RunTrigger; created_at: string } | null;
}

/** The list settings the page was rendered with, as in the URL ('' = not set). */
export interface GridQuery {
  q: string;
  state: '' | 'active' | 'completed';
  enabled: '' | 'true' | 'false';
  /** A sort key of the server (`name`, `timezone`, `state`, `enabled`, `next_fire`), `-` first for descending. */
  sort: string;
}

export interface ScheduleGridProps {
  revisionId: string;
  rows: GridRow[];
  actions: ScheduleCommandActions;
  canWrite: boolean;
  query: GridQuery;
  /** 1-based page, number of pages, rows a page, and schedules matching the filters. */
  paging: { page: number; pageCount: number; pageSize: number; total: number };
  /** Schedules in the scheduler, whatever the filters (tells "empty" from "nothing matches"). */
  scheduleCount: number;
}

interface Row extends GridRow {
  label: string;
  cadence: string;
  cadenceDetail: string;
}

/** The sort select of narrow screens (where the header row is hidden): URL value → label. */
const SORT_CHOICES: [string, string][] = [
  ['', 'Oldest first'],
  ['-created', 'Newest first'],
  ['name', 'Name A–Z'],
  ['-name', 'Name Z–A'],
  ['next_fire', 'Next fire, soonest'],
  ['-next_fire', 'Next fire, latest'],
  ['timezone', 'Timezone A–Z'],
  ['-timezone', 'Timezone Z–A'],
  ['state', 'Active first'],
  ['-state', 'Completed first'],
  ['enabled', 'Disabled first'],
  ['-enabled', 'Enabled first'],
  ['description', 'Description A–Z'],
  ['-description', 'Description Z–A'],
];

/** How long typing in the text filter pauses before the grid asks the server. */
const SEARCH_DEBOUNCE_MS = 300;

const column = createColumnHelper<Row>();

/** cronstrue costs ~0.1 ms an expression and the page re-renders every 10 s: keep recent descriptions. */
const descriptions = new Map<string, string>();
function describeCached(expression: string): string {
  let detail = descriptions.get(expression);
  if (detail === undefined) {
    try {
      detail = describeCron(expression);
    } catch {
      detail = 'Not a valid expression';
    }
    if (descriptions.size >= 2000) descriptions.clear();
    descriptions.set(expression, detail);
  }
  return detail;
}

function cadenceOf(s: GridSchedule): { cadence: string; detail: string } {
  if (s.repeat === 'one_time') return { cadence: formatLocalTime(s.invocation_time ?? ''), detail: 'One-time' };
  return { cadence: s.cron_expression ?? '', detail: describeCached(s.cron_expression ?? '') };
}

function parseSort(s: string): SortingState {
  const m = /^(-)?([a-z_]+)$/.exec(s);
  return m ? [{ id: m[2], desc: m[1] === '-' }] : [];
}

/** The URL of this grid with `changes` applied; any change but the page starts again from page 1. */
function gridHref(pathname: string, current: GridQuery, changes: Partial<GridQuery> & { page?: number }): string {
  const next = { ...current, ...changes };
  const params = new URLSearchParams();
  if (next.q.trim()) params.set('q', next.q.trim());
  if (next.state) params.set('state', next.state);
  if (next.enabled) params.set('enabled', next.enabled);
  if (next.sort) params.set('sort', next.sort);
  if (changes.page && changes.page > 1) params.set('page', String(changes.page));
  const qs = params.toString();
  return qs ? `${pathname}?${qs}` : pathname;
}

export function ScheduleGrid(props: ScheduleGridProps) {
  const { revisionId, canWrite, query, paging } = props;
  // The server actions arrive as new functions on every refresh (every 10 s). The columns must not
  // change with them: a new cell renderer is a new component type, and React would remount every
  // row's controls, closing open menus and dialogs and dropping focus. Cells read the latest here.
  const actionsRef = useRef(props.actions);
  actionsRef.current = props.actions;
  const noticeRef = useRef<HTMLParagraphElement>(null);
  const sentQuery = useRef(query.q);
  const router = useRouter();
  const pathname = usePathname();
  const [text, setText] = useState(query.q);
  const [notice, setNotice] = useState<Notice | null>(null);
  const [pending, startTransition] = useTransition();
  const debounce = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const base = `/schedulers/${revisionId}`;
  const sorting = useMemo(() => parseSort(query.sort), [query.sort]);

  useEffect(() => () => clearTimeout(debounce.current), []);
  // Back / Forward drop a search still waiting to be sent, and the box shows the URL's text.
  useEffect(() => {
    const onPop = () => {
      clearTimeout(debounce.current);
      const q = new URLSearchParams(window.location.search).get('q') ?? '';
      sentQuery.current = q;
      setText(q);
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  // An outcome whose row is gone (a delete) takes focus, so it does not fall to the page.
  useEffect(() => {
    if (notice?.focus) noticeRef.current?.focus();
  }, [notice]);
  // The text box follows the URL when it changes by other means than typing (Back, Forward, a link).
  useEffect(() => {
    if (query.q !== sentQuery.current) {
      sentQuery.current = query.q;
      clearTimeout(debounce.current);
      setText(query.q);
    }
  }, [query.q]);

  function go(changes: Partial<GridQuery> & { page?: number }, replace = false) {
    if (changes.q !== undefined) sentQuery.current = changes.q.trim();
    const href = gridHref(pathname, query, changes);
    startTransition(() => (replace ? router.replace(href, { scroll: false }) : router.push(href, { scroll: false })));
  }

  function onText(value: string) {
    setText(value);
    clearTimeout(debounce.current);
    debounce.current = setTimeout(() => go({ q: value }, true), SEARCH_DEBOUNCE_MS);
  }

  const data = useMemo<Row[]>(
    () =>
      props.rows.map((r) => {
        const { cadence, detail } = cadenceOf(r.schedule);
        return { ...r, label: r.schedule.alias ?? r.schedule.id, cadence, cadenceDetail: detail };
      }),
    [props.rows],
  );

  const columns = useMemo(
    () => [
      column.accessor('label', {
        id: 'name',
        header: 'Schedule',
        cell: ({ row }) => {
          const s = row.original.schedule;
          return (
            <div className="cell-name">
              <Link href={`${base}/schedules/${s.id}`} className="strong-link">
                {s.alias ?? s.id}
              </Link>
              {s.description ? (
                <span className="clamp-2 small" title={s.description}>
                  {s.description}
                </span>
              ) : null}
              {s.alias ? (
                <span className="mono muted small" title={s.id}>
                  {shortId(s.id)}
                </span>
              ) : null}
            </div>
          );
        },
      }),
      column.accessor('cadence', {
        id: 'cadence',
        header: 'Cadence',
        enableSorting: false,
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
        cell: ({ getValue }) => (
          <span>
            {getValue()
              .split('/')
              .map((part, i) => (
                <span key={i}>
                  {i > 0 ? '/' : null}
                  {i > 0 ? <wbr /> : null}
                  {part}
                </span>
              ))}
          </span>
        ),
      }),
      column.accessor((r) => r.schedule.state, { id: 'state', header: 'State', cell: ({ getValue }) => <StateBadge state={getValue()} /> }),
      column.accessor((r) => r.schedule.enabled, {
        id: 'enabled',
        header: 'Enabled',
        cell: ({ getValue }) => <EnabledBadge enabled={getValue()} />,
      }),
      column.accessor((r) => r.schedule.next_fire_at, {
        id: 'next_fire',
        header: 'Next fire',
        cell: ({ row }) => {
          const s = row.original.schedule;
          return s.next_fire_at ? <ZonedTime instant={s.next_fire_at} zone={s.timezone} seconds={false} stacked /> : <span className="muted">—</span>;
        },
      }),
      column.accessor((r) => targetLabel(r.schedule.invocation_target.target), {
        id: 'target',
        header: 'Target',
        enableSorting: false,
        cell: ({ row }) => <TargetLabel target={row.original.schedule.invocation_target.target} />,
      }),
      column.accessor((r) => r.schedule.invocation_target.workflow.definition, {
        id: 'workflow',
        header: 'Workflow',
        enableSorting: false,
        cell: ({ row }) => {
          const source = workflowSourceLabel(row.original.schedule.invocation_target.workflow);
          return (
            <div className="cell-stack">
              <span className="mono small">{row.original.schedule.invocation_target.workflow.definition}</span>
              {source ? (
                <span className="muted small mono nowrap" title={source}>
                  from {source.length > 28 ? `${source.slice(0, 27)}…` : source}
                </span>
              ) : null}
            </div>
          );
        },
      }),
      column.accessor((r) => r.lastRun?.status ?? '', {
        id: 'last_run',
        header: 'Last run',
        enableSorting: false,
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
              actions={actionsRef.current}
              canWrite={canWrite}
              onNotice={setNotice}
            />
          );
        },
      }),
    ],
    [base, canWrite],
  );

  const table = useReactTable({
    data,
    columns,
    state: { sorting },
    manualSorting: true,
    manualFiltering: true,
    manualPagination: true,
    enableMultiSort: false,
    sortDescFirst: false,
    onSortingChange: (updater) => {
      const next = typeof updater === 'function' ? updater(sorting) : updater;
      go({ sort: next.length ? `${next[0].desc ? '-' : ''}${next[0].id}` : '' });
    },
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.schedule.id,
  });

  const filtered = query.q !== '' || query.state !== '' || query.enabled !== '';
  const rows = table.getRowModel().rows;
  const first = (paging.page - 1) * paging.pageSize + 1;

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
            placeholder="Name, description, cron, timezone, target, workflow…"
            value={text}
            onChange={(e) => onText(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                clearTimeout(debounce.current);
                go({ q: text }, true);
              }
            }}
          />
        </div>
        <div className="field field-inline narrow-only">
          <label htmlFor="grid-sort">Sort by</label>
          <select id="grid-sort" value={query.sort} onChange={(e) => go({ sort: e.target.value })}>
            {SORT_CHOICES.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor="grid-state">State</label>
          <select id="grid-state" value={query.state} onChange={(e) => go({ state: e.target.value as GridQuery['state'] })}>
            <option value="">Any</option>
            <option value="active">active</option>
            <option value="completed">completed</option>
          </select>
        </div>
        <div className="field field-inline">
          <label htmlFor="grid-enabled">Enabled</label>
          <select id="grid-enabled" value={query.enabled} onChange={(e) => go({ enabled: e.target.value as GridQuery['enabled'] })}>
            <option value="">Any</option>
            <option value="true">Enabled</option>
            <option value="false">Disabled</option>
          </select>
        </div>
      </div>

      <div className="notice-slot" aria-live="polite">
        {notice ? (
          <p className={`notice notice-${notice.tone}`} ref={noticeRef} tabIndex={-1}>
            {notice.text}
            <button type="button" className="link-button" onClick={() => setNotice(null)} aria-label="Dismiss message">
              ×
            </button>
          </p>
        ) : null}
      </div>

      <div className="table-scroll" aria-busy={pending}>
        <table className={`table table-grid${pending ? ' is-pending' : ''}`} aria-label="Schedules">
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
            {rows.map((row) => (
              <tr key={row.id}>
                {row.getVisibleCells().map((cell) => (
                  <td key={cell.id} className={`col-${cell.column.id}`} data-label={typeof cell.column.columnDef.header === 'string' ? cell.column.columnDef.header : undefined}>
                    {flexRender(cell.column.columnDef.cell, cell.getContext())}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows.length === 0 ? (
          <div className="empty-inline">
            <p>{query.q ? `No schedule matches “${query.q}”${query.state || query.enabled ? ' with these filters' : ''}.` : 'No schedules match these filters.'}</p>
            {filtered ? (
              <Link href={gridHref(pathname, query, { q: '', state: '', enabled: '' })} className="btn" onClick={() => setText('')}>
                Clear filters
              </Link>
            ) : null}
          </div>
        ) : null}
      </div>

      <nav className="pager" aria-label="Schedule pages">
        <span className="muted small" aria-live="polite">
          {pending ? 'Loading…' : paging.total === 0 ? 'No matches' : `${first}–${first + rows.length - 1} of ${paging.total}${filtered ? ` matching (${props.scheduleCount} in all)` : ''} · page ${paging.page} of ${paging.pageCount}`}
        </span>
        {paging.pageCount > 1 ? (
          <span className="pager-links">
            {paging.page > 1 ? (
              <>
                <Link href={gridHref(pathname, query, { page: 1 })} className="btn btn-small" scroll={false}>
                  « First
                </Link>
                <Link href={gridHref(pathname, query, { page: paging.page - 1 })} className="btn btn-small" rel="prev" scroll={false}>
                  ← Previous
                </Link>
              </>
            ) : null}
            {paging.page < paging.pageCount ? (
              <>
                <Link href={gridHref(pathname, query, { page: paging.page + 1 })} className="btn btn-small" rel="next" scroll={false}>
                  Next →
                </Link>
                <Link href={gridHref(pathname, query, { page: paging.pageCount })} className="btn btn-small" scroll={false}>
                  Last »
                </Link>
              </>
            ) : null}
          </span>
        ) : null}
      </nav>
    </div>
  );
}
