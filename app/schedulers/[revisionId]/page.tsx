import type { Metadata } from 'next';
import Form from 'next/form';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { overdueOf, revisionOf, schedulerPage, workerStatus } from '@/app/lib/server';
import { ActivityPanel } from '@/app/_components/activity-panel';
import { oneOf, param, type SearchParams } from '@/app/lib/search-params';
import { AutoRefresh } from '@/components/auto-refresh';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { BulkEnable } from '@/components/bulk-enable';
import { CatalogForm } from '@/components/catalog/catalog-form';
import { ScheduleGrid } from '@/components/schedule-grid';
import { eventBridgeViewOfScheduler } from '@/lib/api';
import { browseSchedules, countDeadLetters, failingAlertChannels, describeSchedulerDeletion, enabledCounts, lastRunStatuses, pendingRetries, RUN_OUTCOMES, SCHEDULE_SORT_KEYS, SCHEDULE_STATES } from '@/lib/schedules';
import { deleteScheduleAction, deleteSchedulerAction, describeScheduleDeletionAction, runScheduleAction, setAllEnabledAction, setEnabledAction } from './actions';
import { displayTarget } from '@/components/targets';
import { DEFAULT_SCHEDULER, isDefaultScheduler } from '@/lib/workflows';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Schedules' };

interface Props {
  params: Promise<{ revisionId: string }>;
  searchParams: Promise<SearchParams>;
}

/**
 * A scheduler's schedules, searched, filtered, sorted and paged on the server (50 a page) from the URL:
 * `?q=` text, `?state=`, `?enabled=`, `?outcome=` (the newest run's, SPEC §16.3), `?sort=` a sort key (`-` first for descending), `?page=` 1-based.
 */
