/**
 * A schedule's fire history (SPEC §8.1, §12.2) as the "Executions" table: newest first, one row per
 * run (each attempt is its own run). When the schedule retries (or an occurrence has more than one
 * attempt on the page), the attempts of one occurrence are grouped under a row that names the
 * occurrence and its outcome (`run-groups.ts`; grouping stays within the page, and a group says where
 * attempts on other pages are). Times are shown in the schedule's time zone (hover: the viewer's zone
 * and UTC). On a narrow screen (≤ 640 px) each run is a card of labelled lines instead of a table row.
 */
import Link from 'next/link';
import type { PendingRetry, Run, RunResult } from '@/lib/schedules/contract';
import { OutcomeBadge, RunStatusBadge } from './badges';
import { EXHAUSTED_WORDS } from './delivery-words';
import { formatDuration, shortId } from './format';
import { groupRuns, type OccurrenceGroup } from './run-groups';
import { deliveryResultWords, displayTarget, shownRuns, TargetLabel } from './targets';
import { ZonedTime } from './zoned-time';

/** Why an execution a run created is gone (lib/workflows `findDeletedExecutions`). */
export type DeletedExecutions = Map<string, 'session_deleted' | 'revision_deleted'>;

/**
 * A run's result: the execution it created (linked, unless `deleted` says it is gone), a webhook's
 * answer or an AWS service's (`HTTP 200 · excerpt…`, `SQS message 1234…`), or its error code and
 * message (SPEC §8.1, §13).
 */
export function RunResultCell({ result, deleted }: { result: RunResult; deleted?: DeletedExecutions }) {
  const delivered = deliveryResultWords(result);
  if (delivered) {
    return (
      <div className="cell-stack" title={delivered.full}>
        {delivered.code ? <code className="error-name">{delivered.code}</code> : null}
        <span className={`small break${delivered.ok ? '' : ' text-error'}`}>{delivered.text}</span>
        {'repeated_delivery' in result && result.repeated_delivery ? <span className="muted small">Sent again after an interrupted attempt (same id)</span> : null}
      </div>
    );
  }
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
  if (!('error' in result)) return null;
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
  if (result.error === 'overlap' && 'in_progress_run_id' in result) {
    return (
      <div className="cell-stack">
        <code className="error-name">overlap</code>
        <span className="small">
          not delivered: run <span className="mono">{result.in_progress_run_id}</span> was in progress
        </span>
      </div>
    );
  }
  return (
    <div className="cell-stack">
      <code className="error-name">{result.error}</code>
      {'message' in result && result.message ? <span className="small">{result.message}</span> : null}
    </div>
  );
}

export interface RunHistoryProps {
  runs: Run[];
  timezone: string;
  /** The scheduler's dead-letter page (`/schedulers/{rev}/dead-letters`): exhausted attempts and replays link there. */
  deadLettersHref: string;
  /** The schedule's backfills page (`…/schedules/{id}/backfills`): a backfill's run links to `<it>/<backfill id>`. */
  backfillsHref: string;
  /** Attempts an occurrence may make (`maximum_retry_attempts + 1`; 1 with only a dead letter), or null when it is not retried. */
  attemptsAllowed: number | null;
  /** The schedule's pending attempts (read before `runs`), for "retrying". */
  pending: PendingRetry[];
  /** Group attempts under their occurrence (off while a status filter shows only some attempts). */
  grouped: boolean;
  /** The executions of `runs` that no longer exist (shown without a link). */
  deleted?: DeletedExecutions;
  /**
   * The dead letters still listed, by the run that exhausted their occurrence (lib/schedules
   * `listedDeadLettersOfRuns`): an exhausted occurrence links to its own, or says it was dismissed.
   */
  listedDeadLetters?: ReadonlyMap<string, string>;
}

/** The columns' headers; each cell repeats its own as `data-label` for the cards of narrow screens. */
const COLUMNS = ['Status', 'Scheduled for', 'Recorded', 'Lateness', 'Trigger', 'Attempt', 'Execution / error', 'Target as fired'] as const;
const [STATUS, SCHEDULED_FOR, RECORDED, LATENESS, TRIGGER, ATTEMPT, OUTCOME, TARGET] = COLUMNS;

