/**
 * Webhook signing secrets (SPEC §13.1): `whsec_` + base64 of 32 random bytes, the Standard Webhooks
 * format that `standardwebhooks`' `Webhook` reads (24–64 bytes recommended).
 */
import { randomBytes } from 'node:crypto';

export const SIGNING_SECRET_PREFIX = 'whsec_';

/** A new random signing secret. */
export function generateSigningSecret(): string {
  return `${SIGNING_SECRET_PREFIX}${randomBytes(32).toString('base64')}`;
}

/** What may be shown of a secret after its one showing: the prefix and its first 4 key characters. */
export function signingSecretHint(secret: string): string {
  return `${secret.slice(0, SIGNING_SECRET_PREFIX.length + 4)}…`;
}
