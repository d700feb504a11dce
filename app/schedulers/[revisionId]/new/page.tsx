import type { Metadata } from 'next';
import Link from 'next/link';
import { schedulerPage } from '@/app/lib/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ScheduleForm } from '@/components/schedule-form';
import { contextPreviewFacts, targetOptions } from '@/lib/schedules';
import { createScheduleAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'New schedule' };

/** The New Schedule form (SPEC §10): `create_schedule` through a server action. */
export default async function NewSchedulePage({ params }: { params: Promise<{ revisionId: string }> }) {
  const { db, actor, scheduler, engine } = await schedulerPage((await params).revisionId);
  const revisionId = scheduler.revisionId;
  const gridHref = `/schedulers/${revisionId}`;
  return (
    <div className="page page-form">
      <Breadcrumbs
        items={[{ label: 'Schedulers', href: '/schedulers' }, { label: scheduler.name, href: gridHref }, { label: 'New schedule' }]}
      />
      <div className="page-header">
        <div>
          <h1>New schedule</h1>
          <p className="page-intro">
            In <strong>{scheduler.name}</strong> ({scheduler.org.alias ?? scheduler.org.name}).
          </p>
        </div>
      </div>
      {scheduler.role === 'read' ? (
        <div className="alert alert-info">
          You can read this scheduler but not change it: creating a schedule needs write access. <Link href={gridHref}>Back to its schedules</Link>
        </div>
      ) : (
        <ScheduleForm
          mode="create"
          revisionId={revisionId}
          options={await targetOptions(db, actor, scheduler.org.id)}
          submit={createScheduleAction.bind(null, revisionId)}
          cancelHref={gridHref}
          contextFacts={await contextPreviewFacts(db, engine, { revisionId })}
        />
      )}
    </div>
  );
}
