import type { Metadata } from 'next';
import Link from 'next/link';
import { DataTable, RowActions } from '@/app/_components/data-table';
import { orNotFound, webContext } from '@/app/lib/server';
import { Breadcrumbs } from '@/components/breadcrumbs';
import { DefaultBadge, RevisionStateBadge } from '@/components/catalog/catalog-badges';
import { CatalogForm } from '@/components/catalog/catalog-form';
import { LocalTime } from '@/components/local-time';
import { getCatalogBlob } from '@/lib/workflows';
import { branchRevisionAction, commitRevisionAction, setDefaultRevisionAction } from '../actions';

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
                    {r.state === 'draft' ? <CatalogForm action={commitRevisionAction.bind(null, r.id)} submitLabel="Commit" label={`Commit ${r.id}`} /> : null}
                    {r.state === 'committed' ? <CatalogForm action={branchRevisionAction.bind(null, r.id)} submitLabel="Branch" label={`Branch ${r.id}`} /> : null}
                    {!r.is_default ? <CatalogForm action={setDefaultRevisionAction.bind(null, r.id)} submitLabel="Set as default" label={`Set ${r.id} as default`} /> : null}
                  </RowActions>
                ) : (
                  <span className="muted small">read only</span>
                )}
              </td>
            </tr>
          ))}
        </DataTable>
      </section>
    </div>
  );
}
