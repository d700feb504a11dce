/**
 * Accepting an invitation (docs/decisions.md 51): the link's token is the invitee's proof; it works
 * once, for 7 days. Two ways in:
 * - **a new account**: the invitee chooses a password; the account is made with the invited email and
 *   joins the org. Refused when the email already has an account: a link never sets the password of
 *   an existing account, so no admin holding a link can take one over.
 * - **an existing account**: the invitee is logged in as the invited email and accepts. An account is
 *   never attached to an org without its owner doing this.
 * Either way the invitation row is deleted in the same transaction (single use), and blob grants made
 * to the email before it had an account become the account's (grant-blob-access.ts).
 */
import { inTransaction, type Db, type Tx } from '../../db';
import { DomainError } from '../../errors';
import type { Actor } from '../actor';
import { requireBrowserUser } from '../org-admin';
import { hashPassword } from '../password';
import { createWebSession, type WebUser } from '../web-session';
import { invitationTokenHash } from './invitation-token';

/** The one answer for a token that is unknown, used, revoked or expired. */
const invitationNotFound = () => new DomainError('not_found', 'this invitation link is not valid: it was used, withdrawn or has expired');

export interface InvitationView {
  org: { id: string; alias: string | null; name: string };
  email: string;
  role: string;
  expiresAt: Date;
}

async function pending(db: Tx, token: string | null | undefined, now: Date) {
  const tokenHash = invitationTokenHash(token);
  const row = tokenHash ? await db.invitation.findUnique({ where: { tokenHash }, include: { org: { select: { id: true, alias: true, name: true } } } }) : null;
  if (!row || row.expiresAt.getTime() <= now.getTime()) return null;
  return row;
}

/** What the invitation page shows for `token`, or null when the link is not valid (any reason). */
export async function findInvitation(db: Tx, token: string | null | undefined, now: Date): Promise<InvitationView | null> {
  const row = await pending(db, token, now);
  return row ? { org: row.org, email: row.email, role: row.role, expiresAt: row.expiresAt } : null;
}

/** Blob grants made to `email` before it had an account become grants of user `userId`. */
async function adoptEmailGrants(tx: Tx, email: string, userId: string): Promise<void> {
  const grants = await tx.blobGrant.findMany({ where: { granteeType: 'email', granteeId: email } });
  for (const g of grants) {
    const existing = await tx.blobGrant.findUnique({ where: { blobId_granteeType_granteeId: { blobId: g.blobId, granteeType: 'user', granteeId: userId } } });
    if (existing) await tx.blobGrant.delete({ where: { id: g.id } });
    else await tx.blobGrant.update({ where: { id: g.id }, data: { granteeType: 'user', granteeId: userId } });
  }
}

/**
 * Accept with a new account: create the user (invited email, `password`), its membership, and a
 * browser session. The password is hashed before the transaction (scrypt must not hold the write lock).
 * @returns the session token (for the cookie; only its hash is stored) and its expiry, and the user.
 * @throws `404 not_found` (link not valid); `409 account_exists` when the email has an account
 *   (log in as it and accept instead).
 */
export async function acceptInvitationWithNewAccount(
  db: Db,
  opts: { token: string; password: string; name?: string; now: Date },
): Promise<{ token: string; expiresAt: Date; user: WebUser; orgId: string }> {
  const passwordHash = await hashPassword(opts.password);
  return inTransaction(db, async (tx) => {
    const inv = await pending(tx, opts.token, opts.now);
    if (!inv) throw invitationNotFound();
    if (await tx.user.findUnique({ where: { email: inv.email }, select: { id: true } })) {
      throw new DomainError('account_exists', `${inv.email} already has an account: log in as it, then accept the invitation`);
    }
    const name = opts.name?.trim() || inv.email.split('@')[0];
    const user = await tx.user.create({ data: { email: inv.email, name, passwordHash, createdAt: opts.now }, select: { id: true, email: true, name: true } });
    await tx.membership.create({ data: { userId: user.id, orgId: inv.orgId, role: inv.role, createdAt: opts.now } });
    // Single use: the row goes with the acceptance.
    await tx.invitation.delete({ where: { id: inv.id } });
    await adoptEmailGrants(tx, inv.email, user.id);
    const session = await createWebSession(tx, { userId: user.id, now: opts.now });
    return { ...session, user, orgId: inv.orgId };
  });
}

/**
 * Accept as the signed-in user, whose email must be the invited one. A user who is already a member
 * keeps its role; the invitation is used up either way.
 * @throws `404 not_found` (link not valid); `403 forbidden` (signed in as another email, or not a browser login).
 */
export async function acceptInvitationAsUser(db: Db, opts: { actor: Actor; token: string; now: Date }): Promise<{ orgId: string }> {
  requireBrowserUser(opts.actor);
  const userId = opts.actor.id;
  return inTransaction(db, async (tx) => {
    const inv = await pending(tx, opts.token, opts.now);
    if (!inv) throw invitationNotFound();
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
    if (user.email !== inv.email) throw new DomainError('forbidden', `this invitation is for ${inv.email}: log in as that account to accept it`);
    const member = await tx.membership.findUnique({ where: { userId_orgId: { userId, orgId: inv.orgId } }, select: { id: true } });
    if (!member) await tx.membership.create({ data: { userId, orgId: inv.orgId, role: inv.role, createdAt: opts.now } });
    await tx.invitation.delete({ where: { id: inv.id } });
    await adoptEmailGrants(tx, inv.email, userId);
    return { orgId: inv.orgId };
  });
}
