import { inTransaction, type Db, type Prisma } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import type { BlobGrantInput } from '../contract';
import { findOrg, requireBrowserUser } from '../org-admin';
import { blobsWith, readableBy } from '../scope';
import type { BlobGrantInfo } from './blob-grant-info';

/** The one answer for a blob that is missing or that the caller cannot read (SPEC §2). */
const blobNotFound = () => new DomainError('not_found', 'blob not found', { path: 'blob' });

/**
 * Grant a user (by email) or an org (by id or alias) `input.role` on blob `input.blob` (id or alias)
 * of org `org` (SPEC §2: a blob grant adds to org roles). Granting again replaces the role. Takes
 * effect at once on every path, fires included. Needs `admin` on the blob (an org admin, or an admin
 * grant on that blob; scoped in the blob's query).
 * @throws `404 not_found` (blob missing or unreadable), `403 forbidden` (readable, not admin),
 *   `400 invalid_request_body` (path `grantee`: no user with that email / no such org).
 */
export async function grantBlobAccess(db: Db, opts: { actor: Actor; org: string; input: BlobGrantInput; now: Date }): Promise<BlobGrantInfo> {
  requireBrowserUser(opts.actor);
  const { input } = opts;
  return inTransaction(db, async (tx) => {
    const org = await findOrg(tx, opts.org);
    const ref = normalizeRef(input.blob);
    // Scoped in the query: the blob of this org named by id or alias, among those the actor administers.
    const find = (scope: Prisma.BlobWhereInput) =>
      org
        ? tx.blob.findFirst({
            where: { AND: [isIdShape(ref) ? { id: ref, orgId: org.id } : { orgId: org.id, alias: ref }, scope] },
            select: { id: true, alias: true, name: true, type: true },
          })
        : null;
    const blob = await find(blobsWith(opts.actor, 'admin'));
    if (!blob) {
      if (await find(readableBy(opts.actor))) throw new DomainError('forbidden', 'granting access needs admin on the blob');
      throw blobNotFound();
    }

    let grantee: BlobGrantInfo['grantee'];
    if (input.grantee_type === 'user') {
      const email = input.grantee.trim().toLowerCase();
      const user = await tx.user.findUnique({ where: { email }, select: { id: true, email: true } });
      if (!user) throw new DomainError('invalid_request_body', 'no user has this email: add them as a member of an org first', { path: 'grantee' });
      grantee = { type: 'user', id: user.id, label: user.email };
    } else {
      const target = await findOrg(tx, input.grantee);
      if (!target) throw new DomainError('invalid_request_body', 'no org has this id or alias', { path: 'grantee' });
      grantee = { type: 'org', id: target.id, label: target.alias ?? target.name };
    }
    const row = await tx.blobGrant.upsert({
      where: { blobId_granteeType_granteeId: { blobId: blob.id, granteeType: grantee.type, granteeId: grantee.id } },
      create: { blobId: blob.id, granteeType: grantee.type, granteeId: grantee.id, role: input.role, createdAt: opts.now },
      update: { role: input.role },
    });
    return { id: row.id, blob, grantee, role: input.role, createdAt: row.createdAt };
  });
}
