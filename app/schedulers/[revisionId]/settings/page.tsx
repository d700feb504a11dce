import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { ActionForm } from '@/app/_components/action-form';
import { DataTable } from '@/app/_components/data-table';
import { revisionOf, schedulerPage } from '@/app/lib/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { formatUtc } from '@/components/format';
import { findSigningSecret } from '@/lib/schedules';
import { rotateSigningSecretAction, setMetricsPerScheduleAction, showSigningSecretAction } from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Scheduler settings' };

const PREVIOUS_COLUMNS = [{ label: 'Secret' }, { label: 'Created' }, { label: 'Retired' }, { label: 'Signs until' }];

/**
 * A scheduler's settings: its webhook signing secret (SPEC §13.1), shown once, rotatable, and its
 * opt-in to the per-schedule series of /metrics (SPEC §16.3 `metrics_per_schedule`). Needs
 * `admin` on the scheduler; anyone else gets the 404 page, as for a scheduler that does not exist.
 */
export default async function SchedulerSettingsPage({ params }: { params: Promise<{ revisionId: string }> }) {
  const { revisionId: rawId } = await params;
  const { db, actor, now, scheduler } = await schedulerPage(rawId);
  if (scheduler.role !== 'admin') notFound();
  const revisionId = scheduler.revisionId;
  const secret = await findSigningSecret({ db, actor, revision: revisionOf(scheduler), now });
  const orgLabel = scheduler.org.alias ?? scheduler.org.name;
  return (
    <div className="page">
      <Breadcrumbs items={[{ label: 'Schedulers', href: '/schedulers' }, { label: orgLabel }, { label: scheduler.name, href: `/schedulers/${revisionId}` }, { label: 'Settings' }]} />
      <div className="page-header">
        <div>
          <h1>Settings of {scheduler.name}</h1>
          <p className="page-intro">{scheduler.org.name} · for admins of this scheduler</p>
        </div>
      </div>

      <section className="container stack" aria-labelledby="signing-title">
        <h2 id="signing-title" className="container-title">
          Webhook signing secret
        </h2>
        <p className="container-intro small">
          Every webhook this scheduler sends is signed following the Standard Webhooks specification (headers <code>webhook-id</code>,{' '}
          <code>webhook-timestamp</code>, <code>webhook-signature</code>). Receivers verify it with this secret and a Standard Webhooks library,
          and de-duplicate retries by <code>webhook-id</code>. The secret is shown once; after a rotation the previous one keeps signing for
          24 hours, so receivers can switch without missing a delivery.
        </p>
        {secret ? (
          <dl className="properties properties-single" data-testid="signing-secret">
            <dt>Current secret</dt>
            <dd className="mono">{secret.hint}</dd>
            <dt>Created</dt>
            <dd>{formatUtc(secret.created_at)}</dd>
            <dt>Shown</dt>
            <dd>{secret.shown_at ? formatUtc(secret.shown_at) : 'never: show it once below'}</dd>
          </dl>
        ) : (
          <p className="muted" data-testid="signing-secret">
            No signing secret yet. One is created when you show it below, or when this scheduler first sends a webhook.
          </p>
        )}
        <div className="page-actions">
          {!secret || !secret.shown_at ? <ActionForm action={showSigningSecretAction.bind(null, revisionId)} submitLabel="Show secret once" label="Show the signing secret" /> : null}
          {secret ? (
            <ActionForm
              action={rotateSigningSecretAction.bind(null, revisionId)}
              submitLabel="Rotate secret"
              danger
              confirm={{ title: 'Rotate the signing secret?', body: <p>The current secret keeps signing for 24 hours, then stops: give receivers the new one within that time.</p> }}
              label="Rotate the signing secret"
            />
          ) : null}
        </div>
        {secret && secret.previous.length > 0 ? (
          <>
            <h3 className="subsection-title">Previous secrets still signing</h3>
            <DataTable label="Previous secrets still signing" columns={PREVIOUS_COLUMNS} compact>
              {secret.previous.map((p) => (
                <tr key={p.created_at}>
                  <td className="mono">{p.hint}</td>
                  <td className="small nowrap">{formatUtc(p.created_at)}</td>
                  <td className="small nowrap">{formatUtc(p.retired_at)}</td>
                  <td className="small nowrap">{formatUtc(p.signs_until)}</td>
                </tr>
              ))}
            </DataTable>
          </>
        ) : null}
      </section>

      <section className="container stack" aria-labelledby="metrics-title">
        <h2 id="metrics-title" className="container-title">
          Per-schedule metrics
        </h2>
        <p className="container-intro small">
          <code>/metrics</code> always counts this scheduler&apos;s fires, failures and run durations. With per-schedule metrics on, it also
          names each of its schedules (up to the schedule limit): <code>scheduler_schedule_last_success_timestamp_seconds</code>,{' '}
          <code>scheduler_schedule_next_fire_timestamp_seconds</code> and <code>scheduler_schedule_consecutive_failures</code>, labelled
          with the schedule. Off by default: every schedule is a series to store, and its name is shown to whoever scrapes.
        </p>
        <p data-testid="metrics-per-schedule">
          Per-schedule metrics are <strong>{scheduler.metricsPerSchedule ? 'on' : 'off'}</strong>.
        </p>
        <div className="page-actions">
          <ActionForm
            action={setMetricsPerScheduleAction.bind(null, revisionId, !scheduler.metricsPerSchedule)}
            submitLabel={scheduler.metricsPerSchedule ? 'Turn off' : 'Turn on'}
            label={scheduler.metricsPerSchedule ? 'Turn per-schedule metrics off' : 'Turn per-schedule metrics on'}
          />
        </div>
      </section>
    </div>
  );
}
