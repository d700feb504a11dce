import type { Metadata } from 'next';
import Link from 'next/link';
import { orNotFound, revisionOf, schedulerPage } from '@/app/lib/server';
import { oneOf, param, type SearchParams } from '@/app/lib/search-params';
import { AutoRefresh } from '@/components/auto-refresh';
import { EnabledBadge, StateBadge } from '@/components/badges';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { Property } from '@/components/property';
import { formatLocalTime, formatUtc } from '@/components/format';
import { RunHistory } from '@/components/run-history';
import { ScheduleActions } from '@/components/schedule-actions';
import { ZonedTime } from '@/components/zoned-time';
import { describeAuthEntities, type AuthEntityInfo } from '@/lib/auth';
import { describeCron } from '@/lib/cron';
import { isDomainError } from '@/lib/errors';
import { scheduleArn } from '@/lib/api';
import { eventBridgeRegionOf, eventBridgeViewOfScheduler, getSchedule, listRuns, RUN_STATUSES, type Run } from '@/lib/schedules';
import { deleteScheduleAction, runScheduleAction, setEnabledAction } from '../../actions';

/** The region shown in a schedule's ARN when it was never saved through the EventBridge API (any region works). */
const SHOWN_REGION = 'us-east-1';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Schedule' };

interface Props {
  params: Promise<{ revisionId: string; scheduleId: string }>;
  searchParams: Promise<SearchParams>;
}

const STATUS_FILTERS = [
  { value: '', label: 'All' },
  { value: 'success', label: 'Success' },
  { value: 'limit_exceeded', label: 'Limit exceeded' },
  { value: 'invocation_error', label: 'Invocation error' },
] as const;

const none = <span className="muted">—</span>;

/** How many newer pages "← Newer" can step back through one at a time (then it starts from the newest). */
const HISTORY_BACK_STEPS = 40;

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

