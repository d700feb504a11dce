import type { Tx } from '../../db';
import type { Actor } from '../actor';
import { requireBrowserUser, requireOrgRole } from '../org-admin';
import { isRole } from '../roles';
import type { BlobGrantInfo } from './blob-grant-info';

/**
 * The blobs of org `org` and every grant on them, for the org's admin page. Needs `admin` on the org.
 * @throws `404 not_found` (missing or invisible org), `403 forbidden`.
 */
export async function listBlobGrants(
  db: Tx,
  opts: { actor: Actor; org: string },
): Promise<{ blobs: BlobGrantInfo['blob'][]; grants: BlobGrantInfo[] }> {
  requireBrowserUser(opts.actor);
  const org = await requireOrgRole(db, opts.actor, opts.org, 'admin');
  const blobs = await db.blob.findMany({
    where: { orgId: org.id },
    select: { id: true, alias: true, name: true, type: true },
    orderBy: [{ name: 'asc' }, { id: 'asc' }],
  });
  const grants = await db.blobGrant.findMany({
    where: { blob: { orgId: org.id } },
    orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
  });
  const userIds = grants.filter((g) => g.granteeType === 'user').map((g) => g.granteeId);
  const orgIds = grants.filter((g) => g.granteeType === 'org').map((g) => g.granteeId);
  const [users, orgs] = await Promise.all([
    db.user.findMany({ where: { id: { in: userIds } }, select: { id: true, email: true } }),
    db.org.findMany({ where: { id: { in: orgIds } }, select: { id: true, alias: true, name: true } }),
  ]);
  const userLabel = new Map(users.map((u) => [u.id, u.email]));
  const orgLabel = new Map(orgs.map((o) => [o.id, o.alias ?? o.name]));
  const blobById = new Map(blobs.map((b) => [b.id, b]));
  return {
    blobs,
    grants: grants.flatMap((g) => {
      const blob = blobById.get(g.blobId);
      if (!blob || !isRole(g.role)) return [];
      const type = g.granteeType === 'org' ? 'org' : 'user';
      // A grant by email waiting for the org's link is labelled by the email and marked pending (grant-blob-access.ts).
      const label = g.granteeType === 'email' ? g.granteeId : ((type === 'org' ? orgLabel.get(g.granteeId) : userLabel.get(g.granteeId)) ?? '(deleted)');
      return [{ id: g.id, blob, grantee: { type, id: g.granteeId, label }, role: g.role, createdAt: g.createdAt, pending: g.granteeType === 'email' }];
    }),
  };
}
