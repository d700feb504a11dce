import { inTransaction, type Db } from '../db';
import { DomainError } from '../errors';
import type { Actor } from './actor';
import type { PasswordChangeInput } from './contract';
import { passwordHashForEmail } from './account-password';
import { verifyPassword } from './password';
import { requireBrowserUser } from './org-admin';
import { hashSecret } from './keys';

/**
 * Change the signed-in user's password. Every other browser session of the user ends (the one
 * `currentToken` names stays); API keys are unaffected.
 * @throws `403 forbidden` (not a browser login), `400 invalid_request_body` (path `current_password`:
 *   the current password is wrong).
 */
export async function changePassword(db: Db, opts: { actor: Actor; input: PasswordChangeInput; currentToken: string | null }): Promise<void> {
  requireBrowserUser(opts.actor);
  const user = await db.user.findUnique({ where: { id: opts.actor.id }, select: { id: true, email: true, passwordHash: true } });
  if (!(await verifyPassword(opts.input.current_password, user?.passwordHash ?? null)) || !user) {
    throw new DomainError('invalid_request_body', 'the current password is not correct', { path: 'current_password' });
  }
  // The email's accounts share one salt (account-password.ts), so a login checks them with one scrypt.
  const passwordHash = await passwordHashForEmail(db, user.email, opts.input.new_password);
  const keep = opts.currentToken ? hashSecret(opts.currentToken) : '';
  await inTransaction(db, async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { passwordHash } });
    await tx.webSession.deleteMany({ where: { userId: user.id, tokenHash: { not: keep } } });
  });
}
