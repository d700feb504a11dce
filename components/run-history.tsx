/**
 * A schedule's fire history (SPEC §8.1) as the "Executions" table: newest first, one row per run.
 * Times are shown in the schedule's time zone (hover: the viewer's zone and UTC).
 */
import Link from 'next/link';
import type { Run, RunResult } from '@/lib/schedules/contract';
import { RunStatusBadge } from './badges';
import { formatDuration, workflowSourceLabel } from './format';
import { TargetLabel } from './target-label';
import { ZonedTime } from './zoned-time';

/** Why an execution a run created is gone (lib/workflows `findDeletedExecutions`). */
export type DeletedExecutions = Map<string, 'session_deleted' | 'revision_deleted'>;

function resultCell(result: RunResult, deleted: DeletedExecutions | undefined) {
  if ('execution_id' in result) {
    const gone = deleted?.get(result.execution_id);
    // A link to a deleted execution would answer 404: show its id and say what went.
    if (gone) {
      return (
        <div className="cell-stack">
          <span className="mono small" title={`revision ${result.revision_id}\nsession ${result.session_id}\ndefinition ${result.definition_id}`}>
            {result.execution_id}
          </span>
          <span className="muted small">{gone === 'session_deleted' ? 'Execution deleted: its session was deleted.' : 'Execution deleted: its revision (or blob) was deleted.'}</span>
        </div>
      );
    }
    return (
      <div className="cell-stack">
        <Link
          className="mono small"
          href={`/catalog/revisions/${result.revision_id}/executions/${result.execution_id}`}
          title={`Open the execution · revision ${result.revision_id}\nsession ${result.session_id}\ndefinition ${result.definition_id}`}
        >
          {result.execution_id}
        </Link>
      </div>
    );
  }
  if (result.error === 'limit_exceeded' && 'limit' in result) {
    return (
      <div className="cell-stack">
        <code className="error-name">limit_exceeded</code>
        <span className="small">
          <span className="mono">{result.limit}</span>: {result.message}
        </span>
      </div>
    );
  }
  return (
    <div className="cell-stack">
      <code className="error-name">{result.error}</code>
      {result.message ? <span className="small">{result.message}</span> : null}
    </div>
  );
}

/** The columns' headers; each cell repeats its own as `data-label` for the cards of narrow screens. */
const COLUMNS = ['Status', 'Scheduled for', 'Recorded', 'Lateness', 'Trigger', 'Execution / error', 'Target as fired'] as const;

/**
 * `deleted`: the executions of `runs` that no longer exist (shown without a link). On a narrow screen
 * (≤ 640 px) each run is a labelled card instead of a table row.
 */
export function RunHistory({ runs, timezone, deleted }: { runs: Run[]; timezone: string; deleted?: DeletedExecutions }) {
  const [status, scheduledFor, recorded, lateness, trigger, outcome, target] = COLUMNS;
  return (
    // The table scrolls sideways in this box on a narrow screen and holds nothing focusable, so the box
    // takes focus for keyboard scrolling (WCAG 2.1.1, axe scrollable-region-focusable).
    <div className="table-scroll" role="region" aria-label="Executions table" tabIndex={0}>
      <table className="table table-runs" aria-label="Executions">
        <thead>
          <tr>
            {COLUMNS.map((c) => (
              <th key={c} scope="col">
                {c}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const lateMs = Date.parse(run.created_at) - Date.parse(run.scheduled_for);
            const source = workflowSourceLabel(run.invocation_target.workflow);
            return (
              <tr key={run.id} data-run-id={run.id}>
                <td data-label={status}>
                  <RunStatusBadge status={run.status} />
                </td>
                <td data-label={scheduledFor}>
                  <ZonedTime instant={run.scheduled_for} zone={timezone} />
                </td>
                <td data-label={recorded}>
                  <ZonedTime instant={run.created_at} zone={timezone} />
                </td>
                <td data-label={lateness} className="num-left">
                  {formatDuration(lateMs)}
                </td>
                <td data-label={trigger}>{run.trigger === 'manual' ? <span className="badge badge-muted">manual</span> : <span className="badge badge-info-outline">schedule</span>}</td>
                <td data-label={outcome}>{resultCell(run.result, deleted)}</td>
                <td data-label={target}>
                  <div className="cell-stack">
                    <TargetLabel target={run.invocation_target.target} />
                    <span className="muted small mono break">
                      {run.invocation_target.workflow.definition}
                      {source ? ` from ${source}` : ''}
                    </span>
                  </div>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