export function RunHistory(props: RunHistoryProps) {
  const { runs, grouped, attemptsAllowed } = props;
  const groups = groupRuns(runs, props.pending, props.listedDeadLetters);
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
        {grouped ? (
          groups.map((g) => {
            const headed = g.trigger === 'schedule' && (attemptsAllowed !== null || g.attempts.length > 1 || g.earlierElsewhere > 0);
            return (
              <tbody key={g.key} className={headed ? 'occurrence' : undefined} data-occurrence={g.trigger === 'schedule' ? g.scheduledFor : undefined}>
                {headed ? <OccurrenceRow group={g} {...props} /> : null}
                {[...g.attempts].reverse().map((run) => (
                  <RunRow key={run.id} run={run} {...props} />
                ))}
              </tbody>
            );
          })
        ) : (
          <tbody>
            {runs.map((run) => (
              <RunRow key={run.id} run={run} {...props} />
            ))}
          </tbody>
        )}
      </table>
    </div>
  );
}

/** "attempts 1–2", "attempt 1" */
const attemptRange = (from: number, to: number) => (from === to ? `attempt ${from}` : `attempts ${from}–${to}`);

/** The row above an occurrence's attempts: when it was scheduled, and how it ended. */
function OccurrenceRow({ group, timezone, deadLettersHref, attemptsAllowed }: { group: OccurrenceGroup } & RunHistoryProps) {
  const o = group.outcome;
  const shown = group.attempts.length;
  return (
    <tr className="occurrence-row">
      <th scope="rowgroup" colSpan={COLUMNS.length}>
        <span className="occurrence-title">
          Occurrence <ZonedTime instant={group.scheduledFor} zone={timezone} />
        </span>
        {o.kind === 'success' ? (
          <span className="occurrence-outcome">
            <span className="badge badge-ok">succeeded</span> on attempt {o.attempt}
            {attemptsAllowed ? ` of ${attemptsAllowed}` : ''}
          </span>
        ) : o.kind === 'exhausted' ? (
          <span className="occurrence-outcome">
            <span className="badge badge-error">{o.reason === 'cancelled' ? 'retries cancelled' : 'exhausted'}</span>{' '}
            {o.reason === 'cancelled' ? (
              <>after attempt {o.attempt}: the schedule was disabled or its target changed</>
            ) : (
              <>
                after {o.attempt} attempt{o.attempt === 1 ? '' : 's'}: {EXHAUSTED_WORDS[o.reason]}
                {o.deadLetter === 'dismissed' ? (
                  ' · dismissed from the dead letters'
                ) : (
                  <>
                    {' · '}
                    <Link href={o.deadLetter ? `${deadLettersHref}#dead-letter-${o.deadLetter.id}` : deadLettersHref}>in the dead letters</Link>
                  </>
                )}
              </>
            )}
          </span>
        ) : o.kind === 'retrying' ? (
          <span className="occurrence-outcome">
            <span className="badge badge-warn">retrying</span> attempt {o.attempt}
            {attemptsAllowed ? ` of ${attemptsAllowed}` : ''} is due at <ZonedTime instant={o.dueAt} zone={timezone} />
          </span>
        ) : o.kind === 'continued' ? (
          <span className="occurrence-outcome">
            <span className="badge badge-muted">continued</span> attempt {o.attempt} and later are on a newer page
          </span>
        ) : (
          <span className="occurrence-outcome">
            <span className="badge badge-error">failed</span> on attempt {o.attempt}, not retried
          </span>
        )}
        <span className="muted small">
          {group.earlierElsewhere > 0
            ? `${attemptRange(1, group.earlierElsewhere)} on an older page · ${shown} shown`
            : `${shown} attempt${shown === 1 ? '' : 's'}`}
        </span>
      </th>
    </tr>
  );
}

