'use client';
/**
 * The grid's columns, in the order they show. A sortable column's `id` is the server's sort key
 * (`name`, `timezone`, `state`, `enabled`, `next_fire`); the others set `enableSorting: false`.
 * Every header is plain text: narrow screens show it beside each cell (`data-label`).
 */
import Link from 'next/link';
import { EnabledBadge, OutcomeBadge, OverdueBadge, RunStatusBadge, StateBadge } from '../badges';
import { formatInZone, shortId } from '../format';
import { shownRuns, shownText, TargetLabel } from '../targets';
import { ZonedTime } from '../zoned-time';
import { actionsColumn, type RowActionsOptions } from './row-actions';
import { column, type Row } from './rows';

/** Every column of the grid; `options` are the row actions'. Keep the result stable (see `ScheduleGrid`). */
export function scheduleColumns(options: RowActionsOptions) {
  const { base } = options;
  return [
    column.accessor('label', { id: 'name', header: 'Schedule', cell: ({ row }) => <NameCell base={base} row={row.original} /> }),
    column.accessor('cadence', { id: 'cadence', header: 'Cadence', enableSorting: false, cell: ({ row }) => <CadenceCell row={row.original} /> }),
    column.accessor((r) => r.schedule.timezone, { id: 'timezone', header: 'Timezone', cell: ({ getValue }) => <ZoneName zone={getValue()} /> }),
    column.accessor((r) => r.schedule.state, { id: 'state', header: 'State', cell: ({ row }) => <StateCell row={row.original} /> }),
    column.accessor((r) => r.schedule.enabled, { id: 'enabled', header: 'Enabled', cell: ({ row, getValue }) => <EnabledBadge enabled={getValue()} state={row.original.schedule.state} /> }),
    column.accessor((r) => r.schedule.next_fire_at, {
      id: 'next_fire',
      header: 'Next fire',
      cell: ({ row }) => {
        const s = row.original.schedule;
        if (!s.next_fire_at) return <span className="muted">—</span>;
        return (
          <>
            <ZonedTime instant={s.next_fire_at} zone={s.timezone} seconds={row.original.nextFireSeconds} stacked />
            {row.original.overdue ? <OverdueBadge why={row.original.overdue} /> : null}
          </>
        );
      },
    }),
    column.accessor((r) => shownText(r.schedule.invocation_target), {
      id: 'target',
      header: 'Target',
      enableSorting: false,
      cell: ({ row }) => <TargetLabel shown={row.original.schedule.invocation_target} />,
    }),
    column.accessor((r) => shownRuns(r.schedule.invocation_target)?.definition ?? '', { id: 'workflow', header: 'Workflow', enableSorting: false, cell: ({ row }) => <WorkflowCell row={row.original} /> }),
    column.accessor((r) => r.lastRun?.outcome ?? r.lastRun?.status ?? '', { id: 'last_run', header: 'Last run', enableSorting: false, cell: ({ row }) => <LastRunCell row={row.original} /> }),
    actionsColumn(options),
  ];
}

/** The alias (or id) linking to the schedule, its description, and the short id when it has an alias. */
function NameCell({ base, row }: { base: string; row: Row }) {
  const s = row.schedule;
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
}

/** The cron or rate expression and its meaning, or the one-time schedule's local invocation time. */
function CadenceCell({ row }: { row: Row }) {
  return row.schedule.repeat !== 'one_time' ? (
    <div className="cell-cadence">
      <code>{row.cadence}</code>
      <span className="muted small">{row.cadenceDetail}</span>
    </div>
  ) : (
    <div className="cell-cadence">
      <span>{row.cadence}</span>
      <span className="muted small">One-time, local time</span>
    </div>
  );
}

/** Why a waiting occurrence is not delivered yet (SPEC §16.2). */
const WAITING_TEXT = 'waits for the run in progress (overlap: buffer_one)';

/**
 * The state, "retrying" while a failed occurrence's next attempt is pending (SPEC §12.2), with when on
 * hover, and "waiting" while a `buffer_one` occurrence waits for the run in progress (SPEC §16.2).
 */
function StateCell({ row }: { row: Row }) {
  const retry = row.retry;
  const waiting = row.waiting;
  return (
    <div className="cell-stack">
      <StateBadge state={row.schedule.state} />
      {retry ? (
        <span
          className="badge badge-warn-outline"
          title={`Attempt ${retry.attempt} of the occurrence ${formatInZone(retry.scheduled_for, row.schedule.timezone)} is due ${formatInZone(retry.due_at, row.schedule.timezone)}`}
        >
          retrying
        </span>
      ) : null}
      {waiting ? (
        <span className="badge badge-warn-outline" title={`The occurrence ${formatInZone(waiting.scheduled_for, row.schedule.timezone)} ${WAITING_TEXT}`}>
          waiting
        </span>
      ) : null}
    </div>
  );
}

/** A zone name that may break after each "/" (America/<wbr>Argentina/<wbr>Buenos_Aires). */
function ZoneName({ zone }: { zone: string }) {
  return (
    <span>
      {zone.split('/').map((part, i) => (
        <span key={i}>
          {i > 0 ? '/' : null}
          {i > 0 ? <wbr /> : null}
          {part}
        </span>
      ))}
    </span>
  );
}

/** The definition, and where it comes from when that is not the target's own revision. */
function WorkflowCell({ row }: { row: Row }) {
  const runs = shownRuns(row.schedule.invocation_target);
  // A webhook or an AWS target runs no workflow: its Target cell says what it sends.
  if (!runs) return <span className="muted">—</span>;
  return (
    <div className="cell-stack">
      <span className="mono small">{runs.definition}</span>
      {runs.source ? (
        <span className="muted small mono nowrap" title={runs.source}>
          from {runs.source.length > 28 ? `${runs.source.slice(0, 27)}…` : runs.source}
        </span>
      ) : null}
    </div>
  );
}

/**
 * The newest run's status, or its outcome when it has one (SPEC §16.3: a delivered run that failed
 * reads "failed"), with its trigger, status and when it was recorded (in the schedule's zone) on hover.
 */
function LastRunCell({ row }: { row: Row }) {
  const lr = row.lastRun;
  if (!lr) return <span className="muted">Never</span>;
  return (
    <span title={`${lr.trigger === 'manual' ? 'Run now' : 'Scheduled'}${lr.outcome ? ` · ${lr.status}` : ''} · recorded ${formatInZone(lr.created_at, row.schedule.timezone)}`}>
      {lr.outcome ? <OutcomeBadge outcome={lr.outcome} /> : <RunStatusBadge status={lr.status} />}
    </span>
  );
}
