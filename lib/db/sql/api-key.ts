/**
 * The API key row a request's credential names (SPEC §2), read by its unique `prefix`: the first
 * statement of every product API request, so it runs on the driver directly (`readRows`,
 * docs/decisions.md 385) instead of through Prisma's model API.
 */
import type { Tx } from '../client';
import { readRows } from './run-sql';
import { rawInstant, rawText, rawTextOrNull } from './schedule-record';

/** Params: prefix. */
export const FIND_API_KEY_SQL = {
  sqlite: 'SELECT id, secret_hash, role, org_id, user_id, last_used_at, revoked_at FROM api_keys WHERE prefix = ?',
  postgresql: 'SELECT id, secret_hash, role, org_id, user_id, last_used_at, revoked_at FROM api_keys WHERE prefix = $1',
} as const;

/** An `api_keys` row as the key check needs it (camelCase like the Prisma model). */
export interface ApiKeyRecord {
  id: string;
  /** SHA-256 of the whole key, hex. */
  secretHash: string;
  /** `read` | `write` (SPEC §2), as stored. */
  role: string;
  orgId: string | null;
  userId: string | null;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

/** The key whose `prefix` is `prefix`, or null. */
export async function findApiKeyByPrefix(db: Tx, prefix: string): Promise<ApiKeyRecord | null> {
  const [r] = await readRows(db, FIND_API_KEY_SQL, prefix);
  if (!r) return null;
  return {
    id: rawText('api_keys.id', r.id),
    secretHash: rawText('api_keys.secret_hash', r.secret_hash),
    role: rawText('api_keys.role', r.role),
    orgId: rawTextOrNull('api_keys.org_id', r.org_id),
    userId: rawTextOrNull('api_keys.user_id', r.user_id),
    lastUsedAt: rawInstant(r.last_used_at),
    revokedAt: rawInstant(r.revoked_at),
  };
}
