import { inTransaction, type Db } from '../../db';
import { DomainError } from '../../errors';
import type { Actor } from '../actor';
import type { MemberAddInput } from '../contract';
import { requireBrowserUser, requireOrgRole } from '../org-admin';
import { generatePassword, hashPassword } from '../password';

export interface AddOrgMemberOptions {
  actor: Actor;
  /** Org id or alias. */
  org: string;
  input: MemberAddInput;
  now: Date;
}

/**
 * Add the user with `input.email` to the org with `input.role` (SPEC §2). When no user has that email,
 * one is created with a random password, returned ONCE as `generatedPassword` for the admin to hand
 * over (only its scrypt hash is stored). Needs `admin` on the org.
 * @throws `404 not_found`, `403 forbidden` (see `requireOrgRole`); `409 already_member` (path `email`).
 */
export async function addOrgMember(db: Db, opts: AddOrgMemberOptions): Promise<{ userId: string; email: string; generatedPassword: string | null }> {
  requireBrowserUser(opts.actor);
  const email = opts.input.email;
  // Hash before the transaction: scrypt takes ~100 ms and must not hold the database's write lock.
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  const generatedPassword = existing ? null : generatePassword();
  const passwordHash = generatedPassword ? await hashPassword(generatedPassword) : null;
  return inTransaction(db, async (tx) => {
    const org = await requireOrgRole(tx, opts.actor, opts.org, 'admin');
    let user = await tx.user.findUnique({ where: { email }, select: { id: true } });
    let created: string | null = null;
    if (!user) {
      if (!passwordHash) throw new DomainError('already_member', 'the user changed meanwhile; try again', { path: 'email' });
      user = await tx.user.create({ data: { email, name: email.split('@')[0], passwordHash, createdAt: opts.now }, select: { id: true } });
      created = generatedPassword;
    }
    const member = await tx.membership.findUnique({ where: { userId_orgId: { userId: user.id, orgId: org.id } }, select: { id: true } });
    if (member) throw new DomainError('already_member', `${email} is already a member of this org; change the role instead`, { path: 'email' });
    await tx.membership.create({ data: { userId: user.id, orgId: org.id, role: opts.input.role, createdAt: opts.now } });
    return { userId: user.id, email, generatedPassword: created };
  });
}
