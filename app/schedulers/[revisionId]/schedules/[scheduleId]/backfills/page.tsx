import type { Metadata } from 'next';
import Link from 'next/link';
import { Suspense } from 'react';
import { orNotFound, revisionOf, schedulerPage } from '@/app/lib/server';
import { param, type SearchParams } from '@/app/lib/search-params';
import { AutoRefresh } from '@/components/auto-refresh';
import { BackfillPanel } from '@/components/backfill-panel';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { backCursors, CursorPager, cursorQuery } from '@/components/cursor-pager';
import { BACKFILLS_PAGE_SIZE, getSchedule, listBackfills } from '@/lib/schedules';
import { backfillScheduleAction, cancelBackfillAction } from '../../../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Backfills' };

interface Props {
  params: Promise<{ revisionId: string; scheduleId: string }>;
  searchParams: Promise<SearchParams>;
}

/** Every backfill of one schedule (SPEC §18.1 `list_backfills`), newest first, 20 a page, each linking to its own view. */
export default async function ScheduleBackfillsPage({ params, searchParams }: Props) {
  const [p, sp] = await Promise.all([params, searchParams]);
  const { db, actor, scheduler } = await schedulerPage(p.revisionId);
  const revision = revisionOf(scheduler);
  const schedule = await orNotFound(getSchedule({ db, actor, revision, scheduleRef: p.scheduleId }));
  const cursor = param(sp, 'after') || null;
  const back = backCursors(param(sp, 'back'), cursor);
  const page = await orNotFound(listBackfills({ db, actor, revision, scheduleRef: schedule.id, startBackfillId: cursor }));
  const base = `/schedulers/${p.revisionId}`;
  const scheduleHref = `${base}/schedules/${schedule.id}`;
  const selfHref = `${scheduleHref}/backfills`;
  const label = schedule.alias ?? schedule.id;
  const href = (c: string | null, backs: string[]) => {
    const q = cursorQuery(new URLSearchParams(), 'after', c, backs).toString();
    return q ? `${selfHref}?${q}` : selfHref;
  };
  return (
    <Suspense>
      <div className="page">
        <AutoRefresh intervalMs={page.backfills.some((b) => b.state === 'running') ? 1000 : 5000} />
        <Breadcrumbs items={[{ label: 'Schedulers', href: '/schedulers' }, { label: scheduler.name, href: base }, { label, href: scheduleHref }, { label: 'Backfills' }]} />
        <div className="page-header">
          <h1>Backfills of {label}</h1>
        </div>
        <p className="small">
          <Link href={scheduleHref}>← Back to the schedule</Link> (Backfill… starts a new one there)
        </p>
        <BackfillPanel
          // Another page of the list is another panel: what this one's actions answered stays with it.
          key={cursor ?? 'newest'}
          scheduleId={schedule.id}
          timezone={schedule.timezone}
          backfills={page.backfills}
          canWrite={scheduler.role !== 'read'}
          canBackfill={false}
          backfillsHref={selfHref}
          title="All backfills"
          actions={{ backfill: backfillScheduleAction.bind(null, p.revisionId), cancel: cancelBackfillAction.bind(null, p.revisionId) }}
        />
        <CursorPager label="Backfill pages" pageSize={BACKFILLS_PAGE_SIZE} cursor={cursor} back={back} next={page.last_backfill_id} href={href} />
      </div>
    </Suspense>
  );
}