export default async function SchedulerPage({ params, searchParams }: Props) {
  const [{ revisionId: rawId }, sp] = await Promise.all([params, searchParams]);
  const { db, actor, scheduler, homeRegion } = await schedulerPage(rawId);
  const revisionId = scheduler.revisionId;
  const revision = revisionOf(scheduler);
  const state = oneOf(param(sp, 'state'), SCHEDULE_STATES);
  const enabled = oneOf(param(sp, 'enabled'), ['true', 'false'] as const);
  const outcome = oneOf(param(sp, 'outcome'), RUN_OUTCOMES);
  const query = param(sp, 'q');
  const sortParam = param(sp, 'sort');
  const sort = oneOf(sortParam.replace(/^-/, ''), SCHEDULE_SORT_KEYS);
  const descending = sort !== '' && sortParam.startsWith('-');

  const requestedPage = Math.max(1, Math.floor(Number(param(sp, 'page')) || 1));
  const page = await browseSchedules({
    db,
    actor,
    revision,
    state: state || undefined,
    enabled: enabled === '' ? undefined : enabled === 'true',
    outcome: outcome || undefined,
    query,
    sort: sort || undefined,
    descending,
    page: requestedPage,
  });
  // A page past the end (schedules deleted meanwhile, an old link) shows the last page: say so in the URL.
  if (requestedPage > 1 && page.page !== requestedPage) {
    const params = new URLSearchParams(Object.entries(sp).flatMap(([k, v]) => (typeof v === 'string' && k !== 'page' ? [[k, v]] : [])));
    if (page.page > 1) params.set('page', String(page.page));
    redirect(params.size ? `/schedulers/${revisionId}?${params}` : `/schedulers/${revisionId}`);
  }
  const pageIds = page.schedules.map((s) => s.id);
  const [lastRuns, retries, counts, deadLetters, workers, group, failingChannels] = await Promise.all([
    lastRunStatuses({ db, actor, revision, scheduleIds: pageIds }),
    pendingRetries({ db, actor, revision, scheduleIds: pageIds }),
    enabledCounts({ db, actor, revision }),
    countDeadLetters(db, revisionId),
    workerStatus(),
    eventBridgeViewOfScheduler(db, { orgId: scheduler.org.id, blobId: scheduler.blobId, homeRegion }),
    failingAlertChannels(db, revisionId),
  ]);
  const canWrite = scheduler.role !== 'read';
  // Deleting the scheduler needs admin on it; its confirmation says what goes with it. The org's
  // default scheduler is never deleted (SPEC §14): its control says why instead.
  const [deletion, isDefault] = scheduler.role === 'admin' ? await Promise.all([describeSchedulerDeletion({ db, actor, revision }), isDefaultScheduler(db, scheduler.blobId)]) : [null, false];
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  const orgLabel = scheduler.org.alias ?? scheduler.org.name;

  return (
    <div className="page page-wide">
      <AutoRefresh intervalMs={10_000} />
      <Breadcrumbs items={[{ label: 'Schedulers', href: '/schedulers' }, { label: orgLabel }, { label: scheduler.name }]} />
      <div className="page-header">
        <div>
          <h1>{scheduler.name}</h1>
          <p className="page-intro">
            {scheduler.org.name}
            {scheduler.alias ? (
              <>
                {' · '}
                <span className="mono">{scheduler.alias}</span>
              </>
            ) : null}
            {' · revision '}
            <span className="mono small">{revisionId}</span>
            {' · '}
            <Link href={`/schedulers/${revisionId}/dead-letters`} className={deadLetters ? 'strong-link' : undefined}>
              {deadLetters === 0 ? 'No dead letters' : `${deadLetters.toLocaleString('en-US')} dead letter${deadLetters === 1 ? '' : 's'}`}
            </Link>
            {' · '}
            <Link href={`/schedulers/${revisionId}/alerts`}>Alerts</Link>
          </p>
          {failingChannels.length > 0 ? (
            <p className="alert alert-error" role="alert" data-testid="alert-channels-failing">
              Alert channel{failingChannels.length === 1 ? '' : 's'} {failingChannels.map((c) => c.name).join(', ')} {failingChannels.length === 1 ? 'is' : 'are'} failing: the last send answered{' '}
              {failingChannels[0].message}. <Link href={`/schedulers/${revisionId}/alerts`}>See the alert log</Link>.
            </p>
          ) : null}
          {group ? (
            <p className="small muted" data-testid="schedule-group">
              EventBridge schedule group <span className="mono">{group.groupName}</span> (region{' '}
              <span className="mono" data-testid="schedule-group-region">{group.region}</span>, account <span className="mono">{group.accountId}</span>)
              {group.tags.length ? (
                <>
                  {' · tags '}
                  {group.tags.map((t) => (
                    <span key={t.key} className="badge badge-muted mono">
                      {t.key}={t.value}
                    </span>
                  ))}
                </>
              ) : null}
            </p>
          ) : null}
        </div>
        <div className="page-actions">
          <BulkEnable counts={counts} setAllEnabled={setAllEnabledAction.bind(null, revisionId)} canWrite={canWrite} />
          {scheduler.role === 'admin' ? (
            <Link className="btn" href={`/schedulers/${revisionId}/settings`}>
              Settings
            </Link>
          ) : null}
          {canWrite ? (
            <Form action={`/schedulers/${revisionId}/new`}>
              <button type="submit" className="btn btn-primary">
                New Schedule
              </button>
            </Form>
          ) : null}
        </div>
      </div>

      <section className="container container-flush" aria-labelledby="schedules-title">
        <h2 id="schedules-title" className="container-title container-title-padded">
          Schedules <span className="count">({scheduler.scheduleCount})</span>
        </h2>
        <ScheduleGrid
          revisionId={revisionId}
          rows={page.schedules.map((s) => ({
            schedule: {
              id: s.id,
              alias: s.alias,
              description: s.description,
              repeat: s.repeat,
              invocation_time: s.invocation_time,
              cron_expression: s.cron_expression,
              rate_expression: s.rate_expression,
              timezone: s.timezone,
              state: s.state,
              enabled: s.enabled,
              next_fire_at: s.next_fire_at,
              invocation_target: displayTarget(s),
            },
            lastRun: lastRuns[s.id] ?? null,
            retry: retries[s.id]?.find((p) => !p.waiting) ?? null,
            waiting: retries[s.id]?.find((p) => p.waiting) ?? null,
            overdue: overdueOf(s.next_fire_at, workers),
          }))}
          actions={{
            setEnabled: setEnabledAction.bind(null, revisionId),
            run: runScheduleAction.bind(null, revisionId),
            remove: deleteScheduleAction.bind(null, revisionId),
            describeDeletion: describeScheduleDeletionAction.bind(null, revisionId),
          }}
          canWrite={canWrite}
          query={{ q: query, state, enabled, outcome, sort: sort ? `${descending ? '-' : ''}${sort}` : '' }}
          paging={{ page: page.page, pageCount: page.pageCount, pageSize: page.pageSize, total: page.total }}
          scheduleCount={scheduler.scheduleCount}
        />
      </section>
      <ActivityPanel list={{ db, actor, revision }} limit={20} scheduleHref={(id) => `/schedulers/${revisionId}/schedules/${id}`} />
      {deletion ? (
        <section className="container" aria-labelledby="delete-scheduler-title">
          <h2 id="delete-scheduler-title" className="container-title">
            Delete this scheduler
          </h2>
          {isDefault ? (
            <>
              <p className="muted" id="delete-scheduler-why">
                This is the org’s default scheduler (EventBridge schedule group <span className="mono">{DEFAULT_SCHEDULER}</span>): it is never deleted. Delete or disable its schedules instead.
              </p>
              <button type="button" className="btn btn-small btn-danger-outline" disabled aria-describedby="delete-scheduler-why">
                Delete scheduler
              </button>
            </>
          ) : (
            <>
              <p className="muted">Its schedules stop firing and are deleted with their run history. Workflow executions they created are kept.</p>
              <CatalogForm
                action={deleteSchedulerAction.bind(null, revisionId)}
                submitLabel="Delete scheduler"
                label={`Delete ${scheduler.name}`}
                variant="danger"
                confirm={{
                  title: `Delete scheduler ${scheduler.name}?`,
                  body: (
                    <p>
                      {deletion.schedules === 0
                        ? 'It holds no schedules.'
                        : `Its ${plural(deletion.schedules, 'schedule')} and their ${plural(deletion.runs, 'run record')} are deleted with it; nothing of it fires again.`}{' '}
                      {deadLetters > 0 ? `Its ${plural(deadLetters, 'dead letter')} go too. ` : ''}
                      This cannot be undone.
                    </p>
                  ),
                }}
              />
            </>
          )}
        </section>
      ) : null}
    </div>
  );
}
