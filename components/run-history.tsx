/**
 * A schedule's fire history (SPEC §8.1) as the "Executions" table: newest first, one row per run.
 * Times are shown in the schedule's time zone (hover: the viewer's zone and UTC).
 */
import Link from 'next/link';
import type { Run, RunResult } from '@/lib/schedules/contract';
import { displayTarget } from './display-target';
import { RunStatusBadge } from './badges';
import { formatDuration, workflowSourceLabel } from './format';
import { TargetLabel } from './target-label';
import { ZonedTime } from './zoned-time';

function resultCell(result: RunResult) {
  if ('execution_id' in result) {
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

export function RunHistory({ runs, timezone }: { runs: Run[]; timezone: string }) {
  return (
    // The table scrolls sideways in this box on a narrow screen and holds nothing focusable, so the box
    // takes focus for keyboard scrolling (WCAG 2.1.1, axe scrollable-region-focusable).
    <div className="table-scroll" role="region" aria-label="Executions table" tabIndex={0}>
      <table className="table table-runs" aria-label="Executions">
        <thead>
          <tr>
            <th scope="col">Status</th>
            <th scope="col">Scheduled for</th>
            <th scope="col">Recorded</th>
            <th scope="col">Lateness</th>
            <th scope="col">Trigger</th>
            <th scope="col">Execution / error</th>
            <th scope="col">Target as fired</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((run) => {
            const lateMs = Date.parse(run.created_at) - Date.parse(run.scheduled_for);
            const shown = displayTarget(run);
            const source = workflowSourceLabel(shown.workflow);
            return (
              <tr key={run.id} data-run-id={run.id}>
                <td>
                  <RunStatusBadge status={run.status} />
                </td>
                <td>
                  <ZonedTime instant={run.scheduled_for} zone={timezone} />
                </td>
                <td>
                  <ZonedTime instant={run.created_at} zone={timezone} />
                </td>
                <td className="num-left">{formatDuration(lateMs)}</td>
                <td>{run.trigger === 'manual' ? <span className="badge badge-muted">manual</span> : <span className="badge badge-info-outline">schedule</span>}</td>
                <td>{resultCell(run.result)}</td>
                <td>
                  <TargetLabel target={shown.target} />
                  <span className="muted small mono break">
                    {shown.workflow.definition}
                    {source ? ` from ${source}` : ''}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
