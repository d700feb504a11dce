/**
 * Login devices (docs/decisions.md 162): a browser where an account logged in successfully keeps a
 * signed token in the `scheduler_device` cookie (Path=/auth, HttpOnly, 90 days). While an account is
 * locked by failed logins from many addresses (login-rate-limit.ts), an attempt that carries a device
 * token of one of the email's accounts is still checked, against that account only; so someone guessing
 * an owner's password cannot lock the owner out of a browser they used before.
 *
 * Stateless: `<user id>.<issued, epoch s base36>.<HMAC-SHA256 under a key derived from the server key>`.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { serverSecretKey } from '../config';
import { isIdShape } from '../ids';

/** Name of the cookie that carries a login device token. */
export const DEVICE_COOKIE = 'scheduler_device';

/** How long a device token works after the login that issued it, in ms: 90 days. */
export const DEVICE_TOKEN_TTL_MS = 90 * 24 * 60 * 60 * 1000;

function mac(userId: string, issued: string, key: Buffer): string {
  const sub = createHmac('sha256', key).update('scheduler login device v1').digest();
  return createHmac('sha256', sub).update(`${userId}|${issued}`).digest('base64url');
}

/** A device token for user `userId`, issued at `now`. */
export function issueDeviceToken(userId: string, now: Date, key: Buffer = serverSecretKey()): string {
  const issued = Math.floor(now.getTime() / 1000).toString(36);
  return `${userId}.${issued}.${mac(userId, issued, key)}`;
}

/** The user id a device token was issued to, or null when it is malformed, forged or older than 90 days. */
export function deviceTokenUser(token: string | null | undefined, now: Date, key: Buffer = serverSecretKey()): string | null {
  if (!token || token.length > 200) return null;
  const [userId, issued, sig, ...rest] = token.split('.');
  if (rest.length > 0 || !userId || !issued || !sig || !isIdShape(userId) || !/^[0-9a-z]{1,12}$/.test(issued)) return null;
  const age = now.getTime() - parseInt(issued, 36) * 1000;
  if (!(age >= -60_000 && age < DEVICE_TOKEN_TTL_MS)) return null;
  const want = Buffer.from(mac(userId, issued, key));
  const got = Buffer.from(sig);
  return want.length === got.length && timingSafeEqual(want, got) ? userId : null;
}
