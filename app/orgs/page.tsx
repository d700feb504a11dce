import type { Metadata } from 'next';
import Link from 'next/link';
import { DataTable } from '@/app/_components/data-table';
import { webContext } from '@/app/lib/server';
import { listUserOrgs } from '@/lib/auth';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'Organizations' };

const ORG_COLUMNS = [{ label: 'Organization' }, { label: 'Your role' }, { label: 'Manage' }];

/** The orgs the signed-in user belongs to, with its role; admins manage members, grants and keys. */
export default async function OrgsPage() {
  const { db, actor } = await webContext();
  const orgs = await listUserOrgs(db, { actor });
  return (
    <div className="page">
      <div className="page-header">
        <div>
          <h1>Organizations</h1>
          <p className="page-intro">An org role (read &lt; write &lt; admin) applies to every blob of the org; blob grants add to it.</p>
        </div>
      </div>
      {orgs.length === 0 ? (
        <div className="empty-state">
          <h2>No organizations</h2>
          <p>You are not a member of any org. An org admin can add you by your email.</p>
        </div>
      ) : (
        <section className="container container-flush" aria-labelledby="orgs-title">
          <h2 id="orgs-title" className="container-title container-title-padded">
            Your organizations <span className="count">({orgs.length})</span>
          </h2>
          <DataTable columns={ORG_COLUMNS}>
            {orgs.map((o) => (
              <tr key={o.id}>
                <td>
                  {o.name}
                  {o.alias ? <div className="mono muted small">{o.alias}</div> : null}
                </td>
                <td>{o.role}</td>
                <td>{o.role === 'admin' ? <Link href={`/orgs/${o.alias ?? o.id}/admin`}>Members, access and keys</Link> : <span className="muted">—</span>}</td>
              </tr>
            ))}
          </DataTable>
        </section>
      )}
    </div>
  );
}
