import { inTransaction, type Db, type Prisma, type Tx } from '../../db';
import { DomainError } from '../../errors';
import { isIdShape, normalizeRef } from '../../ids';
import type { Actor } from '../actor';
import type { BlobGrantInput } from '../contract';
import { isEmailShape } from '../login';
import { findOrg, requireBrowserUser } from '../org-admin';
import { blobsWith, readableBy } from '../scope';
import { INVITATION_TTL_MS, newInvitationToken } from '../invitations/invitation-token';
import { accountKnownToOrg } from '../invitations/pending-grants';
import type { BlobGrantInfo } from './blob-grant-info';

/** The one answer for a blob that is missing or that the caller cannot read (SPEC §2). */
const blobNotFound = () => new DomainError('not_found', 'blob not found', { path: 'blob' });

/** The org with alias `alias` of which user `userId` is a member, or null. */
async function memberOrgByAlias(tx: Tx, userId: string, alias: string) {
  const m = await tx.membership.findFirst({ where: { userId, org: { alias } }, select: { org: { select: { id: true, alias: true, name: true } } } });
  return m?.org ?? null;
}

/** A new invitation link made by a grant (shown once): the grant applies when it is accepted. */
export interface GrantInvitation {
  token: string;
  expiresAt: Date;
}

/**
 * Grant a user (by email) or an org (by id or alias) `input.role` on blob `input.blob` (id or alias)
 * of org `org` (SPEC §2: a blob grant adds to org roles). Granting again replaces the role. Takes
 * effect at once on every path, fires included. Needs `admin` on the blob (an org admin, or an admin
 * grant on that blob; scoped in the blob's query).
 *
 * A grant by email (docs/decisions.md 160) goes at once only to an account of the email that this org
 * already knows (a member, or the holder of a grant on one of its blobs). Otherwise it is held for the
 * email (`granteeType: 'email'`, read by no access check), whatever accounts the email has elsewhere:
 * it is a pending invitation of this org, and only this org's link makes it the grant of the account
 * that accepts the link (a new one, or one of the email logged in). So:
 * - with no pending invitation of the org for the email (or only an expired one), a new link is made
 *   that carries the org's pending grants only (no membership) and is answered once (`invitation`);
 * - a pending link that carries blob grants only is replaced by a new one (the earlier stops working);
 * - a pending membership invitation carries the grant too, and no new link is made (`invitation` null):
 *   only an org admin makes links that give a role on the org.
 * The answer never depends on whether the email has an account elsewhere (docs/decisions.md 26). An org
 * is named by its alias only when the caller is a member of it, otherwise by its id (an id cannot be
 * guessed: the other org's admin hands it over; its admin page shows it). A foreign alias and an
 * unknown alias or id get the same refusal.
 * @throws `404 not_found` (blob missing or unreadable), `403 forbidden` (readable, not admin),
 *   `400 invalid_request_body` (path `grantee`: no org the caller can name this way).
 */
export async function grantBlobAccess(
  db: Db,
  opts: { actor: Actor; org: string; input: BlobGrantInput; now: Date },
): Promise<BlobGrantInfo & { invitation: GrantInvitation | null }> {
  requireBrowserUser(opts.actor);
  const { input } = opts;
  const link = newInvitationToken();
  return inTransaction(db, async (tx) => {
    const [ref, orgRef] = [normalizeRef(input.blob), normalizeRef(opts.org)];
    // Scoped in the query: the blob named by id or alias in the org named by id or alias, among those
    // the actor administers; a missing org, a foreign one and a missing blob are one statement's miss.
    const find = (scope: Prisma.BlobWhereInput) =>
      tx.blob.findFirst({
        where: { AND: [isIdShape(ref) ? { id: ref } : { alias: ref }, { org: isIdShape(orgRef) ? { id: orgRef } : { alias: orgRef } }, scope] },
        select: { id: true, alias: true, name: true, type: true, orgId: true },
      });
    const found = await find(blobsWith(opts.actor, 'admin'));
    if (!found) {
      if (await find(readableBy(opts.actor))) throw new DomainError('forbidden', 'granting access needs admin on the blob');
      throw blobNotFound();
    }
    const { orgId, ...blob } = found;
    const org = { id: orgId };

    let grantee: BlobGrantInfo['grantee'];
    let stored: { granteeType: 'user' | 'org' | 'email'; granteeId: string };
    let invitation: GrantInvitation | null = null;
    if (input.grantee_type === 'user') {
      const email = input.grantee.trim().toLowerCase();
      if (!isEmailShape(email)) throw new DomainError('invalid_request_body', 'grantee: must be an email address like name@example.com', { path: 'grantee' });
      const known = await accountKnownToOrg(tx, org.id, email);
      stored = known ? { granteeType: 'user', granteeId: known } : { granteeType: 'email', granteeId: email };
      grantee = { type: 'user', id: stored.granteeId, label: email };
      if (!known) invitation = await linkForPendingGrant(tx, { orgId: org.id, email, actorId: opts.actor.id, link, now: opts.now });
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
    return { id: row.id, blob, grantee, role: input.role, createdAt: row.createdAt, pending: stored.granteeType === 'email', invitation };
  });
}

/**
 * The link that will carry a pending grant of org `orgId` for `email` (see `grantBlobAccess`): a new
 * grant-only invitation (replacing a missing, expired or grant-only one), or null when a pending
 * membership invitation carries it.
 */
async function linkForPendingGrant(
  tx: Tx,
  opts: { orgId: string; email: string; actorId: string; link: { token: string; tokenHash: string }; now: Date },
): Promise<GrantInvitation | null> {
  const current = await tx.invitation.findUnique({ where: { orgId_email: { orgId: opts.orgId, email: opts.email } } });
  if (current && current.role !== null && current.expiresAt.getTime() > opts.now.getTime()) return null;
  const expiresAt = new Date(opts.now.getTime() + INVITATION_TTL_MS);
  const data = { role: null, tokenHash: opts.link.tokenHash, invitedById: opts.actorId, createdAt: opts.now, expiresAt };
  await tx.invitation.upsert({ where: { orgId_email: { orgId: opts.orgId, email: opts.email } }, create: { orgId: opts.orgId, email: opts.email, ...data }, update: data });
  return { token: opts.link.token, expiresAt };
}
