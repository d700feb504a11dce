import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { orNotFound, overdueOf, revisionOf, schedulerPage, workerStatus } from '@/app/lib/server';
import { oneOf, param, type SearchParams } from '@/app/lib/search-params';
import { ActivityPanel } from '@/app/_components/activity-panel';
import { AutoRefresh } from '@/components/auto-refresh';
import { EnabledBadge, OverdueBadge, StateBadge } from '@/components/badges';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { TargetDetails } from '@/components/targets';
import { Property } from '@/components/property';
import { afterCompletionWords, attemptsAllowed, flexibleWindowWords, pauseAfterFailuresWords, retryPolicyWords } from '@/components/delivery-words';
import { formatLocalTime, formatUtc } from '@/components/format';
import { LocalTime } from '@/components/local-time';
import { backCursors, CursorPager, cursorQuery } from '@/components/cursor-pager';
import { RunHistory } from '@/components/run-history';
import { ScheduleActions } from '@/components/schedule-actions';
import { ZonedTime } from '@/components/zoned-time';
import { describeAuthEntities, type AuthEntityInfo } from '@/lib/auth';
import { describeCron, describeRate } from '@/lib/cron';
import { isDomainError } from '@/lib/errors';
import { eventBridgeViewOfScheduler, scheduleArn } from '@/lib/api';
import {
  getSchedule,
  inProgressRun,
  listBackfills,
  listedDeadLettersOfRuns,
  listRuns,
  pendingRetries,
  RUN_STATUSES,
  RUNS_PAGE_SIZE,
  type Paused,
  type Run,
  type RunStatus,
  type Schedule,
} from '@/lib/schedules';
import { findDeletedExecutions } from '@/lib/workflows';
import { backfillScheduleAction, cancelBackfillAction, deleteScheduleAction, describeScheduleDeletionAction, resumeWithCatchUpAction, runScheduleAction, setEnabledAction } from '../../actions';
import { BackfillPanel } from '@/components/backfill-panel';
import { ResumeWithCatchUp } from '@/components/resume-with-catch-up';

export const dynamic = 'force-dynamic';
/** The schedule page lists its latest backfills (SPEC §18.1); the backfills page lists them all. */
const LATEST_BACKFILLS = 5;
export const metadata: Metadata = { title: 'Schedule' };

interface Props {
  params: Promise<{ revisionId: string; scheduleId: string }>;
  searchParams: Promise<SearchParams>;
}

/** The Executions filter's words for each run status (SPEC §8.1; `skipped`: the overlap policy's, §16.2). */
const STATUS_LABELS: Record<RunStatus, string> = { success: 'Success', limit_exceeded: 'Limit exceeded', invocation_error: 'Invocation error', skipped: 'Skipped' };
/** All, then one per run status: every status the history can hold is a filter. */
const STATUS_FILTERS = [{ value: '', label: 'All' }, ...RUN_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }))];

const none = <span className="muted">—</span>;

/**
 * Who created the schedule, in human terms: a user by name and email (they used a browser login or a
 * personal API key), an org by name and alias (it acts only through an org API key). The raw id stays
 * in the title; a deleted user or org shows its id.
 */
function CreatedBy({ who }: { who: AuthEntityInfo }) {
  const title = `created_by: {type: "${who.type}", id: "${who.id}"}`;
  if (!who.exists) {
    return (
      <div title={title}>
        {who.type === 'user' ? 'Deleted user' : 'Deleted org'} <span className="mono small break">{who.id}</span>
      </div>
    );
  }
  return (
    <div title={title}>
      {who.label}
      {who.detail ? <span className={who.type === 'org' ? 'mono small muted' : 'small muted'}> ({who.detail})</span> : null}
      <div className="muted small">{who.type === 'user' ? 'User: browser login or personal API key' : 'Org: through an org API key'}</div>
    </div>
  );
}

/** The repeat of SPEC §5.1 / §12.1 in words, with its wire name. */
const REPEAT_WORDS: Record<Schedule['repeat'], string> = {
  one_time: 'One-time (one_time)',
  recurring_cron: 'Recurring (recurring_cron)',
  recurring_rate: 'Recurring (recurring_rate)',
};

