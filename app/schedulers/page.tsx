import type { Metadata } from 'next';
import Link from 'next/link';
import { DataTable } from '@/app/_components/data-table';
import { webContext } from '@/app/lib/server';
import { CatalogForm } from '@/components/catalog/catalog-form';
import { listUserOrgs, roleAtLeast } from '@/lib/auth';
import { listSchedulers } from '@/lib/schedules';
import { createSchedulerAction } from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Schedulers' };

const SCHEDULER_COLUMNS = [{ label: 'Scheduler' }, { label: 'Organization' }, { label: 'Schedules', className: 'num' }, { label: 'Active', className: 'num' }, { label: 'Revision' }];

/** The schedulers the operator can read, with their schedule counts, and "New scheduler" in the orgs it can write to. */
export default async function SchedulersPage() {
  const { db, actor } = await webContext();
  const [schedulers, orgs] = await Promise.all([listSchedulers(db, actor), listUserOrgs(db, { actor })]);
  // Creating a scheduler blob needs write on its org (SPEC §2).
  const writableOrgs = orgs.filter((o) => roleAtLeast(o.role, 'write'));
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Schedulers</h1>
          <p className="page-intro">A scheduler holds a set of schedules; each schedule starts workflow executions once or on a cron cadence.</p>
        </div>
      </div>
      {schedulers.length === 0 ? (
        <div className="empty-state">
          <h2>No schedulers</h2>
          <p>
            You cannot read any scheduler yet.{' '}
            {writableOrgs.length > 0 ? 'Create one below.' : 'An admin of an org can give you access, or create one for you.'}
          </p>
        </div>
      ) : (
        <section className="container container-flush" aria-labelledby="schedulers-title">
          <h2 id="schedulers-title" className="container-title container-title-padded">
            Schedulers <span className="count">({schedulers.length})</span>
          </h2>
          <DataTable label="Schedulers" columns={SCHEDULER_COLUMNS}>
            {schedulers.map((s) => (
              <tr key={s.blobId}>
                <td>
                  <Link href={`/schedulers/${s.revisionId}`} className="strong-link">
                    {s.name}
                  </Link>
                  {s.alias ? <div className="mono muted small">{s.alias}</div> : null}
                </td>
                <td>
                  {s.org.name}
                  {s.org.alias ? <div className="mono muted small">{s.org.alias}</div> : null}
                </td>
                <td className="num">{s.scheduleCount}</td>
                <td className="num">{s.activeCount}</td>
                <td className="mono small muted">{s.revisionId}</td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
      {writableOrgs.length > 0 ? (
        <section className="container section-gap" aria-labelledby="new-scheduler-title">
          <h2 id="new-scheduler-title" className="container-title">
            New scheduler
          </h2>
          <p className="container-intro">A scheduler holds a set of schedules in one always-writable revision; org members see it by their org role.</p>
          <CatalogForm action={createSchedulerAction} submitLabel="Create scheduler" label="New scheduler" variant="primary">
            <div className="field">
              <label htmlFor="scheduler-org">Organization</label>
              <select id="scheduler-org" name="org" defaultValue={writableOrgs[0].id}>
                {writableOrgs.map((o) => (
                  <option key={o.id} value={o.id}>
                    {o.name}
                    {o.alias ? ` (${o.alias})` : ''}
                  </option>
                ))}
              </select>
            </div>
            <div className="field">
              <label htmlFor="scheduler-alias">Alias</label>
              <input id="scheduler-alias" name="alias" className="mono" required placeholder="nightly-jobs" title="6–64 characters: a-z, 0-9, “_” and “-”; unique in the org" />
            </div>
            <div className="field">
              <label htmlFor="scheduler-name">
                Name <span className="optional">(optional)</span>
              </label>
              <input id="scheduler-name" name="name" maxLength={256} placeholder="Nightly jobs" />
            </div>
          </CatalogForm>
        </section>
      ) : null}
    </div>
  );
}
