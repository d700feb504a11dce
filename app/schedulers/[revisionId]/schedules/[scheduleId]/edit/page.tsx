import type { Metadata } from 'next';
import Link from 'next/link';
import { orNotFound, revisionOf, schedulerPage } from '@/app/lib/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { ScheduleForm } from '@/components/schedule-form';
import { contextPreviewFacts, getSchedule, targetNotEditable } from '@/lib/schedules';
import { targetOptions } from '@/lib/schedules';
import { updateScheduleAction } from '../../../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Edit schedule' };

/** The schedule form in edit mode: `update_schedule` with the fields that changed. */
export default async function EditSchedulePage({ params }: { params: Promise<{ revisionId: string; scheduleId: string }> }) {
  const p = await params;
  const { db, actor, scheduler, engine } = await schedulerPage(p.revisionId);
  const revisionId = scheduler.revisionId;
  const schedule = await orNotFound(getSchedule({ db, actor, revision: revisionOf(scheduler), scheduleRef: p.scheduleId }));
  const label = schedule.alias ?? schedule.id;
  const scheduleHref = `/schedulers/${revisionId}/schedules/${schedule.id}`;
  const blocked =
    schedule.state === 'completed'
      ? { title: 'Completed: read-only.', text: 'This schedule fires no more. It can be read and deleted, but no longer changed.' }
      : scheduler.role === 'read'
        ? { title: 'Read-only access.', text: 'You can read this scheduler but not change it: editing needs write access.' }
        : targetNotEditable(schedule);
  return (
    <div className="page page-form">
      <Breadcrumbs
        items={[
          { label: 'Schedulers', href: '/schedulers' },
          { label: scheduler.name, href: `/schedulers/${revisionId}` },
          { label, href: scheduleHref },
          { label: 'Edit' },
        ]}
      />
      <div className="page-header">
        <div>
          <h1>Edit {label}</h1>
          {blocked ? null : <p className="page-intro">Only the fields you change are sent; the rest stay as they are.</p>}
        </div>
      </div>
      {!blocked ? (
        <ScheduleForm
          mode="edit"
          revisionId={revisionId}
          schedule={schedule}
          options={await targetOptions(db, actor, scheduler.org.id)}
          submit={updateScheduleAction.bind(null, revisionId, schedule.id)}
          cancelHref={scheduleHref}
          contextFacts={await contextPreviewFacts(db, engine, { revisionId, scheduleId: schedule.id })}
        />
      ) : (
        <div className="alert alert-info" role="status">
          <strong>{blocked?.title}</strong> {blocked?.text} <Link href={scheduleHref}>Back to the schedule</Link>
        </div>
      )}
    </div>
  );
}
