/**
 * Failed-login throttling, stored in the database (`login_throttles`) so every web process shares one
 * budget and a restart forgets nothing (docs/decisions.md 22). The client address is the one the web
 * server resolved (scripts/web-server.ts: the socket's peer, or behind SCHEDULER_TRUSTED_PROXIES the
 * nearest untrusted `X-Forwarded-For` hop), so a client cannot choose it. Three counters, each a
 * 15-minute window from its first failure:
 *
 * - **the pair** (address, email): 5 failures, then that address is refused for that email
 *   (`429 rate_limited`) until the window ends, even with the right password; a success clears it;
 * - **the source** (address, any email): 50 failures, then that address is refused for every email;
 * - **the account** (email, any address): from the 10th failure on, every attempt for that email waits
 *   before its password is checked, 250 ms more per failure, at most 3 s; from the 20th, the email is
 *   refused (`429 rate_limited`, "for this account") until its window ends, from every address, except
 *   for an attempt that carries a login device token of one of the email's accounts (a browser where it
 *   logged in before, login-device.ts): that attempt is checked, against that account only, without
 *   the wait. So 40 addresses get 20 guesses per 15 minutes between them, not 200, and the owner keeps
 *   logging in from a browser it used before (docs/decisions.md 162). The email's counter is taken
 *   BEFORE the password is checked (one atomic upsert; every success gives it back: it counts failures
 *   only), so parallel guesses cannot all pass the check before any of them is counted.
 *
 * And one more for an email with several accounts (docs/decisions.md 160, 335): **the logins** of each
 * account (`login:<user id>`), its successes checked against more than one account. From the 20th in a
 * window, that account is checked only for an attempt carrying its own device token (and then alone);
 * any other attempt whose password matches it is refused `429` whatever the other accounts hold, so
 * the holder of one account cannot keep setting its own password to guesses and learning from which
 * account answered whether a guess was another's, while the other accounts' owners are not touched.
 */
import { countLoginFailure, inTransaction, type Db, type Tx } from '../db';

/** Length of a counting window, in ms (15 minutes). */
export const LOGIN_WINDOW_MS = 15 * 60 * 1000;
/** Failures allowed per address + email in one window. */
export const LOGIN_FAILURES_PER_CLIENT = 5;
/** Failures allowed per address (any emails) in one window. */
export const LOGIN_FAILURES_PER_SOURCE = 50;
/** Failures per email (any addresses) after which every attempt for it is slowed. */
export const LOGIN_SLOW_AFTER = 10;
/** Failed attempts per email (any addresses) in one window; later ones are refused but from a known device. */
export const LOGIN_FAILURES_PER_ACCOUNT = 20;
/** Logins of one account of a several-account email, checked against others too, per window (decision 335). */
export const LOGIN_SUCCESSES_PER_ACCOUNT = 20;
/** The longest an attempt is slowed, in ms. */
export const LOGIN_MAX_DELAY_MS = 3000;

export interface LoginThrottle {
  /** Ms until this address may try again (0: it may try now). */
  retryAfterMs: number;
  /** Which counter refused: `pair` (this email from this address) or `source` (this address). */
  refusedBy: 'pair' | 'source' | null;
  /** How long to wait before checking the password, in ms (the account is being guessed). */
  delayMs: number;
}

const keys = (email: string, client: string) => ({ pair: `pair:${client}|${email}`, source: `source:${client}`, account: `account:${email}` });
const loginKey = (userId: string) => `login:${userId}`;

/** The address limits and the slow-down for `email` from address `client` at `now` (reads only). */
export async function loginThrottle(db: Tx, email: string, client: string, now: Date): Promise<LoginThrottle> {
  const k = keys(email, client);
  const floor = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const rows = await db.loginThrottle.findMany({ where: { key: { in: [k.pair, k.source, k.account] }, windowStart: { gt: floor } } });
  const get = (key: string) => rows.find((r) => r.key === key);
  let retryAfterMs = 0;
  let refusedBy: LoginThrottle['refusedBy'] = null;
  for (const [which, limit] of [['pair', LOGIN_FAILURES_PER_CLIENT], ['source', LOGIN_FAILURES_PER_SOURCE]] as const) {
    const row = get(k[which]);
    if (row && row.failures >= limit) {
      const wait = row.windowStart.getTime() + LOGIN_WINDOW_MS - now.getTime();
      if (wait > retryAfterMs) [retryAfterMs, refusedBy] = [wait, which];
    }
  }
  const account = get(k.account)?.failures ?? 0;
  const delayMs = account >= LOGIN_SLOW_AFTER ? Math.min(LOGIN_MAX_DELAY_MS, 250 * (account - LOGIN_SLOW_AFTER + 1)) : 0;
  return { retryAfterMs, refusedBy, delayMs };
}

