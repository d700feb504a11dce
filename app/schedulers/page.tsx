import type { Metadata } from 'next';
import Link from 'next/link';
import { webContext } from '@/app/lib/server';
import { listSchedulers } from '@/lib/schedules';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Schedulers' };

/** The schedulers the operator can read, with their schedule counts. */
export default async function SchedulersPage() {
  const { db, actor } = await webContext();
  const schedulers = await listSchedulers(db, actor);
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
          <p>You cannot read any scheduler yet. A scheduler blob is created through the API (`POST /api/v1/orgs/&#123;org&#125;/blobs` with type “scheduler”).</p>
        </div>
      ) : (
        <section className="container container-flush" aria-labelledby="schedulers-title">
          <h2 id="schedulers-title" className="container-title container-title-padded">
            Schedulers <span className="count">({schedulers.length})</span>
          </h2>
          <div className="table-scroll">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Scheduler</th>
                  <th scope="col">Organization</th>
                  <th scope="col" className="num">
                    Schedules
                  </th>
                  <th scope="col" className="num">
                    Active
                  </th>
                  <th scope="col">Revision</th>
                </tr>
              </thead>
              <tbody>
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
              </tbody>
            </table>
          </div>
        </section>
      )}
    </div>
  );
}
