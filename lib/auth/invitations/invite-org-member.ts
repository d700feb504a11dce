import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import type { Actor } from '../actor';
import type { MemberAddInput } from '../contract';
import { requireBrowserUser, requireOrgRole } from '../org-admin';
import { INVITATION_TTL_MS, newInvitationToken } from './invitation-token';

export interface InviteOrgMemberOptions {
  actor: Actor;
  /** Org id or alias. */
  org: string;
  input: MemberAddInput;
  now: Date;
}

/**
 * Invite `input.email` to the org with `input.role` (docs/decisions.md 26, 51, 160). Makes no account
 * and attaches none: the answer is a one-time link token for the admin to pass on, valid for 7 days, of
 * which only the SHA-256 is stored. The link also carries the org's blob grants held for the email.
 * Whether the email has an account anywhere on the instance changes nothing in the answer, nor in what
 * the link does. Inviting the same email again replaces the pending invitation (the old link stops
 * working), a blob-grants-only one included. Needs `admin` on the org, from a browser login.
 * @returns the token (shown once), the invitation's id, email, role and expiry (UTC).
 * @throws `404 not_found`, `403 forbidden` (see `requireOrgRole`); `409 already_member` (path `email`)
 *   when a member of THIS org has the email (the admin sees its members anyway).
 */
export async function inviteOrgMember(db: Db, opts: InviteOrgMemberOptions): Promise<{ token: string; id: string; email: string; role: string; expiresAt: Date }> {
  requireBrowserUser(opts.actor);
  const { email, role } = opts.input;
  const { token, tokenHash } = newInvitationToken();
  const expiresAt = new Date(opts.now.getTime() + INVITATION_TTL_MS);
  return inTransaction(db, async (tx) => {
    const org = await requireOrgRole(tx, opts.actor, opts.org, 'admin');
    const member = await tx.membership.findFirst({ where: { orgId: org.id, user: { email } }, select: { id: true } });
    if (member) throw new DomainError('already_member', `${email} is already a member of this org; change the role instead`, { path: 'email' });
    const row = await tx.invitation.upsert({
      where: { orgId_email: { orgId: org.id, email } },
      create: { orgId: org.id, email, role, tokenHash, invitedById: opts.actor.id, createdAt: opts.now, expiresAt },
      update: { role, tokenHash, invitedById: opts.actor.id, createdAt: opts.now, expiresAt },
    });
    return { token, id: row.id, email, role, expiresAt };
  });
}