/**
 * Count one attempt for `email` (any address) at `now`, before its password is checked, and say whether
 * the email is now locked: `lockedMs` is the time until its window ends once this attempt is past
 * `LOGIN_FAILURES_PER_ACCOUNT`, else 0. A successful attempt gives its count back (`recordLoginSuccess`).
 */
export async function countLoginAttempt(db: Db, email: string, now: Date): Promise<{ attempts: number; lockedMs: number }> {
  const key = keys(email, '').account;
  const floor = new Date(now.getTime() - LOGIN_WINDOW_MS);
  return inTransaction(db, async (tx) => {
    // Exact under concurrency: each parallel attempt gets its own number from the one upsert.
    const attempts = await countLoginFailure(tx, key, now, floor);
    if (attempts <= LOGIN_FAILURES_PER_ACCOUNT) return { attempts, lockedMs: 0 };
    const row = await tx.loginThrottle.findUnique({ where: { key } });
    return { attempts, lockedMs: Math.max(1, (row?.windowStart.getTime() ?? now.getTime()) + LOGIN_WINDOW_MS - now.getTime()) };
  });
}

/**
 * Count one failed attempt for `email` from `client` on the address counters (the email's own counter
 * took the attempt before it was checked: `countLoginAttempt`); drops ended windows.
 */
export async function recordLoginFailure(db: Db, email: string, client: string, now: Date): Promise<void> {
  const k = keys(email, client);
  const floor = new Date(now.getTime() - LOGIN_WINDOW_MS);
  await inTransaction(db, async (tx) => {
    for (const key of [k.pair, k.source]) await countLoginFailure(tx, key, now, floor);
    // Bounded by the table's size (one row per recent counter), through the window_start index.
    await tx.loginThrottle.deleteMany({ where: { windowStart: { lte: floor } } });
  });
}

/**
 * Of the accounts `userIds` (one email's), those that had `LOGIN_SUCCESSES_PER_ACCOUNT` logins checked
 * against several accounts in the window ending at `now` (docs/decisions.md 335), each with the ms
 * until its window ends.
 */
export async function spentAccounts(db: Tx, userIds: readonly string[], now: Date): Promise<Map<string, number>> {
  const floor = new Date(now.getTime() - LOGIN_WINDOW_MS);
  const rows = await db.loginThrottle.findMany({ where: { key: { in: userIds.map(loginKey) }, windowStart: { gt: floor }, failures: { gte: LOGIN_SUCCESSES_PER_ACCOUNT } } });
  const spent = new Map<string, number>();
  for (const id of userIds) {
    const row = rows.find((r) => r.key === loginKey(id));
    if (row) spent.set(id, Math.max(1, row.windowStart.getTime() + LOGIN_WINDOW_MS - now.getTime()));
  }
  return spent;
}

/**
 * Give back the attempt `countLoginAttempt` took from `email`: the attempt was no failure (its password
 * matched an account of the email). The email's counter counts failures only.
 */
export async function giveBackLoginAttempt(db: Tx, email: string): Promise<void> {
  await db.loginThrottle.updateMany({ where: { key: keys(email, '').account, failures: { gt: 0 } }, data: { failures: { decrement: 1 } } });
}

/**
 * A successful login clears its pair's counter and gives back the attempt `countLoginAttempt` took
 * from the email (a success is never a failure, whichever account of the email it opened; the source's
 * and the email's windows run on). With `countFor`, the user id of an account whose password was
 * checked against other accounts of its email too (decision 335), that account's logins are counted:
 * the holder of one account could otherwise set its own password to each guess and log in, learning
 * from which account answered whether the guess was another's password; past the limit it is checked
 * alone, and only from its own browsers (`spentAccounts`).
 */
export async function recordLoginSuccess(db: Tx, email: string, client: string, opts: { now: Date; countFor?: string | null }): Promise<void> {
  const k = keys(email, client);
  await db.loginThrottle.deleteMany({ where: { key: k.pair } });
  await giveBackLoginAttempt(db, email);
  if (opts.countFor) await countLoginFailure(db, loginKey(opts.countFor), opts.now, new Date(opts.now.getTime() - LOGIN_WINDOW_MS));
}