/** A cron or rate expression in words, or null when it does not parse (it was stored, so it should). */
function cadenceWords(schedule: Schedule): string | null {
  try {
    if (schedule.repeat === 'recurring_cron' && schedule.cron_expression) return describeCron(schedule.cron_expression);
    if (schedule.repeat === 'recurring_rate' && schedule.rate_expression) return describeRate(schedule.rate_expression);
  } catch {
    return null;
  }
  return null;
}

/**
 * Why a disabled schedule is disabled (SPEC §12.5 `paused`): who (a user or org by name, as the page
 * names creators; "the scheduler" for an automatic pause), when (in the viewer's zone), by Pause all
 * when bulk, and its note.
 */
function PausedNotice({ paused, who }: { paused: Paused; who: AuthEntityInfo | null }) {
  const by = paused.by.type === 'system' ? 'the scheduler' : who ? (who.exists ? who.label : `${who.type === 'user' ? 'a deleted user' : 'a deleted org'} (${who.id})`) : paused.by.type;
  return (
    <div className="alert alert-info paused-notice" data-testid="paused">
      <strong>Disabled</strong> by {by}
      {who?.exists && who.detail ? <span className="small muted"> ({who.detail})</span> : null} at <LocalTime instant={paused.at} />
      {paused.bulk ? ' by Pause all' : ''}
      {paused.by.type === 'system' ? ' after consecutive failed occurrences' : ''}.
      {paused.note ? (
        <>
          {' '}
          Note: <q>{paused.note}</q>
        </>
      ) : null}
    </div>
  );
}

