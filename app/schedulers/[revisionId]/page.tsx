import type { Metadata } from 'next';
import Form from 'next/form';
import { redirect } from 'next/navigation';
import { revisionOf, schedulerPage } from '@/app/lib/server';
import { oneOf, param, type SearchParams } from '@/app/lib/search-params';
import { AutoRefresh } from '@/components/auto-refresh';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { BulkEnable } from '@/components/bulk-enable';
import { ScheduleGrid } from '@/components/schedule-grid';
import { isDomainError } from '@/lib/errors';
import { listSchedules, SCHEDULE_STATES } from '@/lib/schedules';
import { enabledCounts, lastRunStatuses } from '@/lib/schedules';
import { deleteScheduleAction, runScheduleAction, setAllEnabledAction, setEnabledAction } from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Schedules' };

interface Props {
  params: Promise<{ revisionId: string }>;
  searchParams: Promise<SearchParams>;
}

/** A scheduler's schedules: `?cursor=` (API cursor, 50 a page), `?state=`, `?enabled=`; `?q=`/`?sort=` act in the grid. */
export default async function SchedulerPage({ params, searchParams }: Props) {
  const [{ revisionId: rawId }, sp] = await Promise.all([params, searchParams]);
  const { db, actor, scheduler } = await schedulerPage(rawId);
  const revisionId = scheduler.revisionId;
  const revision = revisionOf(scheduler);
  const state = oneOf(param(sp, 'state'), SCHEDULE_STATES);
  const enabled = oneOf(param(sp, 'enabled'), ['true', 'false'] as const);
  const cursor = param(sp, 'cursor') || null;

  let page: Awaited<ReturnType<typeof listSchedules>>;
  try {
    page = await listSchedules({ db, actor, revision, startScheduleId: cursor, state: state || undefined, enabled: enabled === '' ? undefined : enabled === 'true' });
  } catch (e) {
    // A cursor whose schedule was deleted meanwhile: start again from the first page.
    if (cursor && isDomainError(e) && e.code === 'schedule_not_found') redirect(`/schedulers/${revisionId}`);
    throw e;
  }
  const [lastRuns, counts] = await Promise.all([
    lastRunStatuses({ db, actor, revision, scheduleIds: page.schedules.map((s) => s.id) }),
    enabledCounts({ db, actor, revision }),
  ]);
  const canWrite = scheduler.role !== 'read';
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
          </p>
        </div>
        <div className="page-actions">
          <BulkEnable counts={counts} setAllEnabled={setAllEnabledAction.bind(null, revisionId)} canWrite={canWrite} />
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
          rows={page.schedules.map((s) => ({ schedule: s, lastRun: lastRuns[s.id] ?? null }))}
          actions={{
            setEnabled: setEnabledAction.bind(null, revisionId),
            run: runScheduleAction.bind(null, revisionId),
            remove: deleteScheduleAction.bind(null, revisionId),
          }}
          canWrite={canWrite}
          filters={{ state, enabled }}
          paging={{ cursor, nextCursor: page.last_schedule_id }}
          initialQuery={param(sp, 'q')}
          initialSort={param(sp, 'sort')}
          scheduleCount={scheduler.scheduleCount}
        />
      </section>
    </div>
  );
}
