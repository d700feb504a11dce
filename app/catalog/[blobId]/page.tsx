import type { Metadata } from 'next';
import Link from 'next/link';
import { DataTable, RowActions } from '@/app/_components/data-table';
import { orNotFound, webContext } from '@/app/lib/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { DefaultBadge, RevisionStateBadge } from '@/components/catalog/catalog-badges';
import { CatalogForm } from '@/components/catalog/catalog-form';
import { LocalTime } from '@/components/local-time';
import { ScheduleImpactList } from '@/app/_components/schedule-impact';
import { blobDeleteImpact, NO_IMPACT, revisionChangeImpacts, type RevisionChangeImpact } from '@/lib/schedules';
import { getCatalogBlob } from '@/lib/workflows';
import { branchRevisionAction, commitRevisionAction, deleteBlobAction, setDefaultRevisionAction } from '../actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Workflow blob' };

const REVISION_COLUMNS = [{ label: 'Revision' }, { label: 'State' }, { label: 'Created' }, { label: 'Actions' }];

/** A workflow blob's revisions (SPEC §1): commit a draft, branch a committed one, set the default. */
export default async function CatalogBlobPage({ params }: { params: Promise<{ blobId: string }> }) {
  const { blobId } = await params;
  const { db, actor } = await webContext();
  const blob = await orNotFound(getCatalogBlob(db, { actor, blobId }));
  const label = blob.alias ?? blob.name;
  const canWrite = blob.role !== 'read';
  const canDelete = blob.role === 'admin';
  // What Commit, Set as default and Delete would do to schedules, named in their confirmations.
  const [impacts, deleteImpact] = await Promise.all([
    canWrite ? revisionChangeImpacts(db, { actor, blobId: blob.id }) : new Map<string, RevisionChangeImpact>(),
    canDelete ? blobDeleteImpact(db, { actor, blobId: blob.id }) : NO_IMPACT,
  ]);
  const revisions = [...blob.revisions].reverse();
  return (
    <div className="page">
      <Breadcrumbs items={[{ label: 'Catalog', href: '/catalog' }, { label }]} />
      <div className="page-header">
        <div>
          <h1>{label}</h1>
          <p className="page-intro">
            Workflow blob of {blob.orgName}
            {blob.org.alias ? <span className="mono"> ({blob.org.alias})</span> : null} · <span className="mono small">{blob.id}</span>
          </p>
        </div>
      </div>
      <section className="container container-flush" aria-labelledby="revisions-title">
        <h2 id="revisions-title" className="container-title container-title-padded">
          Revisions <span className="count">({revisions.length})</span>
        </h2>
        <DataTable label="Revisions" columns={REVISION_COLUMNS}>
          {revisions.map((r) => (
            <tr key={r.id}>
              <td>
                <Link href={`/catalog/revisions/${r.id}`} className="strong-link mono small">
                  {r.id}
                </Link>
              </td>
              <td>
                <RevisionStateBadge state={r.state} /> {r.is_default ? <DefaultBadge /> : null}
              </td>
              <td className="small nowrap">
                <LocalTime instant={r.created_at} />
              </td>
              <td>
                {canWrite ? (
                  <RowActions>
                    {r.state === 'draft' ? (
                      <CatalogForm
                        action={commitRevisionAction.bind(null, r.id)}
                        submitLabel="Commit"
                        label={`Commit ${r.id}`}
                        confirm={{
                          title: `Commit revision ${r.id}?`,
                          body: (
                            <>
                              <p>A committed revision is frozen: it takes no more sessions, definitions or executions. This cannot be undone (branch it for a new draft).</p>
                              <ScheduleImpactList impact={impacts.get(r.id)?.commit ?? NO_IMPACT} change="commit" none="No schedule follows or is pinned to this revision." />
                            </>
                          ),
                        }}
                      />
                    ) : null}
                    {r.state === 'committed' ? <CatalogForm action={branchRevisionAction.bind(null, r.id)} submitLabel="Branch" label={`Branch ${r.id}`} /> : null}
                    {!r.is_default ? (
                      <CatalogForm
                        action={setDefaultRevisionAction.bind(null, r.id)}
                        submitLabel="Set as default"
                        label={`Set ${r.id} as default`}
                        confirm={{
                          title: `Make revision ${r.id} the default?`,
                          body: (
                            <>
                              <p>
                                Schedules that follow {label}’s default revision fire into this one from their next fire on{r.state === 'committed' ? ', and this revision is committed: it runs no executions' : ''}.
                              </p>
                              <ScheduleImpactList impact={impacts.get(r.id)?.setDefault ?? NO_IMPACT} change="set_default" none="No schedule follows this blob’s default revision." />
                            </>
                          ),
                        }}
                      />
                    ) : null}
                  </RowActions>
                ) : (
                  <span className="muted small">read only</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
      {canDelete ? (
        <section className="container section-gap" aria-labelledby="delete-blob-title">
          <h2 id="delete-blob-title" className="container-title">
            Delete this blob
          </h2>
          <p className="muted">Its revisions, sessions, definitions and executions are deleted with it. Schedules aiming at it stay and record failures.</p>
          <CatalogForm
            action={deleteBlobAction.bind(null, blob.id)}
            submitLabel="Delete blob"
            label={`Delete ${label}`}
            variant="danger"
            confirm={{
              title: `Delete workflow blob ${label}?`,
              body: (
                <>
                  <p>
                    All {revisions.length} revision{revisions.length === 1 ? '' : 's'} of {label}, with their sessions, definitions and executions, are deleted. This cannot be undone.
                  </p>
                  <ScheduleImpactList impact={deleteImpact} change="delete_blob" none="No schedule aims at this blob or runs a workflow from it." />
                </>
              ),
            }}
          />
        </section>
      ) : null}
    </div>
  );
}
