import { notFound, redirect } from 'next/navigation';
import { webContext } from '@/app/lib/server';
import { listUserOrgs } from '@/lib/auth';

export const dynamic = 'force-dynamic';

/**
 * `/orgs/{org}` (by alias or id): an admin goes to the org's admin page, another member to the list of
 * its orgs. For anyone else the org does not exist (404, as for an unknown org: SPEC §2, no oracle).
 */
export default async function OrgPage({ params }: { params: Promise<{ org: string }> }) {
  const { org } = await params;
  const { db, actor } = await webContext();
  const mine = (await listUserOrgs(db, { actor })).find((o) => o.alias === org || o.id === org);
  if (!mine) notFound();
  redirect(mine.role === 'admin' ? `/orgs/${encodeURIComponent(org)}/admin` : '/orgs');
}
