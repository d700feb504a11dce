/**
 * Browser login with email + password (SPEC §2). The answer for a wrong password, an unknown email
 * and an account without a password is the same `401 unauthorized` with the same message, and costs
 * one scrypt in every case (`matchPassword`), so neither the text nor the time tells which it was.
 * An email may have several accounts (one per org link that made one, docs/decisions.md 160): the
 * password picks the account (the oldest of those it matches); they share a salt, so one scrypt checks all.
 */
import { inTransaction, type Db } from '../db';
import { DomainError } from '../errors';
import type { Actor } from './actor';
import { accountsOfEmail } from './account-password';
import { deviceTokenUser, issueDeviceToken } from './login-device';
import { countLoginAttempt, giveBackLoginAttempt, loginThrottle, recordLoginFailure, recordLoginSuccess, spentAccounts } from './login-rate-limit';
import { matchPassword } from './password';
import { createWebSession, type WebUser } from './web-session';

export interface LoginOptions {
  email: string;
  password: string;
  /** The client's address as the web server resolved it (for the failed-attempt counters); `unknown` when none. */
  client: string;
  /** The `scheduler_device` cookie's token, when the browser sent one (login-device.ts). */
  deviceToken?: string | null;
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
 * @returns the session token (for the cookie; only its hash is stored), its expiry, the user and actor,
 *   and a fresh login device token for the `scheduler_device` cookie.
 * @throws `429 rate_limited` after too many failures for this email from this address, from this
 *   address at all, or for this email from anywhere unless the attempt comes from a known device, and
 *   for the password of an account of a several-account email past its logins from new browsers (see
 *   login-rate-limit.ts); `401 unauthorized` ("email or password is incorrect") for any other refusal.
 */
export async function login(db: Db, opts: LoginOptions): Promise<{ token: string; expiresAt: Date; user: WebUser; actor: Actor; deviceToken: string }> {
  const email = normalizeEmail(opts.email).slice(0, 320);
  const client = opts.client.slice(0, 128) || 'unknown';
  const throttle = await loginThrottle(db, email, client, opts.now);
  const refuse = (ms: number, what: string) => {
    const minutes = Math.max(1, Math.ceil(ms / 60_000));
    return new DomainError('rate_limited', `too many ${what}; try again in ${minutes} minute${minutes === 1 ? '' : 's'}`);
  };
  if (throttle.retryAfterMs > 0) throw refuse(throttle.retryAfterMs, throttle.refusedBy === 'source' ? 'failed login attempts from this address' : 'failed login attempts for this email');
  // Counted before the check (every success gives it back), so a burst of parallel guesses meets the limit exactly.
  const { lockedMs } = await countLoginAttempt(db, email, opts.now);
  let accounts = isEmailShape(email) ? await accountsOfEmail(db, email) : [];
  const known = deviceTokenUser(opts.deviceToken, opts.now);
  // Accounts past their logins (decision 335): matched first, so a match is refused whatever the others hold.
  let spent: typeof accounts = [];
  let spentMs = new Map<string, number>();
  if (lockedMs > 0) {
    // Locked: only a browser where one of these accounts logged in before may try, and only for it.
    accounts = accounts.filter((a) => a.id === known);
    if (accounts.length === 0) throw refuse(lockedMs, 'failed login attempts for this account');
  } else {
    if (throttle.delayMs > 0) await new Promise((r) => setTimeout(r, throttle.delayMs));
    if (accounts.length > 1) {
      spentMs = await spentAccounts(db, accounts.map((a) => a.id), opts.now);
      const own = known && spentMs.has(known) ? accounts.find((a) => a.id === known) : undefined;
      if (own) {
        // A spent account's own browser: checked against it alone, so its answer tells nothing of the others.
        accounts = [own];
      } else {
        spent = accounts.filter((a) => spentMs.has(a.id));
        accounts = accounts.filter((a) => !spentMs.has(a.id));
      }
    }
  }
  const candidates = [...spent, ...accounts];
  // One scrypt whatever happened above: an unknown email costs what a wrong password costs.
  const matched = await matchPassword(opts.password, candidates.map((a) => a.passwordHash));
  if (matched < 0) {
    await recordLoginFailure(db, email, client, opts.now);
    throw new DomainError('unauthorized', LOGIN_REFUSED_MESSAGE);
  }
  if (matched < spent.length) {
    // The right password of a spent account: no failure (given back), but no login from a new browser.
    await giveBackLoginAttempt(db, email);
    throw refuse(spentMs.get(spent[matched].id) ?? 1, 'logins for this account from new browsers');
  }
  const user = candidates[matched];
  const session = await inTransaction(db, async (tx) => {
    // A success is never a failure of the email. Checked against several accounts, it is no proof that
    // the attempt was not a guess at another of them (which account answered tells it), so it counts
    // as a login of the account that answered (docs/decisions.md 162, 335).
    await recordLoginSuccess(tx, email, client, { now: opts.now, countFor: candidates.length > 1 ? user.id : null });
    return createWebSession(tx, { userId: user.id, now: opts.now });
  });
  return {
    ...session,
    user: { id: user.id, email: user.email, name: user.name },
    actor: { type: 'user', id: user.id, roleCap: null },
    deviceToken: issueDeviceToken(user.id, opts.now),
  };
}
