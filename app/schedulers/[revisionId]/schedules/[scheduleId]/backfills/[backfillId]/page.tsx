import type { Metadata } from 'next';
import Link from 'next/link';
import { notFound } from 'next/navigation';
import { Suspense } from 'react';
import { orNotFound, revisionOf, schedulerPage } from '@/app/lib/server';
import { AutoRefresh } from '@/components/auto-refresh';
import { BackfillPanel } from '@/components/backfill-panel';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { shortId } from '@/components/format';
import { getBackfill, getSchedule } from '@/lib/schedules';
import { backfillScheduleAction, cancelBackfillAction } from '../../../../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Backfill' };

interface Props {
  params: Promise<{ revisionId: string; scheduleId: string; backfillId: string }>;
}

/** One backfill (SPEC §18.1 `get_backfill`): its range, progress and Cancel — what a history row's "backfill" link opens. */
export default async function BackfillPage({ params }: Props) {
  const p = await params;
  const { db, actor, scheduler } = await schedulerPage(p.revisionId);
  const revision = revisionOf(scheduler);
  const schedule = await orNotFound(getSchedule({ db, actor, revision, scheduleRef: p.scheduleId }));
  const backfill = await orNotFound(getBackfill({ db, actor, revision, backfillRef: p.backfillId }));
  // A backfill of another schedule is not this schedule's.
  if (backfill.schedule_id !== schedule.id) notFound();
  const base = `/schedulers/${p.revisionId}`;
  const scheduleHref = `${base}/schedules/${schedule.id}`;
  const backfillsHref = `${scheduleHref}/backfills`;
  const label = schedule.alias ?? schedule.id;
  return (
    <Suspense>
      <div className="page">
        <AutoRefresh intervalMs={backfill.state === 'running' ? 1000 : 5000} />
        <Breadcrumbs
          items={[{ label: 'Schedulers', href: '/schedulers' }, { label: scheduler.name, href: base }, { label, href: scheduleHref }, { label: 'Backfills', href: backfillsHref }, { label: shortId(backfill.id) }]}
        />
        <div className="page-header">
          <h1>
            Backfill <span className="mono">{shortId(backfill.id)}</span> of {label}
          </h1>
        </div>
        <p className="small">
          <Link href={backfillsHref}>All backfills of this schedule</Link> · <span className="mono">{backfill.id}</span>
        </p>
        <BackfillPanel
          scheduleId={schedule.id}
          timezone={schedule.timezone}
          backfills={[backfill]}
          canWrite={scheduler.role !== 'read'}
          canBackfill={false}
          backfillsHref={backfillsHref}
          title="Progress"
          actions={{ backfill: backfillScheduleAction.bind(null, p.revisionId), cancel: cancelBackfillAction.bind(null, p.revisionId) }}
        />
      </div>
    </Suspense>
  );
}
