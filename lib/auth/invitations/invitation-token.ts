import { randomBytes } from 'node:crypto';
import { hashSecret } from '../keys';

/** How long an invitation link works, in ms: 7 days from when it was made. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** A new one-time token (256 random bits, base64url) and the SHA-256 that is stored instead of it. */
export function newInvitationToken(): { token: string; tokenHash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, tokenHash: hashSecret(token) };
}

/** The stored hash of `token`, or null when it cannot be a token (so no lookup is made). */
export function invitationTokenHash(token: string | null | undefined): string | null {
  return token && TOKEN_SHAPE.test(token) ? hashSecret(token) : null;
}
