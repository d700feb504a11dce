import type { Metadata } from 'next';
import Link from 'next/link';
import { DataTable } from '@/app/_components/data-table';
import { webContext } from '@/app/lib/server';
import { CatalogForm } from '@/components/catalog/catalog-form';
import { listCatalogOrgs } from '@/lib/workflows';
import { createBlobAction } from './actions';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Catalog' };

const BLOB_COLUMNS = [{ label: 'Workflow blob' }, { label: 'Default revision' }, { label: 'Revisions', className: 'num' }];

/** The workflow blobs the operator can read, grouped by org (SPEC §1, §3.3), with "New workflow blob". */
export default async function CatalogPage() {
  const { db, actor } = await webContext();
  const orgs = await listCatalogOrgs(db, { actor });
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Catalog</h1>
          <p className="page-intro">
            Workflow blobs hold revisions; a draft revision holds the sessions and definitions that schedules fire executions into.
          </p>
        </div>
      </div>
      {orgs.length === 0 ? (
        <div className="empty-state">
          <h2>No workflow blobs</h2>
          <p>You cannot read any workflow blob yet.</p>
        </div>
      ) : null}
      {orgs.map((org) => {
        const ref = org.alias ?? org.id;
        const titleId = `org-${org.id}-title`;
        return (
          <section key={org.id} className="container container-flush section-gap" aria-labelledby={titleId}>
            <h2 id={titleId} className="container-title container-title-padded">
              {org.name} {org.alias ? <span className="mono muted small">{org.alias}</span> : null}{' '}
              <span className="count">({org.blobs.length})</span>
            </h2>
            {org.blobs.length === 0 ? (
              <p className="empty-inline muted container-title-padded">No workflow blobs in this org.</p>
            ) : (
              <DataTable label={`Workflow blobs of ${org.name}`} columns={BLOB_COLUMNS}>
                {org.blobs.map((b) => (
                  <tr key={b.id}>
                    <td>
                      <Link href={`/catalog/${b.id}`} className="strong-link">
                        {b.alias ?? b.name}
                      </Link>
                      {b.alias && b.name !== b.alias ? <div className="muted small">{b.name}</div> : null}
                    </td>
                    <td className="mono small">
                      {b.defaultRevisionId ? <Link href={`/catalog/revisions/${b.defaultRevisionId}`}>{b.defaultRevisionId}</Link> : <span className="muted">—</span>}
                    </td>
                    <td className="num">{b.revisionCount}</td>
                  </tr>
                ))}
              </DataTable>
            )}
            {org.canCreateBlob ? (
              <div className="container-title-padded">
                <h3 className="subsection-title">New workflow blob</h3>
                <CatalogForm action={createBlobAction.bind(null, ref)} submitLabel="New workflow blob" label={`New workflow blob in ${org.name}`} variant="primary" resetOnSuccess>
                  <div className="field">
                    <label htmlFor={`blob-alias-${org.id}`}>Alias</label>
                    <input id={`blob-alias-${org.id}`} name="alias" className="mono" required />
                  </div>
                  <div className="field">
                    <label htmlFor={`blob-name-${org.id}`}>
                      Name <span className="optional">(optional)</span>
                    </label>
                    <input id={`blob-name-${org.id}`} name="name" />
                  </div>
                </CatalogForm>
              </div>
            ) : null}
          </section>
        );
      })}
    </div>
  );
}
