import type { Db, Tx } from '../../db';
import { stampLastUsed } from '../last-used';
import type { Actor } from '../actor';
import { ensureAccountId } from './account-id';
import { openSecret, sealSecret } from './secret-box';

/** What SigV4 verification needs about an access key id (SPEC §14). */
export interface AccessKeyCredential {
  /** The row id (for `touchAccessKey`). */
  id: string;
  accessKeyId: string;
  /** The opened secret: compare signatures with it, never log or return it. */
  secretAccessKey: string;
  /** Who requests signed with it act as, capped at the pair's role. */
  actor: Actor;
  /** The org (AWS account) the pair belongs to; every request sees only this org's groups. */
  orgId: string;
  /** The org's 12-digit account id. */
  accountId: string;
  lastUsedAt: Date | null;
}

/**
 * The credential of `accessKeyId`, or null when no pair has it or it is revoked (both are
 * `UnrecognizedClientException`, SPEC §14). Reads the row on every call: a revocation applies at once.
 * @throws Error when the secret does not open (another server key sealed it): an operator problem,
 *   logged by the caller.
 */
export async function findAccessKeyCredential(db: Tx, accessKeyId: string): Promise<AccessKeyCredential | null> {
  const row = await db.accessKey.findUnique({ where: { accessKeyId } });
  if (!row || row.revokedAt) return null;
  const roleCap = row.role === 'write' ? 'write' : 'read';
  const actor: Actor = row.userId ? { type: 'user', id: row.userId, roleCap, accessKeyId } : { type: 'org', id: row.orgId, roleCap, accessKeyId };
  return {
    id: row.id,
    accessKeyId,
    secretAccessKey: openSecret(row.secretCiphertext, accessKeyId),
    actor,
    orgId: row.orgId,
    accountId: await ensureAccountId(db, row.orgId),
    lastUsedAt: row.lastUsedAt,
  };
}

/**
 * Stamp a pair's `lastUsedAt` after a verified request, at most once a minute. When the storage
 * refuses the stamp (disk full, read-only database) the stamp is lost and the request goes on, as
 * for API keys (lib/auth/last-used.ts).
 */
export async function touchAccessKey(db: Db, credential: Pick<AccessKeyCredential, 'id' | 'lastUsedAt'>, now: Date): Promise<void> {
  if (credential.lastUsedAt && now.getTime() - credential.lastUsedAt.getTime() <= 60_000) return;
  await stampLastUsed(db, (tx) => tx.accessKey.update({ where: { id: credential.id }, data: { lastUsedAt: now } }));
}

/**
 * Create or update a pair whose values are known in advance (the seed's bootstrap pair,
 * SCHEDULER_BOOTSTRAP_ACCESS_KEY_ID + SCHEDULER_BOOTSTRAP_SECRET_ACCESS_KEY): acting as `orgId`,
 * re-sealed, un-revoked. Idempotent: the same id always maps to the same row.
 */
export async function upsertKnownAccessKey(
  db: Tx,
  opts: { accessKeyId: string; secretAccessKey: string; name: string; role: 'read' | 'write'; orgId: string },
): Promise<void> {
  await ensureAccountId(db, opts.orgId);
  const data = {
    name: opts.name,
    role: opts.role,
    orgId: opts.orgId,
    userId: null,
    secretCiphertext: sealSecret(opts.secretAccessKey, opts.accessKeyId),
    revokedAt: null,
  };
  await db.accessKey.upsert({ where: { accessKeyId: opts.accessKeyId }, create: { accessKeyId: opts.accessKeyId, ...data }, update: data });
}
