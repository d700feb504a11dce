import { inTransaction, type Db, type Prisma, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import type { BlobGrantInput } from '../contract';
import { isEmailShape } from '../login';
import { findOrg, requireBrowserUser } from '../org-admin';
import { blobsWith, readableBy } from '../scope';
import type { BlobGrantInfo } from './blob-grant-info';

/** The one answer for a blob that is missing or that the caller cannot read (SPEC §2). */
const blobNotFound = () => new DomainError('not_found', 'blob not found', { path: 'blob' });

/** The org with alias `alias` of which user `userId` is a member, or null. */
async function memberOrgByAlias(tx: Tx, userId: string, alias: string) {
  const m = await tx.membership.findFirst({ where: { userId, org: { alias } }, select: { org: { select: { id: true, alias: true, name: true } } } });
  return m?.org ?? null;
}

/**
 * Grant a user (by email) or an org (by id or alias) `input.role` on blob `input.blob` (id or alias)
 * of org `org` (SPEC §2: a blob grant adds to org roles). Granting again replaces the role. Takes
 * effect at once on every path, fires included. Needs `admin` on the blob (an org admin, or an admin
 * grant on that blob; scoped in the blob's query).
 *
 * The answer never tells whether something exists elsewhere on the instance (docs/decisions.md 26):
 * - an email without an account gets a grant held for that email (`granteeType: 'email'`), listed
 *   and answered exactly like a grant to an account; it becomes the account's when one is made for
 *   the email through an invitation (accept-invitation.ts), and no access check ever reads it before;
 * - an org is named by its alias only when the caller is a member of it, otherwise by its id (an id
 *   cannot be guessed: the other org's admin hands it over; its admin page shows it). A foreign alias
 *   and an unknown alias or id get the same refusal.
 * @throws `404 not_found` (blob missing or unreadable), `403 forbidden` (readable, not admin),
 *   `400 invalid_request_body` (path `grantee`: no org the caller can name this way).
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
    let stored: { granteeType: 'user' | 'org' | 'email'; granteeId: string };
    if (input.grantee_type === 'user') {
      const email = input.grantee.trim().toLowerCase();
      if (!isEmailShape(email)) throw new DomainError('invalid_request_body', 'grantee: must be an email address like name@example.com', { path: 'grantee' });
      const user = await tx.user.findUnique({ where: { email }, select: { id: true } });
      stored = user ? { granteeType: 'user', granteeId: user.id } : { granteeType: 'email', granteeId: email };
      grantee = { type: 'user', id: stored.granteeId, label: email };
    } else {
      const ref = normalizeRef(input.grantee);
      const target = isIdShape(ref) ? await findOrg(tx, ref) : await memberOrgByAlias(tx, opts.actor.id, ref);
      if (!target) {
        throw new DomainError('invalid_request_body', 'grantee: name an org you are a member of by its alias, or any other org by its id (shown on its admin page)', { path: 'grantee' });
      }
      stored = { granteeType: 'org', granteeId: target.id };
      grantee = { type: 'org', id: target.id, label: target.alias ?? target.name };
    }
    const row = await tx.blobGrant.upsert({
      where: { blobId_granteeType_granteeId: { blobId: blob.id, ...stored } },
      create: { blobId: blob.id, ...stored, role: input.role, createdAt: opts.now },
      update: { role: input.role },
    });
    return { id: row.id, blob, grantee, role: input.role, createdAt: row.createdAt };
  });
}