/** A schedule: its properties, its target field by field, and its runs under "Executions" (SPEC §10). */
export default async function SchedulePage({ params, searchParams }: Props) {
  const [p, sp] = await Promise.all([params, searchParams]);
  const { db, actor, scheduler } = await schedulerPage(p.revisionId);
  const revisionId = scheduler.revisionId;
  const revision = revisionOf(scheduler);
  const schedule = await orNotFound(getSchedule({ db, actor, revision, scheduleRef: p.scheduleId }));
  const [[creator], group, savedRegion] = await Promise.all([
    describeAuthEntities(db, [schedule.created_by]),
    eventBridgeViewOfScheduler(db, { orgId: scheduler.org.id, blobId: scheduler.blobId }),
    eventBridgeRegionOf(db, schedule.id),
  ]);
  const ebName = schedule.name ?? schedule.alias ?? schedule.id;
  const status = oneOf(param(sp, 'status'), RUN_STATUSES);
  const runsCursor = param(sp, 'runs') || null;
  // The cursors of the newer pages this one was reached through (`?back=c1.c2`), so "← Newer" can step
  // back one page; the API's cursor only goes older. At most HISTORY_BACK_STEPS are kept.
  const back = runsCursor ? param(sp, 'back').split('.').filter(Boolean).slice(-HISTORY_BACK_STEPS) : [];
  let runs: { executions: Run[]; last_execution_id: string | null } | null = null;
  let runsProblem: string | null = null;
  try {
    runs = await listRuns({ db, actor, revision, scheduleId: schedule.id, startExecutionId: runsCursor, status: status || undefined });
  } catch (e) {
    // A page cursor whose run was swept or deleted: say so and offer the first page.
    if (!(isDomainError(e) && e.code === 'invalid_request_body')) throw e;
    runsProblem = 'That page of the history no longer exists.';
  }

  const label = schedule.alias ?? schedule.id;
  const base = `/schedulers/${revisionId}`;
  const selfHref = `${base}/schedules/${schedule.id}`;
  // A workflow target in its parts; an `http` or `aws` target (EventBridge API) as its address and input.
  const t = schedule.invocation_target_type === 'workflow' ? schedule.invocation_target : null;
  const external =
    schedule.invocation_target_type === 'http'
      ? { term: 'URL', where: schedule.invocation_target.url, input: schedule.invocation_target.body, roleArn: undefined }
      : schedule.invocation_target_type === 'aws'
        ? { term: 'ARN', where: schedule.invocation_target.arn, input: schedule.invocation_target.input, roleArn: schedule.invocation_target.role_arn }
        : null;
  const following = t?.target.revision === 'default';
  let cronDescription: string | null = null;
  if (schedule.cron_expression) {
    try {
      cronDescription = describeCron(schedule.cron_expression);
    } catch {
      cronDescription = null;
    }
  }
  const runsHref = (cursor: string | null, s: string = status, backs: string[] = []) => {
    const q = new URLSearchParams();
    if (s) q.set('status', s);
    if (cursor) q.set('runs', cursor);
    if (cursor && backs.length) q.set('back', backs.slice(-HISTORY_BACK_STEPS).join('.'));
    const qs = q.toString();
    return qs ? `${selfHref}?${qs}` : selfHref;
  };
  const historyPage = runsCursor ? back.length + 2 : 1;

  return (
    <div className="page">
      <AutoRefresh intervalMs={5000} />
      <Breadcrumbs items={[{ label: 'Schedulers', href: '/schedulers' }, { label: scheduler.name, href: base }, { label }]} />
      <div className="page-header">
        <div>
          <h1 className="title-with-badges">
            <span className="break">{label}</span>
            <StateBadge state={schedule.state} />
            <EnabledBadge enabled={schedule.enabled} />
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
          }}
          canWrite={scheduler.role !== 'read'}
          afterDeleteHref={base}
        />
      </div>

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
          <Property term="Repeat">{schedule.repeat === 'one_time' ? 'One-time (one_time)' : 'Recurring (recurring_cron)'}</Property>
          {schedule.repeat === 'recurring_cron' ? (
            <Property term="Cron expression">
              <code>{schedule.cron_expression}</code>
              {cronDescription ? <div className="muted small">{cronDescription}</div> : null}
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
                <div className="muted small">{formatUtc(schedule.next_fire_at)}</div>
              </>
            ) : (
              <span className="muted">{schedule.state === 'completed' ? 'None: completed' : !schedule.enabled ? 'None while disabled' : 'None'}</span>
            )}
          </Property>
          <Property term="Created by">
            <CreatedBy who={creator} />
          </Property>
          <Property term="Skipped occurrences">{schedule.skipped_occurrences}</Property>
          <Property term="Created">
            <ZonedTime instant={schedule.created_at} zone={schedule.timezone} />
          </Property>
          <Property term="Updated">
            <ZonedTime instant={schedule.updated_at} zone={schedule.timezone} />
          </Property>
        </dl>
      </section>

      {group ? (
        <section className="container" aria-labelledby="eventbridge-title">
          <h2 id="eventbridge-title" className="container-title">
            EventBridge Scheduler API
          </h2>
          <dl className="properties">
            <Property term="Name">
              <span className="mono break" data-testid="eventbridge-name">{ebName}</span>
            </Property>
            <Property term="Schedule group">
              <span className="mono">{group.groupName}</span>
            </Property>
            <Property term="ARN">
              <span className="mono small break" data-testid="eventbridge-arn">
                {scheduleArn({ region: savedRegion ?? SHOWN_REGION, accountId: group.accountId }, group.groupName, ebName)}
              </span>
              <div className="muted small">
                {savedRegion ? `Region ${savedRegion}, as last saved through the API.` : `Any region works; ARNs carry the region a request is signed for.`}
              </div>
            </Property>
          </dl>
        </section>
      ) : null}

      <section className="container" aria-labelledby="target-title">
        <h2 id="target-title" className="container-title">
          Target
        </h2>
        {t ? (
          <>
            <div className="two-columns">
              <dl className="properties properties-single">
                <Property term="Type">{schedule.invocation_target_type}</Property>
                <Property term="Org">{t.target.org ? <span className="mono">{t.target.org}</span> : none}</Property>
                <Property term="Blob">
                  <span className="mono">{t.target.blob}</span>
                </Property>
                <Property term="Revision">
                  <span className="mono break">{t.target.revision}</span>
                  <div className="muted small">{following ? 'Following: the blob’s default revision at every fire' : 'Pinned to this revision'}</div>
                </Property>
                <Property term="Session">
                  <span className="mono break">{t.target.session}</span>
                </Property>
              </dl>
              <dl className="properties properties-single">
                <Property term="Workflow definition">
                  <span className="mono break">{t.workflow.definition}</span>
                </Property>
                <Property term="Workflow org">{t.workflow.org ? <span className="mono">{t.workflow.org}</span> : none}</Property>
                <Property term="Workflow blob">{t.workflow.blob ? <span className="mono">{t.workflow.blob}</span> : <span className="muted">The target’s own revision</span>}</Property>
                <Property term="Workflow revision">{t.workflow.blob ? <span className="mono break">{t.workflow.revision ?? 'default'}</span> : none}</Property>
              </dl>
            </div>
            <h3 className="subsection-title">Input data</h3>
            {t.input_data && t.input_data.length ? <pre className="code-block">{JSON.stringify(t.input_data, null, 2)}</pre> : <p className="muted">None</p>}
          </>
        ) : external ? (
          <>
            <dl className="properties properties-single">
              <Property term="Type">{schedule.invocation_target_type}</Property>
              <Property term={external.term}>
                <span className="mono break">{external.where}</span>
              </Property>
              {external.roleArn ? (
                <Property term="Role ARN">
                  <span className="mono break">{external.roleArn}</span>
                </Property>
              ) : null}
            </dl>
            <p className="muted small">Stored as sent through the EventBridge API. This build does not deliver to this target yet: each fire is recorded as a failed attempt (unsupported_target).</p>
            <h3 className="subsection-title">Input</h3>
            {external.input ? <pre className="code-block">{external.input}</pre> : <p className="muted">None</p>}
          </>
        ) : null}
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
          <RunHistory runs={runs.executions} timezone={schedule.timezone} />
        ) : null}
        {runs && (runsCursor || runs.last_execution_id) ? (
          <nav className="pager" aria-label="Execution pages">
            <span className="muted small">Newest first · 10 a page · page {historyPage}</span>
            <span className="pager-links">
              {runsCursor ? (
                <>
                  {back.length ? (
                    <Link href={runsHref(null)} className="btn btn-small">
                      « Newest
                    </Link>
                  ) : null}
                  <Link href={runsHref(back.at(-1) ?? null, status, back.slice(0, -1))} className="btn btn-small" rel="prev">
                    ← Newer
                  </Link>
                </>
              ) : null}
              {runs.last_execution_id ? (
                <Link href={runsHref(runs.last_execution_id, status, runsCursor ? [...back, runsCursor] : [])} className="btn btn-small" rel="next">
                  Older →
                </Link>
              ) : null}
            </span>
          </nav>
        ) : null}
      </section>
    </div>
  );
}
