/**
 * Browser login with email + password (SPEC §2). The answer for a wrong password, an unknown email
 * and an account without a password is the same `401 unauthorized` with the same message, and costs
 * one scrypt in every case (`verifyPassword`), so neither the text nor the time tells which it was.
 */
import { inTransaction, type Db } from '../db';
import { DomainError } from '../errors';
import type { Actor } from './actor';
import { loginThrottle, recordLoginFailure, recordLoginSuccess } from './login-rate-limit';
import { MAX_PASSWORD_LENGTH, verifyPassword } from './password';
import { createWebSession, type WebUser } from './web-session';

export interface LoginOptions {
  email: string;
  password: string;
  /** The client's address as the web server resolved it (for the failed-attempt counters); `unknown` when none. */
  client: string;
  now: Date;
}

/** Lookup form of an email: trimmed and lowercased. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** True for a plausible email address (`local@domain`, no spaces, at most 254 chars). */
export function isEmailShape(email: string): boolean {
  return email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email);
}

export const LOGIN_REFUSED_MESSAGE = 'email or password is incorrect';

/**
 * Check the credentials and open a browser session.
 * @returns the session token (for the cookie; only its hash is stored), its expiry, the user and actor.
 * An email being guessed from many addresses is slowed, never refused (login-rate-limit.ts).
 * @throws `429 rate_limited` after too many failures for this email from this address, or from this
 *   address at all (see login-rate-limit.ts); `401 unauthorized` ("email or password is incorrect")
 *   for any other refusal.
 */
export async function login(db: Db, opts: LoginOptions): Promise<{ token: string; expiresAt: Date; user: WebUser; actor: Actor }> {
  const email = normalizeEmail(opts.email).slice(0, 320);
  const client = opts.client.slice(0, 128) || 'unknown';
  const throttle = await loginThrottle(db, email, client, opts.now);
  if (throttle.retryAfterMs > 0) {
    const minutes = Math.max(1, Math.ceil(throttle.retryAfterMs / 60_000));
    const what = throttle.refusedBy === 'source' ? 'from this address' : 'for this email';
    throw new DomainError('rate_limited', `too many failed login attempts ${what}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`);
  }
  if (throttle.delayMs > 0) await new Promise((r) => setTimeout(r, throttle.delayMs));
  const user = isEmailShape(email)
    ? await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, passwordHash: true } })
    : null;
  // One scrypt whatever happened above: an unknown email costs what a wrong password costs.
  const ok = (await verifyPassword(opts.password, user?.passwordHash ?? null)) && opts.password.length <= MAX_PASSWORD_LENGTH;
  if (!user || !ok) {
    await recordLoginFailure(db, email, client, opts.now);
    throw new DomainError('unauthorized', LOGIN_REFUSED_MESSAGE);
  }
  const session = await inTransaction(db, async (tx) => {
    await recordLoginSuccess(tx, email, client);
    return createWebSession(tx, { userId: user.id, now: opts.now });
  });
  return {
    ...session,
    user: { id: user.id, email: user.email, name: user.name },
    actor: { type: 'user', id: user.id, roleCap: null },
  };
}