/** One run: an attempt of an occurrence, or a manual run. */
function RunRow({ run, timezone, attemptsAllowed, deadLettersHref, backfillsHref, deleted }: { run: Run } & RunHistoryProps) {
  const lateMs = Date.parse(run.created_at) - Date.parse(run.scheduled_for);
  const shown = displayTarget(run);
  const runs = shownRuns(shown);
  const scheduled = run.trigger === 'schedule';
  return (
    <tr data-run-id={run.id} data-attempt={run.attempt}>
      <td data-label={STATUS}>
        <div className="cell-stack">
          <RunStatusBadge status={run.status} />
          <RunOutcome run={run} timezone={timezone} />
        </div>
      </td>
      <td data-label={SCHEDULED_FOR}>
        <ZonedTime instant={run.scheduled_for} zone={timezone} />
      </td>
      <td data-label={RECORDED}>
        <ZonedTime instant={run.created_at} zone={timezone} />
      </td>
      <td data-label={LATENESS} className="num-left">
        {/* A backfill fires past occurrences on purpose: how long ago they were is no lateness. */}
        {run.trigger === 'backfill' ? <span className="muted">—</span> : formatDuration(lateMs)}
      </td>
      <td data-label={TRIGGER}>
        {scheduled ? (
          <span className="badge badge-info-outline">schedule</span>
        ) : run.trigger === 'backfill' ? (
          <span className="badge badge-muted">backfill</span>
        ) : (
          <span className="badge badge-muted">manual</span>
        )}
        {run.backfill_id ? (
          <div className="small">
            of backfill{' '}
            <Link className="mono" href={`${backfillsHref}/${run.backfill_id}`} title={run.backfill_id} data-testid="run-backfill-link">
              {shortId(run.backfill_id)}
            </Link>
          </div>
        ) : null}
        {run.dead_letter_id ? (
          <div className="small">
            replay of dead letter{' '}
            <Link className="mono" href={`${deadLettersHref}#dead-letter-${run.dead_letter_id}`} title={run.dead_letter_id}>
              {shortId(run.dead_letter_id)}
            </Link>
          </div>
        ) : null}
      </td>
      <td data-label={ATTEMPT}>
        <div className="cell-stack">
          <span className="nowrap">{scheduled && attemptsAllowed !== null ? `attempt ${run.attempt} of ${attemptsAllowed}` : `attempt ${run.attempt}`}</span>
          {run.next_attempt_at ? (
            <span className="small">
              next attempt at <ZonedTime instant={run.next_attempt_at} zone={timezone} />
            </span>
          ) : null}
          {run.exhausted ? <span className="small text-error">exhausted: {EXHAUSTED_WORDS[run.exhausted]}</span> : null}
        </div>
      </td>
      <td data-label={OUTCOME}>
        <RunResultCell result={run.result} deleted={deleted} />
      </td>
      <td data-label={TARGET}>
        <div className="cell-stack">
          <TargetLabel shown={shown} />
          {runs ? (
            <span className="muted small mono break">
              {runs.definition}
              {runs.source ? ` from ${runs.source}` : ''}
            </span>
          ) : null}
        </div>
      </td>
    </tr>
  );
}

/**
 * SPEC §16.1, §16.3: how the work the run started ended, how long it took, and the check-in's message;
 * nothing for a run without an outcome.
 */
function RunOutcome({ run, timezone }: { run: Run; timezone: string }) {
  if (!run.outcome) return null;
  const open = run.outcome === 'pending' || run.outcome === 'running';
  return (
    <span className="cell-stack small" data-outcome={run.outcome}>
      <span>
        <OutcomeBadge outcome={run.outcome} />
        {run.duration_ms !== undefined ? <span className="num-left"> {formatDuration(run.duration_ms)}</span> : null}
        {run.exit_code !== undefined ? <span className="mono"> exit {run.exit_code}</span> : null}
      </span>
      {open && run.started_at ? (
        <span>
          since <ZonedTime instant={run.started_at} zone={timezone} />
        </span>
      ) : null}
      {run.outcome_message ? <span className="outcome-message">{run.outcome_message}</span> : null}
    </span>
  );
}
