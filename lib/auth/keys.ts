/**
 * API keys (SPEC §2): the secret is shown once; only its SHA-256 hash is stored. A key looks like
 * `sk_<prefix>_<secret>`; `prefix` (12 hex chars) finds the row, the hash of the whole key verifies it.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { findApiKeyByPrefix, type Db, type Tx } from '../db';
import { stampLastUsed } from './last-used';
import type { Actor } from './actor';

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex');
}

/** A new random key and the parts to store. */
export function generateApiKey(): { key: string; prefix: string; secretHash: string } {
  const prefix = randomBytes(6).toString('hex');
  const key = `sk_${prefix}_${randomBytes(24).toString('base64url')}`;
  return { key, prefix, secretHash: hashSecret(key) };
}

/** The prefix of a key in the `sk_<prefix>_<secret>` shape, or null. */
export function keyPrefix(key: string): string | null {
  const m = /^sk_([0-9a-f]{12})_[A-Za-z0-9_-]{8,}$/.exec(key);
  return m ? m[1] : null;
}

/**
 * The actor an API key acts as, or null when the key is unknown or revoked. Accepts generated keys
 * (`sk_<prefix>_<secret>`) and operator-chosen ones (the bootstrap key), whose row is found by the first
 * 12 hex chars of the key's hash. Side effect: stamps `lastUsedAt` (at most once a minute per key, in
 * a transaction of its own; the lookup is a plain read). When the storage refuses the stamp (disk full,
 * read-only database: `storageFaultOf` in lib/errors) the key still authenticates, so reads keep answering.
 */
export async function actorFromApiKey(db: Db, key: string, now: Date = new Date()): Promise<Actor | null> {
  const hash = hashSecret(key);
  // One statement on the driver (docs/decisions.md 385): the first read of every API request.
  const row = await findApiKeyByPrefix(db, keyPrefix(key) ?? hash.slice(0, 12));
  if (!row || row.revokedAt) return null;
  const a = Buffer.from(row.secretHash, 'hex');
  const b = Buffer.from(hash, 'hex');
  if (a.length !== b.length || !timingSafeEqual(a, b)) return null;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > 60_000) {
    // Disk full or read-only: the stamp is lost, the request goes on (its own write, if any, answers 503).
    await stampLastUsed(db, (tx) => tx.apiKey.update({ where: { id: row.id }, data: { lastUsedAt: now } }));
  }
  const roleCap = row.role === 'write' ? 'write' : 'read';
  if (row.orgId) return { type: 'org', id: row.orgId, roleCap };
  if (row.userId) return { type: 'user', id: row.userId, roleCap };
  return null;
}

/**
 * Create or update a key whose full value is known in advance (the bootstrap key of the seed).
 * Idempotent: the same value always maps to the same row.
 */
export async function upsertKnownApiKey(
  db: Tx,
  opts: { key: string; name: string; role: 'read' | 'write'; orgId?: string; userId?: string },
): Promise<void> {
  const prefix = keyPrefix(opts.key) ?? hashSecret(opts.key).slice(0, 12);
  const data = {
    name: opts.name,
    secretHash: hashSecret(opts.key),
    role: opts.role,
    orgId: opts.orgId ?? null,
    userId: opts.userId ?? null,
    revokedAt: null,
  };
  await db.apiKey.upsert({ where: { prefix }, create: { prefix, ...data }, update: data });
}

