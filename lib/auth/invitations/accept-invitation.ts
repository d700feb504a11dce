/**
 * Accepting an invitation (docs/decisions.md 51, 160): the link's token is the invitee's proof; it
 * works once, for 7 days. It carries the org's role (when it has one) and the org's blob grants held
 * for the email, and nothing of any other org. Two ways in:
 * - **a new account**: the invitee chooses a password and an account is made with the invited email,
 *   whether or not the email has accounts already (made through other orgs' links): the answer is the
 *   same either way, so a link tells nobody whether an email has an account elsewhere, and a link never
 *   sets the password of an existing account. The new account is this org's, and holds nothing another
 *   org gave the email.
 * - **an existing account**: the invitee logs in as it (an account of the invited email) and accepts.
 *   An account joins another org only this way, never by choosing a password.
 * Either way the invitation row is deleted in the same transaction (single use).
 */
import { inTransaction, type Db, type Tx } from '../../db';
import { DomainError } from '../../errors';
import type { Actor } from '../actor';
import { passwordHashForEmail } from '../account-password';
import { requireBrowserUser } from '../org-admin';
import { isRole, type Role } from '../roles';
import { createWebSession, type WebUser } from '../web-session';
import { invitationTokenHash } from './invitation-token';
import { adoptPendingGrants, pendingGrantsOf } from './pending-grants';

/** The one answer for a token that is unknown, used, revoked or expired. */
const invitationNotFound = () => new DomainError('not_found', 'this invitation link is not valid: it was used, withdrawn or has expired');

export interface InvitationView {
  org: { id: string; alias: string | null; name: string };
  email: string;
  /** The org role it gives, or null when it carries blob grants only. */
  role: Role | null;
  /** The org's blob grants it carries (pending for the email), oldest first. */
  grants: { blob: string; role: string }[];
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
  if (!row) return null;
  const grants = await pendingGrantsOf(db, row.orgId, row.email);
  return {
    org: row.org,
    email: row.email,
    role: row.role && isRole(row.role) ? row.role : null,
    grants: grants.map((g) => ({ blob: g.blob.alias ?? g.blob.name, role: g.role })),
    expiresAt: row.expiresAt,
  };
}

/**
 * What accepting invitation `inv` gives user `userId`, in `tx`: the org's role (unless it is a member
 * already: it keeps its role) and the org's pending grants for the email; then the row is deleted.
 * @throws `409 already_member` when another account of the email is a member of the org already (an
 *   org never has two members with one email; its admins see their members anyway).
 */
async function redeem(tx: Tx, inv: { id: string; orgId: string; email: string; role: string | null }, userId: string, now: Date): Promise<void> {
  if (inv.role !== null) {
    const member = await tx.membership.findUnique({ where: { userId_orgId: { userId, orgId: inv.orgId } }, select: { id: true } });
    if (!member) {
      if (await tx.membership.findFirst({ where: { orgId: inv.orgId, user: { email: inv.email } }, select: { id: true } })) {
        throw new DomainError('already_member', `${inv.email} is already a member of this org: log in as it, then accept the invitation`);
      }
      await tx.membership.create({ data: { userId, orgId: inv.orgId, role: inv.role, createdAt: now } });
    }
  }
  // Single use: the row goes with the acceptance.
  await tx.invitation.delete({ where: { id: inv.id } });
  // Only this org's grants: a link never hands over what another org granted the email.
  await adoptPendingGrants(tx, inv.orgId, inv.email, userId);
}

/**
 * Accept with a new account: create the user (invited email, `password`), what the invitation carries,
 * and a browser session. The answer does not depend on whether the email has accounts elsewhere. The
 * password is hashed before the transaction (scrypt must not hold the write lock), with the salt the
 * email's other accounts use (account-password.ts).
 * @returns the session token (for the cookie; only its hash is stored) and its expiry, and the user.
 * @throws `404 not_found` (link not valid); `409 already_member` when a member of this org has the
 *   email (log in as it instead; the org's admins see their members anyway).
 */
export async function acceptInvitationWithNewAccount(
  db: Db,
  opts: { token: string; password: string; name?: string; now: Date },
): Promise<{ token: string; expiresAt: Date; user: WebUser; orgId: string }> {
  const row = await pending(db, opts.token, opts.now);
  const passwordHash = await passwordHashForEmail(db, row?.email ?? '', opts.password);
  return inTransaction(db, async (tx) => {
    const inv = await pending(tx, opts.token, opts.now);
    if (!inv) throw invitationNotFound();
    const name = opts.name?.trim() || inv.email.split('@')[0];
    const user = await tx.user.create({ data: { email: inv.email, name, passwordHash, createdAt: opts.now }, select: { id: true, email: true, name: true } });
    await redeem(tx, inv, user.id, opts.now);
    const session = await createWebSession(tx, { userId: user.id, now: opts.now });
    return { ...session, user, orgId: inv.orgId };
  });
}

/**
 * Accept as the signed-in user, whose email must be the invited one. A user who is already a member
 * keeps its role; the invitation is used up either way.
 * @throws `404 not_found` (link not valid); `403 forbidden` (signed in as another email, or not a browser login);
 *   `409 already_member` (another account of the email is a member of the org).
 */
export async function acceptInvitationAsUser(db: Db, opts: { actor: Actor; token: string; now: Date }): Promise<{ orgId: string }> {
  requireBrowserUser(opts.actor);
  const userId = opts.actor.id;
  return inTransaction(db, async (tx) => {
    const inv = await pending(tx, opts.token, opts.now);
    if (!inv) throw invitationNotFound();
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: { email: true } });
    if (user.email !== inv.email) throw new DomainError('forbidden', `this invitation is for ${inv.email}: log in as that account to accept it`);
    await redeem(tx, inv, userId, opts.now);
    return { orgId: inv.orgId };
  });
}
