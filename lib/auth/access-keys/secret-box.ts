/**
 * Secrets at rest, sealed with the server key: access key secrets (SPEC §14: SigV4 verification
 * recomputes the caller's signature, so the server needs each secret, not a hash of it) and the header
 * values of `http` targets (SPEC §13.5). AES-256-GCM under the server key, with a context as
 * additional data: the access key id, or the header's name (a sealed secret moved to another row or
 * header does not open).
 *
 * The server key is the configuration's (`serverSecretKey`, lib/config/server-key.ts).
 *
 * Sealed form: `v1.<key fingerprint, 8 hex>.<iv>.<tag>.<ciphertext>` (base64url parts).
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { serverSecretKey } from '../../config';

/** The fingerprint stored beside each sealed secret: the first 4 bytes of SHA-256(key), hex. */
function fingerprint(key: Buffer): string {
  return createHash('sha256').update(key).digest('hex').slice(0, 8);
}

/** Seal `secret` for `context` (an access key id, a header's `http-header:<name>`). */
export function sealSecret(secret: string, context: string, key: Buffer = serverSecretKey()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(context, 'utf8'));
  const ct = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  const b = (x: Buffer) => x.toString('base64url');
  return ['v1', fingerprint(key), b(iv), b(cipher.getAuthTag()), b(ct)].join('.');
}

/**
 * Open a secret sealed for `context`.
 * @throws Error naming the cause: another server key sealed it (SCHEDULER_SECRET_KEY changed or
 *   differs between hosts), or the value was altered (or moved to another context).
 */
export function openSecret(sealed: string, context: string, key: Buffer = serverSecretKey()): string {
  const [version, print, iv, tag, ct] = sealed.split('.');
  if (version !== 'v1' || !iv || !tag || ct === undefined) throw new Error(`the sealed secret of ${context} is not in the v1 form`);
  if (print !== fingerprint(key)) throw new Error(`the secret of ${context} was sealed with another server key (fingerprint ${print}); set the SCHEDULER_SECRET_KEY it was created with`);
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAAD(Buffer.from(context, 'utf8'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