/** A schedule: its properties, its target field by field, and its runs under "Executions" (SPEC §10). */
export default async function SchedulePage({ params, searchParams }: Props) {
  const [p, sp] = await Promise.all([params, searchParams]);
  const { db, actor, scheduler, homeRegion } = await schedulerPage(p.revisionId);
  const revisionId = scheduler.revisionId;
  const revision = revisionOf(scheduler);
  const schedule = await orNotFound(getSchedule({ db, actor, revision, scheduleRef: p.scheduleId }));
  const pausedBy = schedule.paused && schedule.paused.by.type !== 'system' ? schedule.paused.by : null;
  const [[creator, pauser], workers, group] = await Promise.all([
    describeAuthEntities(db, pausedBy ? [schedule.created_by, pausedBy] : [schedule.created_by]),
    workerStatus(),
    eventBridgeViewOfScheduler(db, { orgId: scheduler.org.id, blobId: scheduler.blobId, homeRegion }),
  ]);
  const overdue = overdueOf(schedule.next_fire_at, workers);
  // Pending attempts before the runs: an attempt made in between then shows among the runs (run-groups.ts).
  const [pendingBySchedule, inProgress] = await Promise.all([
    pendingRetries({ db, actor, revision, scheduleIds: [schedule.id] }),
    inProgressRun({ db, actor, revision, scheduleId: schedule.id }),
  ]);
  const pending = pendingBySchedule[schedule.id] ?? [];
  // SPEC §18.1: the schedule's latest backfills with their progress; the page refreshes every second while one runs.
  // Older ones are on the backfills page ("Show all backfills"), each with a view of its own.
  const { backfills, last_backfill_id: moreBackfills } = await listBackfills({ db, actor, revision, scheduleRef: schedule.id, pageSize: LATEST_BACKFILLS });
  const backfilling = backfills.some((b) => b.state === 'running');
  const status = oneOf(param(sp, 'status'), RUN_STATUSES);
  const runsCursor = param(sp, 'runs') || null;
  // The cursors of the newer pages this one was reached through, for "← Newer" (components/cursor-pager.tsx).
  const back = backCursors(param(sp, 'back'), runsCursor);
  let runs: { executions: Run[]; last_execution_id: string | null } | null = null;
  let runsProblem: string | null = null;
  try {
    runs = await listRuns({ db, actor, revision, scheduleId: schedule.id, startExecutionId: runsCursor, status: status || undefined });
  } catch (e) {
    // A page cursor whose run was swept or deleted: say so and offer the first page.
    if (!(isDomainError(e) && e.code === 'invalid_request_body')) throw e;
    runsProblem = 'That page of the history no longer exists.';
  }

  // Runs whose execution is gone (deleted with its session or revision) show no link to it; an
  // exhausted occurrence says whether its dead letter is still listed or was dismissed.
  const [deletedExecutions, listedDeadLetters] = await Promise.all([
    findDeletedExecutions(
      db,
      (runs?.executions ?? []).flatMap((r) => ('execution_id' in r.result ? [{ executionId: r.result.execution_id, revisionId: r.result.revision_id }] : [])),
    ),
    listedDeadLettersOfRuns({ db, actor, revision, runIds: (runs?.executions ?? []).flatMap((r) => (r.exhausted && r.exhausted !== 'cancelled' ? [r.id] : [])) }),
  ]);
  const label = schedule.alias ?? schedule.id;
  const base = `/schedulers/${revisionId}`;
  const selfHref = `${base}/schedules/${schedule.id}`;
  const words = cadenceWords(schedule);
  const deadLettersHref = `${base}/dead-letters`;
  const runsHref = (cursor: string | null, s: string = status, backs: string[] = []) => {
    const q = cursorQuery(new URLSearchParams(s ? { status: s } : {}), 'runs', cursor, backs).toString();
    return q ? `${selfHref}?${q}` : selfHref;
  };

  // The page's content is one Suspense boundary, inside the page (after the 404 checks above, so a
  // refused or missing schedule still answers 404): a component that suspends while the page hydrates
  // (its code still loading) leaves the boundary to be retried, instead of failing hydration of the
  // whole document (React #418 on about 1 load in 11 without it; docs/decisions.md).
  return (
    <Suspense>
      <div className="page">
        <AutoRefresh intervalMs={backfilling ? 1000 : 5000} />
        <Breadcrumbs items={[{ label: 'Schedulers', href: '/schedulers' }, { label: scheduler.name, href: base }, { label }]} />
        <div className="page-header">
          <div>
            <h1 className="title-with-badges">
              <span className="break">{label}</span>
              <StateBadge state={schedule.state} />
              <EnabledBadge enabled={schedule.enabled} state={schedule.state} />
            </h1>
            {schedule.description ? <p className="page-intro">{schedule.description}</p> : null}
          </div>
          <ScheduleActions
            variant="bar"
            schedule={{ id: schedule.id, label, enabled: schedule.enabled, state: schedule.state }}
            editHref={`${selfHref}/edit`}
            actions={{
              setEnabled: setEnabledAction.bind(null, revisionId),
              run: runScheduleAction.bind(null, revisionId),
              remove: deleteScheduleAction.bind(null, revisionId),
              describeDeletion: describeScheduleDeletionAction.bind(null, revisionId),
            }}
            canWrite={scheduler.role !== 'read'}
            afterDeleteHref={base}
          />
        </div>

        {!schedule.enabled && schedule.paused ? <PausedNotice paused={schedule.paused} who={pauser ?? null} /> : null}
        {!schedule.enabled && schedule.state === 'active' && scheduler.role !== 'read' ? (
          <ResumeWithCatchUp scheduleId={schedule.id} version={schedule.version} pausedAt={schedule.paused?.at ?? null} timezone={schedule.timezone} resume={resumeWithCatchUpAction.bind(null, revisionId)} />
        ) : null}
        {inProgress ? (
          <p className="alert alert-info" data-testid="in-progress">
            In progress since <ZonedTime instant={inProgress.since} zone={schedule.timezone} /> ({inProgress.outcome === 'running' ? 'started' : 'delivered, no check-in yet'})
            {inProgress.due_at ? (
              <>
                ; times out at <ZonedTime instant={inProgress.due_at} zone={schedule.timezone} />
              </>
            ) : null}
            .
          </p>
        ) : null}

        <section className="container" aria-labelledby="details-title">
          <h2 id="details-title" className="container-title">
            Schedule details
          </h2>
          <dl className="properties">
            <Property term="Alias">{schedule.alias ? <span className="mono">{schedule.alias}</span> : none}</Property>
            <Property term="Id">
              <span className="mono small break">{schedule.id}</span>
            </Property>
            <Property term="Description">{schedule.description ?? none}</Property>
            <Property term="Repeat">{REPEAT_WORDS[schedule.repeat]}</Property>
            {schedule.repeat === 'recurring_cron' ? (
              <Property term="Cron expression">
                <code>{schedule.cron_expression}</code>
                {words ? <div className="muted small">{words}</div> : null}
              </Property>
            ) : schedule.repeat === 'recurring_rate' ? (
              <Property term="Rate">
                <code>{schedule.rate_expression}</code>
                {words ? <div className="muted small">{words}</div> : null}
                <div className="muted small">{schedule.start_date ? 'Counted from the start date' : 'Counted from the next whole minute after it was saved'}; unaffected by daylight saving.</div>
              </Property>
            ) : (
              <Property term="Invocation time">
                <span className="mono">{formatLocalTime(schedule.invocation_time ?? '')}</span>
                <div className="muted small">local time in {schedule.timezone}</div>
              </Property>
            )}
            <Property term="Timezone">{schedule.timezone}</Property>
            <Property term="Time window (UTC)">
              {schedule.start_date || schedule.end_date ? (
                <span className="small">
                  {schedule.start_date ? formatUtc(schedule.start_date) : 'no start'} → {schedule.end_date ? formatUtc(schedule.end_date) : 'no end'}
                </span>
              ) : (
                <span className="muted">No start or end date</span>
              )}
            </Property>
            <Property term="Enabled">{schedule.enabled ? 'Yes' : 'No'}</Property>
            <Property term="State">{schedule.state}</Property>
            <Property term="Next fire">
              {schedule.next_fire_at ? (
                <>
                  <ZonedTime instant={schedule.next_fire_at} zone={schedule.timezone} />
                  {overdue ? <> <OverdueBadge why={overdue} /></> : null}
                  <div className="muted small">{formatUtc(schedule.next_fire_at)}</div>
                </>
              ) : (
                <span className="muted">{schedule.state === 'completed' ? 'None: completed' : !schedule.enabled ? 'None while disabled' : 'None'}</span>
              )}
            </Property>
            <Property term="Created by">
              <CreatedBy who={creator} />
            </Property>
            {pending.some((p) => p.waiting) ? (
              <Property term="Waiting">
                {pending.filter((p) => p.waiting).map((p) => (
                  <div key={`${p.scheduled_for}|${p.attempt}`} className="small">
                    The occurrence <ZonedTime instant={p.scheduled_for} zone={schedule.timezone} /> waits for the run in progress (overlap: buffer_one)
                  </div>
                ))}
              </Property>
            ) : null}
            {pending.some((p) => !p.waiting) ? (
              <Property term="Retrying">
                {pending.filter((p) => !p.waiting).map((p) => (
                  <div key={`${p.scheduled_for}|${p.attempt}`} className="small">
                    Attempt {p.attempt} of the occurrence <ZonedTime instant={p.scheduled_for} zone={schedule.timezone} /> is due at{' '}
                    <ZonedTime instant={p.due_at} zone={schedule.timezone} />
                  </div>
                ))}
              </Property>
            ) : null}
            <Property term="Skipped occurrences">{schedule.skipped_occurrences}</Property>
            <Property term="Created">
              <ZonedTime instant={schedule.created_at} zone={schedule.timezone} />
            </Property>
            <Property term="Updated">
              <ZonedTime instant={schedule.updated_at} zone={schedule.timezone} />
            </Property>
          </dl>
        </section>

        <section className="container" aria-labelledby="delivery-title">
          <h2 id="delivery-title" className="container-title">
            Delivery
          </h2>
          <dl className="properties">
            <Property term="Retry policy">
              {retryPolicyWords(schedule.retry_policy, Boolean(schedule.dead_letter))}
              {schedule.retry_policy ? (
                <div className="muted small mono">
                  maximum_retry_attempts {schedule.retry_policy.maximum_retry_attempts} · maximum_event_age_seconds {schedule.retry_policy.maximum_event_age_seconds.toLocaleString('en-US')}
                </div>
              ) : null}
            </Property>
            <Property term="Dead-letter queue">
              {schedule.dead_letter ? <span className="mono small break">{schedule.dead_letter.arn}</span> : <span className="muted">None</span>}
              <div className="muted small">
                Exhausted occurrences are also kept in the <Link href={deadLettersHref}>scheduler’s dead letters</Link>.
              </div>
            </Property>
            <Property term="Flexible time window">{flexibleWindowWords(schedule.flexible_time_window)}</Property>
            <Property term="After completion">{afterCompletionWords(schedule.action_after_completion)}</Property>
            <Property term="Pause after failures">{pauseAfterFailuresWords(schedule.pause_after_failures)}</Property>
          </dl>
        </section>

        {group ? (
          <section className="container" aria-labelledby="eventbridge-title">
            <h2 id="eventbridge-title" className="container-title">
              EventBridge Scheduler API
            </h2>
            <dl className="properties">
              <Property term="Name">
                <span className="mono break" data-testid="eventbridge-name">{schedule.name}</span>
              </Property>
              <Property term="Schedule group">
                <span className="mono">{group.groupName}</span>
              </Property>
              <Property term="Region">
                <span className="mono" data-testid="eventbridge-region">{group.region}</span>
                <div className="muted small">Requests signed for another region do not see this schedule.</div>
              </Property>
              <Property term="ARN">
                <span className="mono small break" data-testid="eventbridge-arn">
                  {scheduleArn({ region: group.region, accountId: group.accountId }, group.groupName, schedule.name)}
                </span>
              </Property>
            </dl>
          </section>
        ) : null}

        <section className="container" aria-labelledby="target-title">
          <h2 id="target-title" className="container-title">
            Target
          </h2>
          {/* Every field as saved and what each fire sends, in the target type's own words (components/targets). */}
          <TargetDetails target={schedule} />
        </section>

        <section className="container container-flush" aria-labelledby="executions-title">
          <div className="container-header">
            <h2 id="executions-title" className="container-title">
              Executions
            </h2>
            <nav aria-label="Filter executions by status" className="segmented">
              {STATUS_FILTERS.map((f) => (
                <Link key={f.value} href={runsHref(null, f.value)} aria-current={status === f.value ? 'page' : undefined} className="segment">
                  {f.label}
                </Link>
              ))}
            </nav>
          </div>
          {runsProblem ? (
            <div className="empty-inline">
              <p>{runsProblem}</p>
              <Link href={runsHref(null)} className="btn">
                First page
              </Link>
            </div>
          ) : runs && runs.executions.length === 0 ? (
            <div className="empty-inline">
              <p>{status || runsCursor ? 'No fires match this filter.' : 'No fires yet.'}</p>
              {schedule.next_fire_at && !status && !runsCursor ? (
                <p className="muted small">
                  The next fire is due at <ZonedTime instant={schedule.next_fire_at} zone={schedule.timezone} />; this page refreshes by itself.
                </p>
              ) : null}
            </div>
          ) : runs ? (
            <RunHistory
              runs={runs.executions}
              timezone={schedule.timezone}
              deadLettersHref={deadLettersHref}
              backfillsHref={`${base}/schedules/${schedule.id}/backfills`}
              attemptsAllowed={attemptsAllowed(schedule)}
              pending={pending}
              grouped={!status}
              deleted={deletedExecutions}
              listedDeadLetters={listedDeadLetters}
            />
          ) : null}
          {runs ? (
            <CursorPager
              label="Execution pages"
              pageSize={RUNS_PAGE_SIZE}
              cursor={runsCursor}
              back={back}
              next={runs.last_execution_id}
              href={(cursor, backs) => runsHref(cursor, status, backs)}
            />
          ) : null}
        </section>

        <BackfillPanel
          scheduleId={schedule.id}
          timezone={schedule.timezone}
          backfills={backfills}
          limit={LATEST_BACKFILLS}
          canWrite={scheduler.role !== 'read'}
          canBackfill={schedule.state === 'active'}
          backfillsHref={`${base}/schedules/${schedule.id}/backfills`}
          moreHref={moreBackfills ? `${base}/schedules/${schedule.id}/backfills` : undefined}
          actions={{ backfill: backfillScheduleAction.bind(null, revisionId), cancel: cancelBackfillAction.bind(null, revisionId) }}
        />

        <ActivityPanel list={{ db, actor, revision, scheduleRef: schedule.id }} limit={10} scheduleHref={(id) => `${base}/schedules/${id}`} />
      </div>
    </Suspense>
  );
}
